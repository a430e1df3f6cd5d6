"""Three-way merge of one task file changed on two clones (pure): what `pm sync` does where git
reports a conflict in tasks/*.html.

Every log entry of both sides is kept (in time order), links are merged as sets (a link removed
on one side stays removed), and each field and section takes the side that changed it. When
both sides changed the same field or section, the side whose pm:updated is later wins (the
remote on a tie; a demotion from the sprint wins over a rank change), and a log entry by pm/sync records the value the other side had, so nothing
is lost silently.
"""
from __future__ import annotations

import html

from pm import taskfile
from pm.model import META_FIELDS, OPTIONAL_META, SECTIONS, LogEntry

MERGER = "pm/sync"
_FIELDS = [f for f in META_FIELDS + OPTIONAL_META if f not in ("id", "created", "updated")]


def _pick(base, ours, theirs, ours_wins: bool):
    """(value, the other side's value when both changed it differently, else None)."""
    if ours == theirs or theirs == base:
        return ours, None
    if ours == base:
        return theirs, None
    return (ours, theirs) if ours_wins else (theirs, ours)


def _pick_sprint(base, ours, theirs, ours_wins: bool):
    """The sprint rank: leaving the sprint beats a rank change made meanwhile. A rank moves as a
    side effect of every promotion above it, and pm sync renumbers the merged ranks anyway,
    while a demotion is a decision; so it must not depend on whose change was a second later."""
    if base and ours != theirs and ours != base and theirs != base and not (ours and theirs):
        return (ours, theirs) if not ours else (theirs, ours)
    return _pick(base, ours, theirs, ours_wins)


def merge_task(base: str | None, ours: str, theirs: str, path: str, stamp: str) -> str:
    """The merged file text (ParseError when a side is not a well-formed task file). BASE is
    None when both sides created the file."""
    b = taskfile.parse(base, path) if base is not None else None
    o, t = taskfile.parse(ours, path), taskfile.parse(theirs, path)
    ours_wins = o.value("updated") > t.value("updated")
    notes = []
    for name in _FIELDS:
        pick = _pick_sprint if name == "sprint" else _pick
        value, lost = pick(b.value(name) if b else None, o.value(name), t.value(name), ours_wins)
        if value != o.value(name):
            o.set_meta(name, value)
        if lost is not None:
            notes.append(f"pm:{name} was {lost or '(empty)'} on the other clone")
    title, lost = _pick(b.title() if b else None, o.title(), t.title(), ours_wins)
    if title != o.title():
        o.set_title(title)
    if lost is not None:
        notes.append(f"the title was {lost!r} on the other clone")
    for name in SECTIONS:
        value, lost = _pick(b.section(name) if b else None, o.section(name), t.section(name), ours_wins)
        if value != o.section(name):
            o.set_section(name, value)
        if lost is not None and lost.strip():
            notes.append(f"the {name} section on the other clone read: {lost.strip()}")
    _merge_links(b, o, t)
    log = list(o.log) + [e for e in t.log if e not in o.log]
    log.sort(key=lambda e: e.time)  # stable: entries of one second keep their order
    if notes:
        log.append(LogEntry(stamp, MERGER, "both clones changed this task; kept the later change. "
                            + html.escape("; ".join(notes), quote=False)))
    o.set_log(log)
    o.set_meta("updated", max(o.value("updated"), t.value("updated"), stamp if notes else ""))
    o.refresh_fields()
    return o.to_text()


def _merge_links(b, o, t) -> None:
    """Ours plus theirs, less what either side removed since the base."""
    base = {(k, i) for k, i, _h, _a in b.links} if b else set()
    ours = {(k, i) for k, i, _h, _a in o.links}
    theirs = {(k, i, h) for k, i, h, _a in t.links}
    for kind, other in sorted(ours & base - {(k, i) for k, i, _h in theirs}):
        o.remove_link(kind, other)
    for kind, other, href in sorted(theirs):
        if (kind, other) not in base and (kind, other) not in ours:
            o.add_link(kind, other, href)

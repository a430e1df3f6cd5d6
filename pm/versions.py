"""A task file's version: its git blob id, so the version a page showed can be read back from
git to say what changed since (pure but for that one git read)."""
from __future__ import annotations

from pm.model import Task


def version_of(text: str) -> str:
    """The git blob id of a task file's text (what `git hash-object` prints)."""
    import hashlib  # lazy: only edits that check a version need it
    data = text.encode("utf-8")
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def changes(old: Task | None, new: Task) -> list[str]:
    """What differs from OLD (the version a page showed) to NEW, one line a change."""
    if old is None:
        return [f"task {new.id} was changed (last update {new.updated}); its earlier "
                "version is not in git, so pm cannot say how"]
    out = []
    for name in ("title", "status", "priority", "kind", "owner"):
        a, b = getattr(old, name), getattr(new, name)
        if a != b:
            out.append(f"{name}: {a or '(none)'} -> {b or '(none)'}")
    if old.sprint_rank != new.sprint_rank:
        shown = lambda r: "not in the sprint" if r is None else f"rank {r}"  # noqa: E731
        out.append(f"sprint: {shown(old.sprint_rank)} -> {shown(new.sprint_rank)}")
    if old.labels != new.labels:
        out.append(f"labels: {', '.join(old.labels) or '(none)'} -> {', '.join(new.labels) or '(none)'}")
    for name in sorted(set(old.sections) | set(new.sections)):
        if old.sections.get(name, "").strip() != new.sections.get(name, "").strip():
            out.append(f"{name} section rewritten")
    added = new.log[len(old.log):] if new.log[:len(old.log)] == old.log else new.log
    for entry in added:
        from pm.textview import strip_tags
        out.append(f"log: {entry.who} wrote \"{_short(strip_tags(entry.html))}\"")
    gained = [l for l in new.links if l not in old.links]
    lost = [l for l in old.links if l not in new.links]
    out += [f"link added: {k} #{i}" for k, i in gained] + [f"link removed: {k} #{i}" for k, i in lost]
    return out or [f"task {new.id}'s file changed (no field, section, link or log entry differs)"]

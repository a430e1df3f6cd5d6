"""Many tasks at once: import (JSONL or a Backlog.md project, in one commit) and export
(every task as its full JSON object). The formats themselves are pm.transfer's."""
from __future__ import annotations

import os

from pm import numbers, taskfile, transfer
from pm.errors import Conflict, RoleRefused, TaskNotFound
from pm.layout import TASKS, href, name_of, shard_name
from pm.model import INVERSE_LINK, SECTIONS, Actor, LogEntry, Task, clean_title, now


def read_records(path: str, backlog: bool | None = None) -> list[dict]:
    """Normalised records from a JSONL file, or from a Backlog.md project (BACKLOG=True, or
    None and PATH is a directory)."""
    if backlog is None:
        backlog = os.path.isdir(path)
    if backlog:
        from pm import backlogmd
        return backlogmd.read(path)
    return transfer.read_jsonl(path)


def check_import(actor: Actor, records: list[dict]) -> None:
    """Before the lock: only the ceo may import sprint ranks."""
    if any(r.get("sprint") is not None for r in records) and actor.role != "ceo":
        raise RoleRefused("records carry sprint ranks; only the ceo role may set the sprint "
                          f"(you act as {actor.name}). Drop the sprint fields or import as ceo")


def import_records(work, records: list[dict]) -> list[int]:
    """Inside a unit of work: add RECORDS (normalised, see pm.transfer) in one commit; their
    ids. A record's id is kept when given (it must be free), else a fresh number is
    reserved. Links may point at existing tasks or at ids inside the import."""
    existing = work.names()
    _place_backlog(existing, records)
    ids = _assign_ids(work, existing, records)
    _resolve_backlog_links(records, ids)
    stamp = now()
    sharded = work.paths.sharded
    tasks = [_task(r, task_id, stamp, sharded) for r, task_id in zip(records, ids)]
    files = dict(existing)
    files.update({t.id: name_of(t.path) for t in tasks})
    outside = _close_links(tasks, files)
    peers = []
    for other, extra in outside.items():  # read and validate existing tasks before writing
        doc = work.doc(other)
        for kind, tid in extra:
            doc.add_link(kind, tid, href(name_of(doc.path), files[tid]))
        peers.append(doc)
    for t in tasks:
        work.create(t.path, taskfile.render(t, {i: href(name_of(t.path), files[i]) for _k, i in t.links}))
    for doc in peers:
        work.save(doc, stamp)
    ranked = sum(1 for t in tasks if t.sprint_rank)
    trailers = [f"PM-Sprint: import sets ranks of {ranked} tasks"] \
        if any(r.get("sprint") is not None for r in records) else []
    work.commit([t.path for t in tasks] + [d.path for d in peers],
                f"pm: import {len(tasks)} tasks", trailers)
    return [t.id for t in tasks]


def _assign_ids(work, existing: dict[int, str], records: list[dict]) -> list[int]:
    """Each record's id: its own (checked free and unrepeated) or a freshly reserved one."""
    given = [r["id"] for r in records if r.get("id") is not None]
    clash = sorted(set(given) & set(existing)) or sorted({i for i in given if given.count(i) > 1})
    if clash:
        raise Conflict(f"ids already taken or repeated in the import: "
                       f"{', '.join(map(str, clash[:10]))}; drop the id fields to get fresh numbers")
    fresh = sum(1 for r in records if r.get("id") is None)
    numbers.cover(work, max(given, default=0))  # first: fresh numbers start above kept ones
    counter = numbers.reserve(work, existing, fresh) if fresh else None
    ids = []
    for r in records:
        if r.get("id") is None:
            ids.append(counter)
            counter += 1
        else:
            ids.append(r["id"])
    return ids


def _place_backlog(existing: dict[int, str], records: list[dict]) -> None:
    """Backlog.md records (pm.backlogmd) keep their number when it is free in the tracker
    and not wanted by an earlier record; the others get fresh numbers."""
    taken = set(existing)
    for r in records:
        want = r.get("backlog", {}).get("want")
        if "backlog" in r:
            r["id"] = want if want is not None and want not in taken else None
            if r["id"] is not None:
                taken.add(r["id"])


def _resolve_backlog_links(records: list[dict], ids: list[int]) -> None:
    """Turn Backlog.md links by id string into links to the numbers just given."""
    by_ref = {r["backlog"]["ref"]: i for r, i in zip(records, ids) if "backlog" in r}
    for r in records:
        if "backlog" in r:
            links = list(r["links"]) + [(kind, by_ref[ref]) for kind, ref in r["backlog"]["links"]]
            r["links"] = list(dict.fromkeys(links))


def _task(r: dict, task_id: int, stamp: str, sharded: bool) -> Task:
    title = clean_title(r["title"])
    name = taskfile.file_name(task_id, title)
    return Task(
        id=task_id, title=title, status=r["status"], priority=r["priority"],
        kind=r["kind"], sprint_rank=r.get("sprint"), created=r.get("created") or stamp,
        updated=r.get("updated") or r.get("created") or stamp, owner=r.get("owner") or "",
        path=f"{TASKS}/{shard_name(task_id, name) if sharded else name}",
        sections={n: r.get(n) or "" for n in SECTIONS}, links=list(r["links"]),
        log=[LogEntry(e["time"], e["who"], e["html"]) for e in r.get("log") or []],
        labels=list(r.get("labels") or []))


def _close_links(tasks: list[Task], files: dict[int, str]) -> dict[int, list]:
    """Add each inverse link inside the import; {existing id: [(type, new id)]} to add to
    tasks outside it. TaskNotFound for a link to no task."""
    by_id = {t.id: t for t in tasks}
    outside: dict[int, list] = {}
    for t in tasks:
        for kind, other in t.links:
            if other not in files:
                raise TaskNotFound(other)
            inverse = INVERSE_LINK.get(kind)
            if not inverse:
                continue
            if other in by_id:
                if (inverse, t.id) not in by_id[other].links:
                    by_id[other].links.append((inverse, t.id))
            else:
                outside.setdefault(other, []).append((inverse, t.id))
    return outside


def number_list(ids: list[int]) -> str:
    """The ids as runs: "#1..#3, #5, #7..#9"."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ", ".join(f"#{a}" if a == b else f"#{a}..#{b}" for a, b in runs)


def import_report(records: list[dict], ids: list[int]) -> list[str]:
    """pm import's summary: the numbers given, then each Backlog.md task that did not keep its
    own number and what the drafts and archived tasks became."""
    lines = [f"imported {len(ids)} task(s)" + (f": {number_list(ids)}" if ids else "")]
    for r, i in zip(records, ids):
        info = r.get("backlog")
        if info and info["want"] != i:
            lines.append(f"  {info['ref']} is #{i} ({os.path.basename(info['file'])})")
    for label, what in (("draft", "drafts imported as open, labelled draft"),
                        ("archived", "archived tasks imported as wontfix (done if done), labelled archived")):
        marked = [i for r, i in zip(records, ids) if label in (r.get("labels") or [])]
        if marked:
            lines.append(f"  {len(marked)} {what}: {number_list(marked)}")
    return lines


def export_records(tracker) -> list[dict]:
    """Every task of TRACKER (a pm Tracker) as its full JSON object, by id."""
    return [tracker.get(t.id).full() for t in tracker.all()]


def export_jsonl(tracker) -> str:
    """pm export's text: one full JSON object a line."""
    return transfer.dump_records(export_records(tracker))

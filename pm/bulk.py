"""Many tasks at once: import (JSONL or a Backlog.md project, in one commit) and export
(every task as its full JSON object). The formats themselves are pm.transfer's."""
from __future__ import annotations

import os

from pm import numbers, taskfile, transfer
from pm.errors import Conflict, RoleRefused, TaskNotFound
from pm.layout import TASKS
from pm.model import INVERSE_LINK, SECTIONS, Actor, LogEntry, Task, clean_title, now


def read_records(path: str, backlog: bool | None = None) -> list[dict]:
    """Normalised records from a JSONL file, or from a Backlog.md project (BACKLOG=True, or
    None and PATH is a directory)."""
    if backlog is None:
        backlog = os.path.isdir(path)
    return transfer.read_backlog(path) if backlog else transfer.read_jsonl(path)


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
    ids = _assign_ids(work, existing, records)
    stamp = now()
    tasks = [_task(r, task_id, stamp) for r, task_id in zip(records, ids)]
    files = dict(existing)
    files.update({t.id: os.path.basename(t.path) for t in tasks})
    outside = _close_links(tasks, files)
    peers = []
    for other, extra in outside.items():  # read and validate existing tasks before writing
        doc = work.doc(other)
        for kind, tid in extra:
            doc.add_link(kind, tid, files[tid])
        peers.append(doc)
    for t in tasks:
        work.create(t.path, taskfile.render(t, {i: files[i] for _k, i in t.links}))
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
    counter = numbers.reserve(work, existing, fresh) if fresh else None
    numbers.cover(work, max(given, default=0))
    ids = []
    for r in records:
        if r.get("id") is None:
            ids.append(counter)
            counter += 1
        else:
            ids.append(r["id"])
    return ids


def _task(r: dict, task_id: int, stamp: str) -> Task:
    title = clean_title(r["title"])
    return Task(
        id=task_id, title=title, status=r["status"], priority=r["priority"],
        kind=r["kind"], sprint_rank=r.get("sprint"), created=r.get("created") or stamp,
        updated=r.get("updated") or r.get("created") or stamp, owner=r.get("owner") or "",
        path=f"{TASKS}/{taskfile.file_name(task_id, title)}",
        sections={n: r.get(n) or "" for n in SECTIONS}, links=list(r["links"]),
        log=[LogEntry(e["time"], e["who"], e["html"]) for e in r.get("log") or []])


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


def export_records(tracker) -> list[dict]:
    """Every task of TRACKER (a pm Tracker) as its full JSON object, by id."""
    return [tracker.get(t.id).full() for t in tracker.all()]


def export_jsonl(tracker) -> str:
    """pm export's text: one full JSON object a line."""
    return transfer.dump_records(export_records(tracker))

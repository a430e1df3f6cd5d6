"""Reading a tracker: listings from the cache, one task in full, filters, work order, text
search. Nothing here takes the lock or writes a task file (the listing cache aside)."""
from __future__ import annotations

import html
import os
import re

from pm import taskfile
from pm.errors import ParseError
from pm.layout import TASKS, Paths, file_of
from pm.model import Summary, Task

def _task(s: Summary) -> Task:
    # Positional: at 100,000 tasks this runs 100,000 times per listing.
    return Task(s.id, s.title, s.status, s.priority, s.kind, s.sprint_rank, s.created, s.updated,
                s.owner, s.path, {}, list(s.links), [], list(s.labels))


def rows(paths: Paths) -> list[Summary]:
    """Every well-formed task as a Summary (read-only, light), by id: the listing cache."""
    return _listing(paths, ready=False).rows


def _listing(paths: Paths, ready: bool = True):
    from pm import store  # lazy, as graph below: pm show needs neither
    return store.load(paths.tasks_dir, paths.cache, paths.listing, ready)


def ready_rows(paths: Paths) -> list[Summary]:
    """pm ready's rows: kept in the listing file of a big tracker, else worked out."""
    listing = _listing(paths)
    return listing.ready if listing.ready is not None else ready(listing.rows)


def all_tasks(paths: Paths) -> list[Task]:
    """Every well-formed task as a summary Task (sections and log left empty), by id."""
    return list(map(_task, rows(paths)))


def malformed(paths: Paths) -> list[str]:
    """Relative paths of task files the listing cache could not read (see lint)."""
    return [f"{TASKS}/{n}" for n in _listing(paths, ready=False).malformed]


def _as_set(value):
    return None if value is None else ({value} if isinstance(value, str) else set(value))


def filtered(tasks: list[Task], status=None, priority=None, kind=None, sprint=None,
             text=None, label=None) -> list[Task]:
    """TASKS kept by the filters of Tracker.list (each a value or a list of values; a task
    must carry every label given)."""
    statuses, priorities, kinds = _as_set(status), _as_set(priority), _as_set(kind)
    labels = _as_set(label)
    needle = text.lower() if text else None
    if not (statuses or priorities or kinds or needle or labels) and sprint is None:
        return tasks
    out = []
    for t in tasks:
        if statuses and t.status not in statuses:
            continue
        if priorities and t.priority not in priorities:
            continue
        if kinds and t.kind not in kinds:
            continue
        if sprint is not None and (t.sprint_rank is not None) != bool(sprint):
            continue
        if needle and needle not in t.title.lower():
            continue
        if labels and not labels.issubset(t.labels):
            continue
        out.append(t)
    return out


def read_doc(paths: Paths, task_id: int) -> taskfile.Doc:
    """One task file parsed and validated (TaskNotFound, ParseError)."""
    name = file_of(paths.tasks_dir, task_id)
    rel = f"{TASKS}/{name}"
    with open(os.path.join(paths.tasks_dir, name), encoding="utf-8", newline="") as fh:
        doc = taskfile.parse(fh.read(), rel)
    if int(doc.value("id")) != int(task_id):
        raise ParseError(rel, doc.meta["id"] + 1,
                         f"file name says {task_id} but pm:id says {doc.value('id')}")
    return doc


def ready(tasks: list[Task]) -> list[Task]:
    """Open tasks with no open blocker, in work order."""
    from pm import graph
    return graph.analyse(tasks)[0]


def blocked(tasks: list[Task]) -> list[tuple[Task, list[int], bool]]:
    """[(task, open blocker ids, in a dependency cycle)]."""
    from pm import graph
    return graph.analyse(tasks)[1]


def sprint_order(tasks: list[Task]) -> list[Task]:
    """Sprint tasks by rank."""
    return sorted((t for t in tasks if t.sprint_rank is not None),
                  key=lambda t: (t.sprint_rank, t.id))


def backlog_order(tasks: list[Task]) -> list[Task]:
    """Every task ordered as the overview's backlog: by status, then priority, then id."""
    from pm.overview import STATUS_ORDER
    rank = {s: i for i, s in enumerate(STATUS_ORDER)}
    return sorted(tasks, key=lambda t: (rank.get(t.status, 99), t.priority, t.id))


def search(paths: Paths, tasks: list[Task], text: str) -> list[Task]:
    """Tasks whose whole text (tags removed) contains every word of text, case-insensitive."""
    words = text.lower().split()
    hits = []
    for t in tasks:
        try:
            with open(paths.path(t.path), encoding="utf-8", errors="replace") as fh:
                body = html.unescape(re.sub(r"<[^>]*>", " ", fh.read())).lower()
        except FileNotFoundError:
            continue
        if all(w in body for w in words):
            hits.append(t)
    return hits


def grep(paths: Paths, tasks: list[Task], pattern: str,
         ignore_case: bool = False) -> list[tuple[int, str, int, str]]:
    """[(task id, path, line number, line)] for lines matching the regex pattern."""
    regex = re.compile(pattern, re.I if ignore_case else 0)
    out = []
    for t in tasks:
        try:
            with open(paths.path(t.path), encoding="utf-8", errors="replace") as fh:
                for number, line in enumerate(fh, 1):
                    if regex.search(line):
                        out.append((t.id, t.path, number, line.rstrip("\n")))
        except FileNotFoundError:
            continue
    return out

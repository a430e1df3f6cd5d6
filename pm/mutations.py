"""The changes to tasks (new, status, claim, set, log, link, unlink), each inside a unit of
work (pm.unitofwork) the caller opened: arguments are checked before the lock is taken, the
touched files are read and validated under it, then written and committed together."""
from __future__ import annotations

import html

from pm import numbers, queries, taskfile
from pm.errors import Conflict, InvalidValue, NothingReady, TaskNotFound
from pm.layout import TASKS, href, name_of
from pm.model import (INVERSE_LINK, KINDS, LINK_TYPES, PRIORITIES, SECTIONS, STATUSES, LogEntry,
                      Task, check, check_labels, check_who, clean_title, now)

SETTABLE = frozenset({"title", "priority", "kind", "status", "owner", "labels", *SECTIONS})


def quoted(title: str) -> str:
    """A title for a commit message: quoted, at most 60 characters."""
    return '"' + (title if len(title) <= 60 else title[:57] + "...") + '"'


def change_one(work, task_id: int, edit, verb: str) -> Task:
    """Read task TASK_ID, let EDIT(doc) change it (it returns the commit's detail), save and
    commit it; the task as written."""
    doc = work.doc(int(task_id))
    detail = edit(doc)
    work.save(doc, now())
    task = doc.task()
    work.commit([doc.path], f"pm: #{task_id} {verb}: {detail} {quoted(doc.title())}",
                changed=[task])
    return task


# -- new ----------------------------------------------------------------------------------
def check_new(title: str, priority: str, kind: str, status: str, owner: str, links) -> tuple:
    """The arguments of new() checked (before the lock): (title, links)."""
    title = clean_title(title)
    check(priority, PRIORITIES, "priority")
    check(kind, KINDS, "kind")
    check(status, STATUSES, "status")
    if owner:
        check_who(owner)
    return title, [(check(k, LINK_TYPES, "link type"), int(i)) for k, i in links]


def new(work, title: str, *, priority: str, kind: str, status: str, problem: str, fix: str,
        verification: str, owner: str, links: list, labels: list = ()) -> Task:
    """Create a task under a freshly reserved number (arguments from check_new)."""
    files = work.names()
    for _k, other in links:
        if other not in files:
            raise TaskNotFound(other)
    task_id = numbers.reserve(work, files)
    stamp = now()
    name = work.paths.task_name(task_id, taskfile.file_name(task_id, title))
    task = Task(id=task_id, title=title, status=status, priority=priority, kind=kind,
                created=stamp, updated=stamp, owner=owner, path=f"{TASKS}/{name}",
                sections={"problem": problem, "fix": fix, "verification": verification},
                links=links, labels=list(labels))
    peers = []
    for kind_, other in links:  # read and validate the other tasks before writing
        inverse = INVERSE_LINK.get(kind_)
        if inverse:
            doc = work.doc(other)
            if doc.add_link(inverse, task_id, href(name_of(doc.path), name)):
                peers.append(doc)
    work.create(task.path, taskfile.render(task, {i: href(name, files[i]) for _k, i in links}))
    for doc in peers:
        work.save(doc, stamp)
    work.commit([task.path] + [d.path for d in peers], f"pm: new #{task_id} {quoted(title)}",
                changed=[task] + [d.task() for d in peers])
    return task


# -- status and claims --------------------------------------------------------------------
def set_status(work, task_id: int, status: str, expect=None) -> Task:
    """Set the status; with EXPECT (a status or a list), fail unless the task is in it."""
    check(status, STATUSES, "status")
    expected = None if expect is None else ((expect,) if isinstance(expect, str) else tuple(expect))

    def edit(doc):
        current = doc.value("status")
        if expected is not None and current not in expected:
            raise Conflict(f"task {task_id} is {current}, not {' or '.join(expected)}; "
                           "see pm show " + str(task_id))
        doc.set_meta("status", status)
        return f"{current} -> {status}"
    return change_one(work, task_id, edit, "status")


def claim(work, who: str, task_id: int | None = None) -> Task:
    """open -> in-progress, owned by WHO; without an id, the first ready task in work order."""
    if task_id is None:
        ready = queries.ready(work.tasks())
        if not ready:
            raise NothingReady("no task is ready (open and not blocked); see pm blocked")
        task_id = ready[0].id
    task_id = int(task_id)

    def edit(doc):
        current = doc.value("status")
        if current != "open":
            raise Conflict(f"task {task_id} is {current}, not open; someone else has it "
                           f"(owner {doc.value('owner') or 'none'})")
        doc.set_meta("status", "in-progress")
        doc.set_meta("owner", who)
        return f"claimed by {who}"
    return change_one(work, task_id, edit, "claim")


# -- fields and the log -------------------------------------------------------------------
def check_fields(fields: dict) -> dict:
    """The fields of set() checked (before the lock)."""
    unknown = set(fields) - SETTABLE
    if unknown:
        raise InvalidValue(f"cannot set {', '.join(sorted(unknown))}; settable: "
                           f"{', '.join(sorted(SETTABLE))} (the sprint changes with promote/demote/rank)")
    fields = dict(fields)
    if "title" in fields:
        fields["title"] = clean_title(fields["title"])
    for name, allowed_values in (("priority", PRIORITIES), ("kind", KINDS), ("status", STATUSES)):
        if name in fields:
            check(fields[name], allowed_values, name)
    if fields.get("owner"):
        check_who(fields["owner"])
    if "labels" in fields:
        fields["labels"] = check_labels(fields["labels"])
    return fields


def set_fields(work, task_id: int, fields: dict) -> Task:
    """Set title, priority, kind, status, owner or a section (fields from check_fields)."""
    def edit(doc):
        for name, value in fields.items():
            if name == "title":
                doc.set_title(value)
            elif name in SECTIONS:
                doc.set_section(name, value)
            elif name == "labels":
                doc.set_meta(name, ",".join(value))
            else:
                doc.set_meta(name, value)
        return ", ".join(sorted(fields))
    return change_one(work, task_id, edit, "set")


def log_body(message: str, html_text: bool) -> str:
    """A log entry's HTML (plain text is escaped); InvalidValue when empty."""
    if not message.strip():
        raise InvalidValue("a log entry needs text")
    return message.strip() if html_text else html.escape(message.strip(), quote=False)


def log(work, task_id: int, who: str, body: str) -> Task:
    """Append a log entry (BODY from log_body) by WHO."""
    def edit(doc):
        doc.append_log(LogEntry(now(), who, body))
        return "log"
    return change_one(work, task_id, edit, "log")


# -- links --------------------------------------------------------------------------------
def check_link(task_id: int, kind: str, other: int) -> tuple[int, str, int]:
    task_id, other = int(task_id), int(other)
    check(kind, LINK_TYPES, "link type")
    if task_id == other:
        raise InvalidValue(f"task {task_id} cannot link to itself")
    return task_id, kind, other


def relink(work, task_id: int, kind: str, other: int, add: bool) -> Task:
    """Add or remove a typed link; blocks/blocked-by/related are also changed on OTHER."""
    doc, peer = work.doc(task_id), work.doc(other)
    inverse = INVERSE_LINK.get(kind)
    changed = []
    if add:
        if doc.add_link(kind, other, href(name_of(doc.path), name_of(peer.path))):
            changed.append(doc)
        if inverse and peer.add_link(inverse, task_id, href(name_of(peer.path), name_of(doc.path))):
            changed.append(peer)
    else:
        if doc.remove_link(kind, other):
            changed.append(doc)
        if inverse and peer.remove_link(inverse, task_id):
            changed.append(peer)
    if changed:
        stamp = now()
        for d in changed:
            work.save(d, stamp)
        verb = "link" if add else "unlink"
        work.commit([d.path for d in changed], f"pm: #{task_id} {verb} {kind} #{other}",
                    changed=[d.task() for d in changed])
    return doc.task()

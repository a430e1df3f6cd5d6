"""Tracker: one tracker directory (a git repo of its own) and every operation on it.

Each change runs the same steps (Tracker._change): take the lock, read and validate the
touched files, apply the edit, write each file atomically (temp + rename), regenerate
overview.html, commit exactly the touched paths naming who acted, release the lock.
"""
from __future__ import annotations

import html
import os
import re
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from operator import attrgetter

from pm import gitrepo, graph, store, taskfile
from pm.errors import (Conflict, InvalidValue, NothingReady, ParseError, PmError, RoleRefused,
                       TaskNotFound, TrackerNotFound)
from pm.lock import locked
from pm.model import (FINISHED, INVERSE_LINK, KINDS, LINK_TYPES, PRIORITIES, SECTIONS, STATUSES,
                      Actor, LogEntry, Task, check, check_who)
from pm.overview import parse_overview, render_overview

MARKER = ".pmtracker"
OVERVIEW = "overview.html"
TASKS = "tasks"
GITATTRIBUTES = "overview.html merge=pm-overview\n"
SETUP_STAMP = "setup-1"


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _clean_title(title: str) -> str:
    title = " ".join((title or "").split())
    if not title:
        raise InvalidValue("a task needs a title")
    return title


@dataclass
class HistoryEntry:
    commit: str
    who: str  # role/session from the commit's trailers (or its author)
    date: str
    message: str
    diff: str


@dataclass
class AuditFinding:
    commit: str
    who: str
    date: str
    task_id: int
    change: str  # e.g. "'' -> '3'"
    problem: str


_by_id = attrgetter("id")


def _task_from_summary(name: str, s: tuple) -> Task:
    # Positional: at 100,000 tasks this runs 100,000 times per listing.
    return Task(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], f"{TASKS}/{name}", {},
                list(s[9]), [])


class Tracker:
    """A tracker directory. Reading needs no lock; every change takes the tracker lock."""

    def __init__(self, path: str, actor: Actor | None = None):
        self.root = os.path.abspath(path)
        if not os.path.isfile(os.path.join(self.root, MARKER)):
            raise TrackerNotFound(f"{self.root} is not a pm tracker (no {MARKER}); "
                                  f"create one with: PM_DIR={self.root} pm init")
        self.tasks_dir = os.path.join(self.root, TASKS)
        self.pm_dir = os.path.join(self.root, ".git", "pm")
        self._actor = actor
        self._undo: dict[str, str | None] | None = None  # set while a change holds the lock
        self._staged = False
        self.lock_timeout = float(os.environ.get("PM_LOCK_TIMEOUT", "60"))

    @property
    def actor(self) -> Actor:
        if self._actor is None:
            self._actor = Actor.from_env()
        return self._actor

    # -- finding and creating --------------------------------------------------------------
    @classmethod
    def find(cls, start: str | None = None, actor: Actor | None = None) -> "Tracker":
        """PM_DIR if set, else the nearest directory holding .pmtracker from start upwards."""
        env = os.environ.get("PM_DIR")
        if env:
            return cls(env, actor)
        here = os.path.abspath(start or os.getcwd())
        while True:
            if os.path.isfile(os.path.join(here, MARKER)):
                return cls(here, actor)
            parent = os.path.dirname(here)
            if parent == here:
                raise TrackerNotFound("no pm tracker here or in any parent directory; set PM_DIR "
                                      "or create one with: PM_DIR=DIR pm init")
            here = parent

    @classmethod
    def init(cls, path: str, actor: Actor | None = None) -> "Tracker":
        """Create a tracker in path (a new git repo, or an existing empty-of-pm one)."""
        root = os.path.abspath(path)
        if os.path.isfile(os.path.join(root, MARKER)):
            raise PmError(f"{root} already holds a pm tracker")
        os.makedirs(os.path.join(root, TASKS), exist_ok=True)
        if not os.path.isdir(os.path.join(root, ".git")):
            gitrepo.init(root)
        _write_atomic(os.path.join(root, MARKER), "pm tracker, format 1; see docs/pm-format.md\n")
        _write_atomic(os.path.join(root, ".gitattributes"), GITATTRIBUTES)
        _write_atomic(os.path.join(root, TASKS, ".keep"), "")
        tracker = cls(root, actor)
        tracker._ensure_setup(force=True)
        with tracker._locked():
            _write_atomic(os.path.join(root, OVERVIEW), render_overview([]))
            tracker._commit([MARKER, ".gitattributes", f"{TASKS}/.keep", OVERVIEW],
                            "pm: init tracker")
        return tracker

    # -- reading ---------------------------------------------------------------------------
    def _summaries(self) -> dict[str, tuple | None]:
        self._ensure_setup()
        return store.load(self.tasks_dir, os.path.join(self.pm_dir, "cache.pickle"))

    def all(self) -> list[Task]:
        """Every well-formed task as a summary (sections and log left empty), by id."""
        tasks = [_task_from_summary(n, s) for n, s in self._summaries().items() if s]
        tasks.sort(key=_by_id)  # ids are unique but for faults lint reports; stable anyway
        return tasks

    def malformed(self) -> list[str]:
        """Relative paths of task files the listing cache could not read (see lint)."""
        return sorted(f"{TASKS}/{n}" for n, s in self._summaries().items() if s is None)

    def list(self, status=None, priority=None, kind=None, sprint=None, text=None) -> list[Task]:
        """Filtered summaries. Each filter takes a value or a list of values; sprint=True
        keeps sprint tasks, sprint=False the others; text matches title (case-insensitive)."""
        def as_set(value):
            return None if value is None else ({value} if isinstance(value, str) else set(value))
        statuses, priorities, kinds = as_set(status), as_set(priority), as_set(kind)
        needle = text.lower() if text else None
        if not (statuses or priorities or kinds or needle) and sprint is None:
            return self.all()
        out = []
        for t in self.all():
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
            out.append(t)
        return out

    def _file_of(self, task_id: int) -> str:
        """File name of a task; a directory listing, no stats, so show stays fast."""
        prefix = f"{int(task_id)}-"
        names = sorted(n for n in os.listdir(self.tasks_dir)
                       if n.startswith(prefix) and n.endswith(".html"))
        if not names:
            raise TaskNotFound(task_id)
        return names[0]

    def _doc(self, task_id: int) -> taskfile.Doc:
        name = self._file_of(task_id)
        rel = f"{TASKS}/{name}"
        with open(os.path.join(self.tasks_dir, name), encoding="utf-8", newline="") as fh:
            doc = taskfile.parse(fh.read(), rel)
        if int(doc.value("id")) != int(task_id):
            raise ParseError(rel, doc.meta["id"] + 1,
                             f"file name says {task_id} but pm:id says {doc.value('id')}")
        return doc

    def get(self, task_id: int) -> Task:
        """The full task (sections, links, log). Raises TaskNotFound or ParseError."""
        return self._doc(task_id).task()

    def ready(self) -> list[Task]:
        return graph.analyse(self.all())[0]

    def blocked(self) -> list[tuple[Task, list[int], bool]]:
        """[(task, open blocker ids, in a dependency cycle)]."""
        return graph.analyse(self.all())[1]

    def sprint(self) -> list[Task]:
        """Sprint tasks by rank."""
        return sorted((t for t in self.all() if t.sprint_rank is not None),
                      key=lambda t: (t.sprint_rank, t.id))

    def backlog(self) -> list[Task]:
        """Every task ordered as the overview's backlog: by status, then priority, then id."""
        from pm.overview import STATUS_ORDER
        rank = {s: i for i, s in enumerate(STATUS_ORDER)}
        return sorted(self.all(), key=lambda t: (rank.get(t.status, 99), t.priority, t.id))

    def next_id(self) -> int:
        """The number the next `pm new` will get."""
        return max(max(self._names(), default=0), self._reserved()) + 1

    def search(self, text: str) -> list[Task]:
        """Tasks whose whole text (tags removed) contains every word of text, case-insensitive."""
        words = text.lower().split()
        hits = []
        for t in self.all():
            try:
                with open(os.path.join(self.root, t.path), encoding="utf-8", errors="replace") as fh:
                    body = html.unescape(re.sub(r"<[^>]*>", " ", fh.read())).lower()
            except FileNotFoundError:
                continue
            if all(w in body for w in words):
                hits.append(t)
        return hits

    def grep(self, pattern: str, ignore_case: bool = False) -> list[tuple[int, str, int, str]]:
        """[(task id, path, line number, line)] for lines matching the regex pattern."""
        regex = re.compile(pattern, re.I if ignore_case else 0)
        out = []
        for t in self.all():
            try:
                with open(os.path.join(self.root, t.path), encoding="utf-8", errors="replace") as fh:
                    for number, line in enumerate(fh, 1):
                        if regex.search(line):
                            out.append((t.id, t.path, number, line.rstrip("\n")))
            except FileNotFoundError:
                continue
        return out

    def history(self, task_id: int) -> list[HistoryEntry]:
        """One task's commits, newest first, each with its diff."""
        rel = f"{TASKS}/{self._file_of(task_id)}"
        raw = gitrepo.git(self.root, "log", "-p", "--no-color", "--format=%x00%H%x1f%an%x1f%aI%x1f%B%x1f",
                          "--", rel)
        entries = []
        for chunk in raw.split("\0")[1:]:
            commit, author, date, body, diff = chunk.split("\x1f", 4)
            entries.append(HistoryEntry(commit, _who_from(body, author), date,
                                        body.strip(), diff.strip("\n") + "\n"))
        return entries

    # -- changing --------------------------------------------------------------------------
    def new(self, title: str, *, priority: str = "P2", kind: str = "task", status: str = "open",
            problem: str = "", fix: str = "", verification: str = "", owner: str = "",
            links: list | tuple = ()) -> Task:
        """Create a task under a freshly reserved number; returns it."""
        title = _clean_title(title)
        check(priority, PRIORITIES, "priority")
        check(kind, KINDS, "kind")
        check(status, STATUSES, "status")
        if owner:
            check_who(owner)
        links = [(check(k, LINK_TYPES, "link type"), int(i)) for k, i in links]
        with self._locked():
            files = self._names()
            task_id = self._reserve(files)
            stamp = now()
            task = Task(id=task_id, title=title, status=status, priority=priority, kind=kind,
                        created=stamp, updated=stamp, owner=owner,
                        path=f"{TASKS}/{taskfile.file_name(task_id, title)}",
                        sections={"problem": problem, "fix": fix, "verification": verification},
                        links=links)
            for _k, other in links:
                if other not in files:
                    raise TaskNotFound(other)
            peers = []
            for kind_, other in links:  # read and validate the other tasks before writing
                inverse = INVERSE_LINK.get(kind_)
                if inverse:
                    doc = self._doc(other)
                    if doc.add_link(inverse, task_id, os.path.basename(task.path)):
                        peers.append(doc)
            self._create(task.path, taskfile.render(task, {i: files[i] for _k, i in links}))
            for doc in peers:
                self._save(doc, stamp)
            self._commit_with_overview([task.path] + [d.path for d in peers],
                                       f"pm: new #{task_id} {_q(title)}",
                                       changed=[task] + [d.task() for d in peers])
        return task

    def set_status(self, task_id: int, status: str, expect=None) -> Task:
        """Set the status; with expect (a status or a list), fail unless the task is in it."""
        check(status, STATUSES, "status")
        expected = None if expect is None else ((expect,) if isinstance(expect, str) else tuple(expect))

        def edit(doc):
            current = doc.value("status")
            if expected is not None and current not in expected:
                raise Conflict(f"task {task_id} is {current}, not {' or '.join(expected)}; "
                               "see pm show " + str(task_id))
            doc.set_meta("status", status)
            return f"{current} -> {status}"
        return self._change_one(task_id, edit, "status")

    def start(self, task_id: int) -> Task:
        """open -> in-progress (compare-and-set), owned by whoever acts."""
        return self.claim(task_id)

    def done(self, task_id: int) -> Task:
        return self.set_status(task_id, "done")

    def claim(self, task_id: int | None = None) -> Task:
        """Take a task: open -> in-progress with owner = who acts. Without an id, the first
        ready task in work order; exactly one of many racing callers gets each task."""
        if task_id is not None:
            return self._claim_one(int(task_id))
        with self._locked():
            ready = graph.analyse(self.all())[0]
            if not ready:
                raise NothingReady("no task is ready (open and not blocked); see pm blocked")
            return self._claim_one(ready[0].id, locked_already=True)

    def _claim_one(self, task_id: int, locked_already: bool = False) -> Task:
        who = self.actor.name

        def edit(doc):
            current = doc.value("status")
            if current != "open":
                raise Conflict(f"task {task_id} is {current}, not open; someone else has it "
                               f"(owner {doc.value('owner') or 'none'})")
            doc.set_meta("status", "in-progress")
            doc.set_meta("owner", who)
            return f"claimed by {who}"
        return self._change_one(task_id, edit, "claim", locked_already=locked_already)

    def set(self, task_id: int, **fields) -> Task:
        """Set title, priority, kind, status, owner or a section (problem/fix/verification)."""
        allowed = {"title", "priority", "kind", "status", "owner", *SECTIONS}
        unknown = set(fields) - allowed
        if unknown:
            raise InvalidValue(f"cannot set {', '.join(sorted(unknown))}; settable: "
                               f"{', '.join(sorted(allowed))} (the sprint changes with promote/demote/rank)")
        if "title" in fields:
            fields["title"] = _clean_title(fields["title"])
        for name, allowed_values in (("priority", PRIORITIES), ("kind", KINDS), ("status", STATUSES)):
            if name in fields:
                check(fields[name], allowed_values, name)
        if fields.get("owner"):
            check_who(fields["owner"])

        def edit(doc):
            for name, value in fields.items():
                if name == "title":
                    doc.set_title(value)
                elif name in SECTIONS:
                    doc.set_section(name, value)
                else:
                    doc.set_meta(name, value)
            return ", ".join(sorted(fields))
        return self._change_one(task_id, edit, "set")

    def log(self, task_id: int, message: str, html_text: bool = False) -> Task:
        """Append a log entry (plain text is escaped; html_text=True keeps it as HTML)."""
        if not message.strip():
            raise InvalidValue("a log entry needs text")
        body = message.strip() if html_text else html.escape(message.strip(), quote=False)
        who = self.actor.name

        def edit(doc):
            doc.append_log(LogEntry(now(), who, body))
            return "log"
        return self._change_one(task_id, edit, "log")

    def link(self, task_id: int, kind: str, other: int) -> Task:
        """Add a typed link; blocks/blocked-by/related are also written on the other task."""
        return self._relink(int(task_id), check(kind, LINK_TYPES, "link type"), int(other), add=True)

    def unlink(self, task_id: int, kind: str, other: int) -> Task:
        return self._relink(int(task_id), check(kind, LINK_TYPES, "link type"), int(other), add=False)

    def _relink(self, task_id: int, kind: str, other: int, add: bool) -> Task:
        if task_id == other:
            raise InvalidValue(f"task {task_id} cannot link to itself")
        with self._locked():
            doc, peer = self._doc(task_id), self._doc(other)
            stamp = now()
            changed = []
            if add:
                if doc.add_link(kind, other, os.path.basename(peer.path)):
                    changed.append(doc)
                inverse = INVERSE_LINK.get(kind)
                if inverse and peer.add_link(inverse, task_id, os.path.basename(doc.path)):
                    changed.append(peer)
            else:
                if doc.remove_link(kind, other):
                    changed.append(doc)
                inverse = INVERSE_LINK.get(kind)
                if inverse and peer.remove_link(inverse, task_id):
                    changed.append(peer)
            if changed:
                for d in changed:
                    self._save(d, stamp)
                verb = "link" if add else "unlink"
                self._commit_with_overview([d.path for d in changed],
                                           f"pm: #{task_id} {verb} {kind} #{other}",
                                           changed=[d.task() for d in changed])
            return doc.task()

    def import_records(self, records: list[dict]) -> list[int]:
        """Add many tasks (normalised records, see pm.transfer) in one commit; their ids.

        A record's id is kept when given (it must be free), else a fresh number is reserved.
        Links may point at existing tasks or at ids inside the import."""
        has_sprint = any(r.get("sprint") is not None for r in records)
        if has_sprint and self.actor.role != "ceo":
            raise RoleRefused("records carry sprint ranks; only the ceo role may set the sprint "
                              f"(you act as {self.actor.name}). Drop the sprint fields or import as ceo")
        with self._locked():
            existing = self._names()
            given = [r["id"] for r in records if r.get("id") is not None]
            clash = sorted(set(given) & set(existing)) or sorted({i for i in given if given.count(i) > 1})
            if clash:
                raise Conflict(f"ids already taken or repeated in the import: "
                               f"{', '.join(map(str, clash[:10]))}; drop the id fields to get fresh numbers")
            fresh = sum(1 for r in records if r.get("id") is None)
            first = self._reserve(existing, fresh) if fresh else None
            top = max(given, default=0)
            if top:
                _write_atomic(os.path.join(self.pm_dir, "next"),
                              f"{max(top, self._reserved())}\n")
            stamp = now()
            tasks, counter = [], first
            for r in records:
                task_id = r.get("id")
                if task_id is None:
                    task_id, counter = counter, counter + 1
                title = _clean_title(r["title"])
                tasks.append(Task(
                    id=task_id, title=title, status=r["status"], priority=r["priority"],
                    kind=r["kind"], sprint_rank=r.get("sprint"), created=r.get("created") or stamp,
                    updated=r.get("updated") or r.get("created") or stamp, owner=r.get("owner") or "",
                    path=f"{TASKS}/{taskfile.file_name(task_id, title)}",
                    sections={n: r.get(n) or "" for n in SECTIONS}, links=list(r["links"]),
                    log=[LogEntry(e["time"], e["who"], e["html"]) for e in r.get("log") or []]))
            files = dict(existing)
            files.update({t.id: os.path.basename(t.path) for t in tasks})
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
            peers = []
            for other, extra in outside.items():  # validate existing tasks before writing
                doc = self._doc(other)
                for kind, tid in extra:
                    doc.add_link(kind, tid, files[tid])
                peers.append(doc)
            for t in tasks:
                self._create(t.path, taskfile.render(t, {i: files[i] for _k, i in t.links}))
            for doc in peers:
                self._save(doc, stamp)
            trailers = [f"PM-Sprint: import sets ranks of {sum(1 for t in tasks if t.sprint_rank)} tasks"] \
                if has_sprint else []
            self._commit_with_overview([t.path for t in tasks] + [d.path for d in peers],
                                       f"pm: import {len(tasks)} tasks", trailers)
        return [t.id for t in tasks]

    # -- checks and transfer (the same operations as pm lint/doctor/audit/export/import) -------
    def lint(self) -> list:
        """Every fault in the tracker (pm.lint.Fault: path, line, problem, repairable)."""
        from pm.lint import lint_tracker
        return lint_tracker(self)

    def doctor(self, renumber: bool = False) -> tuple[list[str], list]:
        """Repair the safe faults in one commit; (what was fixed, faults left for a person).
        renumber=True also gives tasks that share an id fresh numbers (see pm doctor)."""
        from pm.lint import repair
        return repair(self, renumber=renumber)

    def audit(self) -> list[AuditFinding]:
        """Sprint changes committed without the ceo's PM-Sprint trailer."""
        from pm.audit import audit
        return audit(self)

    def export(self) -> list[dict]:
        """Every task as the full JSON object (one line of pm export each)."""
        return [self.get(t.id).full() for t in self.all()]

    def import_file(self, path: str) -> list[int]:
        """pm import: a JSONL file or a Backlog.md project directory, in one commit."""
        from pm import transfer
        records = transfer.read_backlog(path) if os.path.isdir(path) else transfer.read_jsonl(path)
        return self.import_records(records)

    # -- the sprint (ceo only) -------------------------------------------------------------
    def promote(self, task_id: int, rank: int | None = None) -> Task:
        """Put a task into the sprint at rank (default: last)."""
        return self._resprint(int(task_id), rank, "promote")

    def rank(self, task_id: int, rank: int) -> Task:
        """Move a sprint task to rank (1 = top); others shift to make room."""
        return self._resprint(int(task_id), int(rank), "rank")

    def demote(self, task_id: int) -> Task:
        """Take a task out of the sprint."""
        return self._resprint(int(task_id), None, "demote")

    def _resprint(self, task_id: int, rank: int | None, verb: str) -> Task:
        actor = self.actor
        if actor.role != "ceo":
            raise RoleRefused(f"only the ceo role may {verb} sprint tasks; you act as "
                              f"{actor.name} (PM_ROLE={actor.role}). File or log instead, or "
                              "ask the ceo session")
        from pm import sprint
        with self._locked():
            tasks = self.all()
            if not any(t.id == task_id for t in tasks):
                raise TaskNotFound(task_id)
            order = [t.id for t in sorted((t for t in tasks if t.sprint_rank is not None),
                                          key=lambda t: (t.sprint_rank, t.id))]
            current = {t.id: t.sprint_rank for t in tasks}
            changed = sprint.rank_changes(current, sprint.plan(order, task_id, rank, verb), task_id)
            stamp = now()
            docs, changes = [], []
            for tid, new_rank in changed.items():
                doc = self._doc(tid)
                doc.set_meta("sprint", "" if new_rank is None else str(new_rank))
                self._save(doc, stamp)
                docs.append(doc)
                changes.append(f"#{tid} {current.get(tid) or '-'} -> {new_rank or '-'}")
            touched = [d.path for d in docs]
            trailer = f"PM-Sprint: {verb} #{task_id}; " + ", ".join(changes)
            if touched:
                self._commit_with_overview(touched, f"pm: {verb} #{task_id}", [trailer],
                                           changed=[d.task() for d in docs])
            return self.get(task_id)

    # -- the plumbing of a change ----------------------------------------------------------
    def _change_one(self, task_id: int, edit, verb: str, locked_already: bool = False) -> Task:
        def run():
            doc = self._doc(int(task_id))
            detail = edit(doc)
            self._save(doc, now())
            self._commit_with_overview([doc.path], f"pm: #{task_id} {verb}: {detail} "
                                                   f"{_q(doc.title())}", changed=[doc.task()])
            return doc.task()
        if locked_already:
            return run()
        with self._locked():
            return run()

    def _save(self, doc: taskfile.Doc, stamp: str) -> None:
        doc.set_meta("updated", stamp)
        doc.refresh_fields()
        self._write(doc.path, doc.to_text())

    def _commit_with_overview(self, paths: list[str], message: str, trailers=(), changed=None) -> str:
        """Commit paths plus the overview; `changed` (the touched tasks, as now written) lets
        the overview be updated row by row instead of read from every task file."""
        self._refresh_overview(changed)
        return self._commit(list(dict.fromkeys(paths)) + [OVERVIEW], message, trailers)

    def _refresh_overview(self, changed) -> None:
        path = os.path.join(self.root, OVERVIEW)
        try:
            with open(path, encoding="utf-8", newline="") as fh:
                old = fh.read()
        except FileNotFoundError:
            old = None
        text = None
        if old is not None and changed is not None:
            model = parse_overview(old)
            if model is not None:
                model.remove({t.id for t in changed})
                for t in changed:
                    model.add(t)
                # Files added or removed behind pm's back: count them, then render it whole.
                files = sum(1 for n in os.listdir(self.tasks_dir)
                            if n.endswith(".html") and not n.startswith("."))
                if model.total() == files:
                    text = model.text()
        if text is None:
            text = self.overview_html()
        if text != old:
            self._write(OVERVIEW, text)

    def _commit(self, paths: list[str], message: str, trailers=()) -> str:
        actor = self.actor
        self._staged = True
        lines = [message, "", f"PM-Role: {actor.role}", f"PM-Session: {actor.session}", *trailers]
        return gitrepo.commit_paths(self.root, paths, "\n".join(lines) + "\n", actor.name,
                                    f"{actor.session}@{actor.role}.pm.invalid")

    def overview_html(self) -> str:
        return render_overview(self.all())

    def write_overview(self) -> bool:
        """Regenerate overview.html; True if it changed."""
        text = self.overview_html()
        path = os.path.join(self.root, OVERVIEW)
        try:
            with open(path, encoding="utf-8", newline="") as fh:
                if fh.read() == text:
                    return False
        except FileNotFoundError:
            pass
        self._write(OVERVIEW, text)
        return True

    def commit_overview(self) -> bool:
        """Regenerate and commit overview.html if it drifted (used after merges)."""
        with self._locked():
            if not self.write_overview() and not self._dirty(OVERVIEW):
                return False
            self._commit([OVERVIEW], "pm: regenerate overview")
            return True

    def _dirty(self, rel: str) -> bool:
        out = gitrepo.git(self.root, "status", "--porcelain", "--", rel)
        return bool(out.strip())

    @contextmanager
    def _locked(self):
        """Hold the tracker lock; if the change fails before its commit, put every file it
        wrote back as it was (and remove the files it created), still under the lock."""
        os.makedirs(self.pm_dir, exist_ok=True)
        self._ensure_setup()  # a fresh clone gets its merge driver before its first change
        with locked(os.path.join(self.pm_dir, "lock"), f"{self.actor.name} {' '.join(sys.argv[1:3])}",
                    self.lock_timeout):
            self._undo, self._staged = {}, False
            try:
                yield
            except BaseException:
                self._rollback()
                raise
            finally:
                self._undo = None

    def _write(self, rel: str, text: str) -> None:
        """Write a tracker file atomically, remembering its old text for _rollback."""
        path = os.path.join(self.root, rel)
        if self._undo is not None and path not in self._undo:
            try:
                with open(path, encoding="utf-8", newline="") as fh:
                    self._undo[path] = fh.read()
            except FileNotFoundError:
                self._undo[path] = None
        _write_atomic(path, text)

    def _create(self, rel: str, text: str) -> None:
        """Create a task file that must not exist yet (exclusive), for _rollback to remove."""
        path = os.path.join(self.root, rel)
        _create_exclusive(path, text)
        if self._undo is not None:
            self._undo[path] = None

    def _remove(self, rel: str) -> None:
        """Delete a tracker file, remembering its text for _rollback."""
        path = os.path.join(self.root, rel)
        if self._undo is not None and path not in self._undo:
            with open(path, encoding="utf-8", newline="") as fh:
                self._undo[path] = fh.read()
        os.unlink(path)

    def _rollback(self) -> None:
        undo = self._undo or {}
        for path, text in undo.items():
            try:
                if text is None:
                    os.unlink(path)
                else:
                    _write_atomic(path, text)
            except OSError:
                pass
        if undo and self._staged:
            # The failure came after staging: stage the restored files again so the index
            # matches HEAD and the work tree once more.
            rels = [os.path.relpath(p, self.root) for p in undo]
            gitrepo.git(self.root, "update-index", "--add", "--remove", "-z", "--stdin",
                        input="\0".join(rels) + "\0", check=False)

    # -- numbers ---------------------------------------------------------------------------
    def _reserved(self) -> int:
        try:
            with open(os.path.join(self.pm_dir, "next"), encoding="ascii") as fh:
                return int(fh.read().strip() or 0)
        except (FileNotFoundError, ValueError):
            return 0

    def _names(self) -> dict[int, str]:
        """{id: file name} from the file names alone (no file is read or stat'ed); lint
        checks that each name's number equals its pm:id."""
        out: dict[int, str] = {}
        for name in os.listdir(self.tasks_dir):
            number = name.split("-", 1)[0]
            if number.isascii() and number.isdigit() and name.endswith(".html"):
                out.setdefault(int(number), name)
        return out

    def _reserve(self, files: dict[int, str], count: int = 1) -> int:
        """Under the lock: the first of `count` numbers nobody was ever given in this clone."""
        first = max(max(files, default=0), self._reserved()) + 1
        _write_atomic(os.path.join(self.pm_dir, "next"), f"{first + count - 1}\n")
        return first

    # -- repo setup: merge driver and hook so merges of overview.html never conflict -------
    def _ensure_setup(self, force: bool = False) -> None:
        stamp = os.path.join(self.pm_dir, SETUP_STAMP)
        if not force and os.path.exists(stamp):
            return
        try:
            os.makedirs(self.pm_dir, exist_ok=True)
            gitrepo.git(self.root, "config", "merge.pm-overview.name",
                        "pm: keep ours, regenerated after the merge")
            gitrepo.git(self.root, "config", "merge.pm-overview.driver", "true")
            hook = os.path.join(self.root, ".git", "hooks", "post-merge")
            if not os.path.exists(hook):
                os.makedirs(os.path.dirname(hook), exist_ok=True)
                _write_atomic(hook, "#!/bin/sh\n# pm: regenerate overview.html from the merged tasks\n"
                                    f'PM_DIR="$(pwd)" exec "{sys.executable}" -m pm.cli overview --commit --quiet\n')
                os.chmod(hook, 0o755)
            _write_atomic(stamp, "merge driver and post-merge hook installed\n")
        except (OSError, PmError):
            pass  # read-only trackers still work for reading


def _who_from(body: str, author: str) -> str:
    role = re.search(r"^PM-Role: (\S+)", body, re.M)
    session = re.search(r"^PM-Session: (\S+)", body, re.M)
    if role and session:
        return f"{role.group(1)}/{session.group(1)}"
    return author


def _q(title: str) -> str:
    return '"' + (title if len(title) <= 60 else title[:57] + "...") + '"'


def _write_atomic(path: str, text: str) -> None:
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    os.replace(tmp, path)


def _create_exclusive(path: str, text: str) -> None:
    """Write a new file completely, then link it into place: fails if the name exists."""
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise Conflict(f"{path} already exists; pm never overwrites a task file") from None
    finally:
        os.unlink(tmp)

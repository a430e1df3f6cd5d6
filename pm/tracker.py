"""Tracker: the facade of one tracker directory (a git repo of its own), pm.api's contract.

It holds no logic of its own; each call goes to the module that owns it:

    pm.layout      where things are, finding a tracker     pm.queries    reads and filters
    pm.unitofwork  lock, write, overview, commit, roll back pm.mutations  the task changes
    pm.sprint      promote / rank / demote                 pm.numbers    number reservation
    pm.bulk        import and export                       pm.reposetup  init, merge driver
    pm.history     a task's commits                        pm.lint / pm.audit   the checks

Every change runs in one unit of work (Tracker.unit_of_work): take the lock, read and
validate the touched files, write each atomically and durably, regenerate overview.html,
commit exactly the touched paths naming who acts, release the lock; on any failure before
the commit lands, every file is put back.
"""
from __future__ import annotations

import os

from pm import layout, queries, reposetup
from pm.layout import OVERVIEW, Paths
from pm.model import Actor, Task

# A flat tracker this big is told about `pm doctor --shard` (bench/README.md, pm: at 100,000
# tasks a status change takes 880 ms flat and 120 ms sharded).
SHARD_ADVICE_AT = 10_000


def __getattr__(name):
    # The record types live with the code that makes them; importable from here as before.
    if name == "HistoryEntry":
        from pm.history import HistoryEntry
        return HistoryEntry
    if name == "AuditFinding":
        from pm.audit import AuditFinding
        return AuditFinding
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Tracker:
    """A tracker directory. Reading needs no lock; every change takes the tracker lock."""

    def __init__(self, path: str, actor: Actor | None = None):
        self.paths = Paths(layout.check_tracker(path))
        self.root = self.paths.root
        self.tasks_dir = self.paths.tasks_dir
        self.pm_dir = self.paths.pm_dir
        self._actor = actor
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
        return cls(layout.find_root(start), actor)

    @classmethod
    def init(cls, path: str, actor: Actor | None = None) -> "Tracker":
        """Create a tracker in path (a new git repo, or an existing empty-of-pm one)."""
        from pm.overview import render_overview
        paths = reposetup.create_files(path)
        tracker = cls(paths.root, actor)
        with tracker.unit_of_work() as work:
            work.write(OVERVIEW, render_overview([]))
            work.commit([*reposetup.INIT_FILES, OVERVIEW], "pm: init tracker", overview=False)
        return tracker

    def unit_of_work(self, versions: dict[int, str] | None = None):
        """A pm.unitofwork.UnitOfWork on this tracker, acting as self.actor (a context
        manager: the lock is held inside the with block). VERSIONS {id: version} makes it
        compare-and-set: reading such a task in another version raises StaleEdit."""
        from pm.unitofwork import UnitOfWork
        return UnitOfWork(self.paths, self.actor, self.lock_timeout, versions)

    # -- reading ---------------------------------------------------------------------------
    def all(self) -> list[Task]:
        """Every well-formed task as a summary (sections and log left empty), by id."""
        reposetup.ensure(self.paths)
        return queries.all_tasks(self.paths)

    def malformed(self) -> list[str]:
        """Relative paths of task files the listing cache could not read (see lint)."""
        return queries.malformed(self.paths)

    def list(self, status=None, priority=None, kind=None, sprint=None, text=None,
             label=None, rows: bool = False) -> list[Task]:
        """Filtered summaries. Each filter takes a value or a list of values; sprint=True
        keeps sprint tasks, sprint=False the others; text matches title (case-insensitive);
        label keeps tasks carrying every label given. rows=True gives pm.model.Summary rows
        instead of Tasks (read-only; what `pm ls` prints at 100,000 tasks)."""
        return queries.filtered(self._rows() if rows else self.all(), status, priority, kind,
                                sprint, text, label)

    def _rows(self):
        reposetup.ensure(self.paths)
        return queries.rows(self.paths)

    def get(self, task_id: int) -> Task:
        """The full task (sections, links, log). Raises TaskNotFound or ParseError."""
        return queries.read_doc(self.paths, task_id).task()

    def read(self, task_id: int) -> tuple[Task, str]:
        """The full task and its version (the git blob id of its file), read together; pass
        the version to a change (version=...) to have it refused if the task moved on."""
        from pm.versions import version_of
        doc = queries.read_doc(self.paths, task_id)
        return doc.task(), version_of(doc.to_text())

    def versions(self, ids) -> dict[int, str]:
        """{id: version} of the tasks IDS (missing ones left out)."""
        from pm.errors import TaskNotFound
        from pm.versions import version_of
        out = {}
        for task_id in ids:
            try:
                with open(self.paths.path(f"{layout.TASKS}/{layout.file_of(self.tasks_dir, task_id)}"),
                          encoding="utf-8", newline="") as fh:
                    out[task_id] = version_of(fh.read())
            except (TaskNotFound, FileNotFoundError):
                continue
        return out

    def ready(self, rows: bool = False) -> list[Task]:
        """Open tasks with no open blocker, in work order (rows=True: Summary rows)."""
        if rows:
            reposetup.ensure(self.paths)
            return queries.ready_rows(self.paths)
        return queries.ready(self.all())

    def blocked(self) -> list[tuple[Task, list[int], bool]]:
        """[(task, open blocker ids, in a dependency cycle)]."""
        return queries.blocked(self.all())

    def sprint(self) -> list[Task]:
        """Sprint tasks by rank."""
        return queries.sprint_order(self.all())

    def backlog(self) -> list[Task]:
        """Every task ordered as the overview's backlog: by status, then priority, then id."""
        return queries.backlog_order(self.all())

    def next_id(self) -> int:
        """The number the next `pm new` will get."""
        from pm import numbers
        return numbers.next_id(self.paths)

    def search(self, text: str) -> list[Task]:
        """Tasks whose whole text (tags removed) contains every word of text, case-insensitive."""
        return queries.search(self.paths, self.all(), text)

    def grep(self, pattern: str, ignore_case: bool = False) -> list[tuple[int, str, int, str]]:
        """[(task id, path, line number, line)] for lines matching the regex pattern."""
        return queries.grep(self.paths, self.all(), pattern, ignore_case)

    def history(self, task_id: int) -> list:
        """One task's commits, newest first, each with its diff (pm.history.HistoryEntry)."""
        from pm import history
        name = layout.file_of(self.tasks_dir, task_id)
        rels = [f"{layout.TASKS}/{name}"]
        if "/" in name:  # sharded: its commits from before pm doctor --shard, at the flat place
            rels.append(f"{layout.TASKS}/{os.path.basename(name)}")
        return history.history(self.root, *rels)

    # -- changing --------------------------------------------------------------------------
    def new(self, title: str, *, priority: str = "P2", kind: str = "task", status: str = "open",
            problem: str = "", fix: str = "", verification: str = "", owner: str = "",
            links: list | tuple = (), labels: list | tuple = ()) -> Task:
        """Create a task under a freshly reserved number; returns it."""
        from pm import mutations
        from pm.model import check_labels
        title, links = mutations.check_new(title, priority, kind, status, owner, links)
        labels = check_labels(labels)
        with self.unit_of_work() as work:
            return mutations.new(work, title, priority=priority, kind=kind, status=status,
                                 problem=problem, fix=fix, verification=verification,
                                 owner=owner, links=links, labels=labels)

    def set_status(self, task_id: int, status: str, expect=None, version: str | None = None) -> Task:
        """Set the status; with expect (a status or a list), fail unless the task is in it;
        with version (from read()), fail with StaleEdit unless the task is still that version."""
        from pm import mutations
        from pm.model import STATUSES, check
        check(status, STATUSES, "status")
        with self.unit_of_work({task_id: version}) as work:
            return mutations.set_status(work, task_id, status, expect)

    def start(self, task_id: int) -> Task:
        """open -> in-progress (compare-and-set), owned by whoever acts."""
        return self.claim(task_id)

    def done(self, task_id: int) -> Task:
        return self.set_status(task_id, "done")

    def claim(self, task_id: int | None = None) -> Task:
        """Take a task: open -> in-progress with owner = who acts. Without an id, the first
        ready task in work order; exactly one of many racing callers gets each task."""
        from pm import mutations
        who = self.actor.name
        with self.unit_of_work() as work:
            return mutations.claim(work, who, task_id)

    def set(self, task_id: int, version: str | None = None, **fields) -> Task:
        """Set title, priority, kind, status, owner, labels (a list) or a section
        (problem/fix/verification)."""
        from pm import mutations
        fields = mutations.check_fields(fields)
        with self.unit_of_work({task_id: version}) as work:
            return mutations.set_fields(work, task_id, fields)

    def log(self, task_id: int, message: str, html_text: bool = False,
            version: str | None = None) -> Task:
        """Append a log entry (plain text is escaped; html_text=True keeps it as HTML)."""
        from pm import mutations
        body = mutations.log_body(message, html_text)
        who = self.actor.name
        with self.unit_of_work({task_id: version}) as work:
            return mutations.log(work, task_id, who, body)

    def link(self, task_id: int, kind: str, other: int) -> Task:
        """Add a typed link; blocks/blocked-by/related are also written on the other task."""
        return self._relink(task_id, kind, other, add=True)

    def unlink(self, task_id: int, kind: str, other: int) -> Task:
        return self._relink(task_id, kind, other, add=False)

    def _relink(self, task_id: int, kind: str, other: int, add: bool) -> Task:
        from pm import mutations
        task_id, kind, other = mutations.check_link(task_id, kind, other)
        with self.unit_of_work() as work:
            return mutations.relink(work, task_id, kind, other, add)

    # -- the sprint (ceo only) -------------------------------------------------------------
    def promote(self, task_id: int, rank: int | None = None, version: str | None = None) -> Task:
        """Put a task into the sprint at rank (default: last)."""
        return self._resprint(int(task_id), rank, "promote", version)

    def rank(self, task_id: int, rank: int, version: str | None = None) -> Task:
        """Move a sprint task to rank (1 = top); others shift to make room."""
        return self._resprint(int(task_id), int(rank), "rank", version)

    def demote(self, task_id: int, version: str | None = None) -> Task:
        """Take a task out of the sprint."""
        return self._resprint(int(task_id), None, "demote", version)

    def _resprint(self, task_id: int, rank: int | None, verb: str, version: str | None) -> Task:
        from pm import sprint
        sprint.check_ceo(self.actor, verb)
        with self.unit_of_work({task_id: version}) as work:
            return sprint.resprint(work, task_id, rank, verb)

    # -- import and export -----------------------------------------------------------------
    def import_records(self, records: list[dict]) -> list[int]:
        """Add many tasks (normalised records, see pm.transfer) in one commit; their ids.

        A record's id is kept when given (it must be free), else a fresh number is reserved.
        Links may point at existing tasks or at ids inside the import."""
        from pm import bulk
        bulk.check_import(self.actor, records)
        with self.unit_of_work() as work:
            return bulk.import_records(work, records)

    def import_file(self, path: str, backlog: bool | None = None) -> list[int]:
        """pm import: a JSONL file or a Backlog.md project (backlog=True, or a directory),
        in one commit."""
        from pm import bulk
        return self.import_records(bulk.read_records(path, backlog))

    def export(self) -> list[dict]:
        """Every task as the full JSON object (one line of pm export each)."""
        from pm import bulk
        return bulk.export_records(self)

    def export_jsonl(self) -> str:
        """pm export's text: every task's full JSON object, one a line."""
        from pm import bulk
        return bulk.export_jsonl(self)

    # -- checks (the same operations as pm lint/doctor/audit) ------------------------------
    def lint(self) -> list:
        """Every fault in the tracker (pm.lint.Fault: path, line, problem, repairable)."""
        from pm.lint import lint_tracker
        return lint_tracker(self)

    def doctor(self, renumber: bool = False, shard: bool = False) -> tuple[list[str], list]:
        """Repair the safe faults in one commit; (what was fixed, faults left for a person).
        renumber=True also gives tasks that share an id fresh numbers (see pm doctor);
        shard=True first moves a flat tracker's files into folders of a thousand (pm.shard),
        in a commit of its own."""
        from pm.lint import repair
        done = []
        if shard:
            from pm.shard import shard as shard_tracker
            with self.unit_of_work() as work:
                done = shard_tracker(work)
        fixed, left = repair(self, renumber=renumber)
        return done + fixed, left

    def shard_advice(self) -> str | None:
        """A flat tracker past SHARD_ADVICE_AT tasks: what `pm doctor --shard` would gain."""
        if self.paths.sharded:
            return None
        count = sum(1 for n in os.listdir(self.paths.tasks_dir) if n.endswith(".html"))
        if count < SHARD_ADVICE_AT:
            return None
        return (f"{count:,} task files in one folder: every change commits that whole folder's "
                "tree; `pm doctor --shard` moves them into folders of a thousand (one commit, "
                "links rewritten), after which a status change at 100,000 tasks takes about "
                "120 ms instead of 880 ms")

    def audit(self) -> list:
        """Sprint changes committed without the ceo's PM-Sprint trailer (pm.audit.AuditFinding)."""
        from pm.audit import audit
        return audit(self)

    # -- the overview ----------------------------------------------------------------------
    def overview_html(self) -> str:
        """overview.html as generated from the task files."""
        return self.overview_files()[OVERVIEW]

    def overview_files(self) -> dict[str, str]:
        """{tracker-relative path: text} of every overview file as generated from the task
        files: overview.html, and in a sharded tracker one page per folder (overview/)."""
        from pm.overview import render_files
        return render_files(self.all(), self.paths.sharded, layout.shard_of)

    def write_overview(self) -> bool:
        """Regenerate overview.html (under the lock, not committed); True if it changed."""
        with self.unit_of_work() as work:
            return bool(work.refresh_overview())

    def commit_overview(self) -> bool:
        """Regenerate and commit overview.html if it drifted (used after merges)."""
        with self.unit_of_work() as work:
            written = work.refresh_overview()
            if not written and not work.dirty(OVERVIEW):
                return False
            work.commit(written or [OVERVIEW], "pm: regenerate overview", overview=False)
            return True

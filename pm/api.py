"""pm's Python API: the contract the web UI, instances, demo and scripts code against.

    from pm.api import Tracker, Task, TaskNotFound
    tracker = Tracker.find()            # PM_DIR, else the nearest dir with .pmtracker upwards
    tracker = Tracker(path)             # a tracker directory (raises TrackerNotFound)
    Tracker.init(path)                  # create one (a new git repo)

Reading (no lock taken):
    tracker.list(status=None, priority=None, kind=None, sprint=None, text=None) -> [Task]
        summaries by id; each filter takes a value or a list; sprint=True/False; text matches titles
    tracker.get(id) -> Task             full task; raises TaskNotFound (or ParseError)
    tracker.read(id) -> (Task, version) the task and its version (its file's git blob id);
        tracker.versions(ids) -> {id: version}
    tracker.list(..., label=) keeps tasks carrying every label given; list(..., rows=True) and
        ready(rows=True) give read-only pm.model.Summary rows (Task's summary fields plus the
        task's `pm ls` line): what the CLI prints, cheap at 100,000 tasks
    tracker.history(id) -> [HistoryEntry(commit, who, date, message, diff)]  newest first;
        who is "role/session"
    tracker.search(text) -> [Task]      full text, every word, case-insensitive
    tracker.sprint() -> [Task]          the sprint by rank
    tracker.backlog() -> [Task]         every task by status, then priority, then id
    tracker.ready() -> [Task]; tracker.blocked() -> [(Task, [open blocker ids], in_cycle)]
    tracker.next_id() -> int; tracker.grep(regex) -> [(id, path, line no, line)]
    tracker.overview_html() -> str     the overview as generated from the task files

Changing (each call: lock, validate, atomic write, overview, one git commit naming who acts;
who acts is tracker.actor, from PM_ROLE/PM_SESSION unless Tracker(path, actor=Actor(...))):
    new(title, priority=, kind=, status=, problem=, fix=, verification=, owner=, links=, labels=) -> Task
    set_status(id, status, expect=None) (compare-and-set when expect given), start(id), done(id),
    claim(id=None) (None: next ready task; raises NothingReady / Conflict),
    set(id, title=/priority=/kind=/status=/owner=/labels=/problem=/fix=/verification=),
    log(id, message, html_text=False), link(id, type, other), unlink(id, type, other),
    promote(id, rank=None), rank(id, rank), demote(id)   (ceo role only: RoleRefused otherwise)
    set_status, set, log, promote, rank and demote take version= (from read()): compare-and-set,
    StaleEdit (a Conflict; .changes lists what changed since that version) when the task moved on
    import_file(path, backlog=None) (JSONL, or a Backlog.md project when backlog=True or path is
    a directory; one commit), import_records(records)

Checks and transfer: lint() -> [Fault(path, line, problem, repairable)], doctor() -> (fixed, left),
    audit() -> [AuditFinding], export() -> [dict], export_jsonl() -> str (pm export's text),
    overview_html() / write_overview() (under the lock) / commit_overview()

The unit of work every change above runs in, for code that makes its own change:
    with tracker.unit_of_work() as work:     # the tracker lock, held for the block
        doc = work.doc(id)                   # read and validate (pm.taskfile.Doc)
        ...edit doc...; work.save(doc, pm.model.now())   # or write(rel, text) / create / remove
        work.commit([doc.path], "pm: ...", changed=[doc.task()])   # overview + one commit
    Any exception before the commit lands puts every file back and leaves no temp file.

Task fields: id, title, status, priority, kind, sprint_rank (int or None), created, updated
(ISO 8601 UTC), owner ("role/session" or ""), path ("tasks/<n>-<slug>.html", in a sharded
tracker "tasks/<n // 1000>xxx/<n>-<slug>.html"; relative to tracker.root), sections {"problem"|"fix"|"verification": inner HTML exactly as written},
links [(type, id)], log [LogEntry(time, who, html)], labels [str]. Summaries leave sections and log empty.
Task.compact() / Task.full() give the JSON forms of pm's --json output.

Errors all derive from PmError; str(error) is a message naming the object and the fix.
"""
from pm.errors import (Conflict, GitError, InvalidValue, LockTimeout, NothingReady, ParseError,
                       PmError, RoleRefused, StaleEdit, TaskNotFound, TrackerNotFound)
from pm.model import (FINISHED, KINDS, LINK_TYPES, PRIORITIES, ROLES, SECTIONS, STATUSES, Actor,
                      LogEntry, Task)
from pm.audit import AuditFinding
from pm.history import HistoryEntry
from pm.tracker import Tracker

__all__ = [
    "Tracker", "Task", "LogEntry", "HistoryEntry", "AuditFinding", "Actor",
    "PmError", "TaskNotFound", "TrackerNotFound", "ParseError", "InvalidValue", "Conflict",
    "NothingReady", "RoleRefused", "LockTimeout", "GitError", "StaleEdit",
    "STATUSES", "FINISHED", "PRIORITIES", "KINDS", "LINK_TYPES", "ROLES", "SECTIONS",
]

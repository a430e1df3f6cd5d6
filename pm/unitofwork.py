"""The unit of work: the one way anything changes a tracker.

    with UnitOfWork(paths, actor, lock_timeout) as work:
        doc = work.doc(7)                      # read and validate, under the lock
        doc.set_meta("status", "done")
        work.save(doc, now())                  # atomic, durable write
        work.commit([doc.path], "pm: #7 ...", changed=[doc.task()])   # overview + one commit

Entering takes the tracker lock (bounded wait, holder named) and makes sure the clone has
its merge driver. Every write, create and remove is remembered; if anything fails before
the commit lands - a write, the overview, git - every file is put back as it was, files
created are removed, the index is restaged to match HEAD again, and the lock is released.
A commit that landed is kept: the undo log starts afresh after it.
"""
from __future__ import annotations

import os
import sys

from plumbing import files
from plumbing import lock as plumbing_lock

from pm import gitrepo, queries, reposetup, taskfile
from pm.errors import Conflict, LockTimeout
from pm.layout import OVERVIEW, OVERVIEW_PAGES, SHARD, Paths, shard_dirs, shard_of, task_names
from pm.model import Actor, Task
from pm.overview import render_files, update_overview

LOCK_FIX = "wait for it to finish, or raise PM_LOCK_TIMEOUT"


class UnitOfWork:
    """A change to one tracker under its lock that commits whole or leaves nothing."""

    def __init__(self, paths: Paths, actor: Actor, lock_timeout: float,
                 versions: dict[int, str] | None = None):
        self.paths = paths
        self.versions = {int(k): v for k, v in (versions or {}).items() if v}
        self.actor = actor
        self.lock_timeout = lock_timeout
        self._lock = None
        self._folder = None  # the tasks folder's state a big listing was made for (pm.store)
        self._undo: dict[str, str | None] = {}  # absolute path -> old text (None: did not exist)
        self._staged = False

    # -- the lock and the roll-back ---------------------------------------------------------
    def __enter__(self) -> "UnitOfWork":
        os.makedirs(self.paths.pm_dir, exist_ok=True)
        reposetup.ensure(self.paths)  # a fresh clone gets its merge driver before its first change
        holder = f"{self.actor.name} {' '.join(sys.argv[1:3])}".rstrip()
        lock = plumbing_lock.locked(self.paths.lock, holder=holder, timeout=self.lock_timeout,
                                    what="tracker lock", fix=LOCK_FIX)
        try:
            lock.__enter__()
        except plumbing_lock.LockTimeout as exc:
            raise LockTimeout(str(exc)) from None
        self._lock = lock
        self._undo, self._staged = {}, False
        self._folder = self._listing_stamp()
        return self

    def changed_outside(self) -> None:
        """Say that something other than this unit of work (git merging) changed task files:
        its commit must not vouch for the listing file then."""
        self._folder = None

    def _listing_stamp(self):
        """The tasks folder's state when a big tracker's listing file exists (pm.store), so
        the commit can keep that listing valid; None otherwise (nothing to keep)."""
        if not os.path.exists(self.paths.listing) or self.paths.sharded:
            return None  # a sharded tracker's listing is kept per folder (pm.store)
        from pm import store
        return store.folder_stamp(self.paths.tasks_dir)

    def __exit__(self, kind, exc, tb) -> None:
        try:
            if kind is not None:
                self.roll_back()
        finally:
            self._undo, self._staged = {}, False
            lock, self._lock = self._lock, None
            lock.__exit__(None, None, None)

    def roll_back(self) -> None:
        """Put back every file written since the last commit; restage them if git saw them."""
        undo, self._undo = self._undo, {}
        for path, text in undo.items():
            try:
                if text is None:
                    os.unlink(path)
                    folder = os.path.dirname(path)
                    if SHARD.fullmatch(os.path.basename(folder)) and not os.listdir(folder):
                        os.rmdir(folder)
                elif _read_or_none(path) != text:
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    files.atomic_write(path, text)
            except Exception:  # put back all the others; the change's own error is raised
                pass
        if undo and self._staged:
            # The failure came after staging: stage the restored files again so the index
            # matches HEAD and the work tree once more.
            rels = [os.path.relpath(p, self.paths.root) for p in undo]
            gitrepo.git(self.paths.root, "update-index", "--add", "--remove", "-z", "--stdin",
                        input="\0".join(rels) + "\0", check=False)
        self._staged = False

    # -- reading under the lock -------------------------------------------------------------
    def doc(self, task_id: int) -> taskfile.Doc:
        """A task file parsed and validated (TaskNotFound, ParseError); StaleEdit when the
        unit of work was opened expecting another version of it (compare-and-set)."""
        doc = queries.read_doc(self.paths, int(task_id))
        expected = self.versions.pop(int(task_id), None)  # checked once: the change's own
        if expected:                                      # writes follow
            self._check_version(doc, expected)
        return doc

    def _check_version(self, doc: taskfile.Doc, expected: str) -> None:
        from pm.errors import StaleEdit
        from pm.versions import changes, version_of
        if version_of(doc.to_text()) == expected:
            return
        old = None
        if all(c in "0123456789abcdef" for c in expected) and len(expected) == 40:
            text = gitrepo.git(self.paths.root, "cat-file", "blob", expected, check=False)
            try:
                old = taskfile.parse(text, doc.path).task() if text else None
            except Exception:  # not a task file any more: say so without the details
                old = None
        raise StaleEdit(int(doc.value("id")), changes(old, doc.task()))

    def tasks(self) -> list[Task]:
        """Every task as a summary, as the files are now."""
        return queries.all_tasks(self.paths)

    def names(self) -> dict[int, str]:
        """{id: file name} of the task files."""
        return task_names(self.paths.tasks_dir)

    # -- writing ----------------------------------------------------------------------------
    def _remember(self, path: str) -> None:
        if path not in self._undo:
            self._undo[path] = _read_or_none(path)

    def write(self, rel: str, text: str, *, durable: bool = True) -> None:
        """Replace a tracker file (REL to the root, or an absolute path) atomically."""
        path = self.paths.path(rel)
        self._remember(path)
        files.atomic_write(path, text, durable=durable)

    def write_state(self, path: str, text: str) -> None:
        """Write a file of this clone's own state in .git/pm that a roll-back keeps (a
        reserved number stays given even when its change fails: never handed out twice)."""
        files.atomic_write(path, text)

    def create(self, rel: str, text: str, *, durable: bool = True) -> None:
        """Create a file that must not exist yet; Conflict if it does (never overwritten).
        DURABLE=False: the caller syncs before committing (pm.shard's 100,000 moves)."""
        path = self.paths.path(rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)  # a new shard folder
        try:
            files.create_exclusive(path, text, durable=durable)
        except FileExistsError:
            raise Conflict(f"{path} already exists; pm never overwrites a task file") from None
        self._undo.setdefault(path, None)

    def remove(self, rel: str, *, durable: bool = True) -> None:
        """Delete a tracker file."""
        path = self.paths.path(rel)
        self._remember(path)
        os.unlink(path)
        folder = os.path.dirname(path)
        if durable:
            files.fsync_dir(folder)
        if SHARD.fullmatch(os.path.basename(folder)) and not os.listdir(folder):
            os.rmdir(folder)  # an emptied shard folder: git keeps no empty folders either

    def save(self, doc: taskfile.Doc, stamp: str) -> None:
        """Write an edited task back, its updated time set and its fields line redrawn."""
        doc.set_meta("updated", stamp)
        doc.refresh_fields()
        self.write(doc.path, doc.to_text())

    # -- the overview and the commit --------------------------------------------------------
    def overview_text(self) -> str:
        """overview.html as generated from every task file."""
        return self.overview_files()[OVERVIEW]

    def overview_files(self) -> dict[str, str]:
        """{tracker-relative path: text} of every overview file (pm.overview.render_files)."""
        return render_files(self.tasks(), self.paths.sharded, shard_of)

    def refresh_overview(self, changed: list[Task] | None = None) -> list[str]:
        """Bring the overview files up to date; the ones rewritten or removed ([] if none).
        CHANGED (the touched tasks, as now written) lets them be patched row by row instead
        of read from every task file; a change that moves or removes task files (renumbering)
        passes none, as a sharded page of the old place would not be looked at."""
        texts = None
        if changed is not None:
            texts = self._patched_pages(changed) if self.paths.sharded else self._patched_overview(changed)
        stale = []
        if texts is None:
            texts = self.overview_files()
            pages = self.paths.path(OVERVIEW_PAGES)
            if os.path.isdir(pages):
                stale = [f"{OVERVIEW_PAGES}/{n}" for n in sorted(os.listdir(pages))
                         if n.endswith(".html") and f"{OVERVIEW_PAGES}/{n}" not in texts]
        written = []
        for rel, text in texts.items():
            if text is None:  # a page whose folder has no task left
                stale.append(rel)
            elif _read_or_none(self.paths.path(rel)) != text:
                # Generated from the task files (and committed): no fsync needed, and at
                # 10,000 tasks fsyncing its 1.5 MB would cost more than the rest of a change.
                os.makedirs(os.path.dirname(self.paths.path(rel)), exist_ok=True)
                self.write(rel, text, durable=False)
                written.append(rel)
        for rel in stale:
            if os.path.exists(self.paths.path(rel)):
                self.remove(rel)
                written.append(rel)
        return written

    def _patched_overview(self, changed: list[Task]) -> dict[str, str] | None:
        old = _read_or_none(self.paths.path(OVERVIEW))
        if old is None:
            return None
        count = sum(1 for n in os.listdir(self.paths.tasks_dir)
                    if n.endswith(".html") and not n.startswith("."))
        text = update_overview(old, changed, task_count=count)
        return None if text is None else {OVERVIEW: text}

    def _patched_pages(self, changed: list[Task]) -> dict[str, str | None] | None:
        """A sharded tracker's overview after CHANGED: the pages of their folders patched
        (or read again from that folder's files; None: no task left there), overview.html's
        sprint and counts."""
        from pm import overview, store
        by_shard: dict[str, list[Task]] = {}
        for t in changed:
            by_shard.setdefault(shard_of(t.id), []).append(t)
        texts, counts = {}, {}
        for shard, group in by_shard.items():
            folder = os.path.join(self.paths.tasks_dir, shard)
            try:
                names = os.listdir(folder)
            except FileNotFoundError:
                names = []
            count = sum(1 for n in names if n.endswith(".html") and not n.startswith("."))
            old = _read_or_none(self.paths.path(overview.page_path(shard)))
            model = overview.update_model(old, group, count, shard) if old is not None else None
            if model is None and names:
                model = overview.page_model(store.folder_rows(self.paths.tasks_dir, shard), shard)
            texts[overview.page_path(shard)] = model.text() if model is not None and model.total() else None
            counts[shard] = model.counts() if model is not None else (0,) * len(overview.STATUS_ORDER)
        old = _read_or_none(self.paths.path(OVERVIEW))
        text = None if old is None else overview.update_index(
            old, changed, counts, set(shard_dirs(self.paths.tasks_dir)))
        if text is None:
            return None
        texts[OVERVIEW] = text
        return texts

    def dirty(self, rel: str) -> bool:
        """Whether git sees REL differ from HEAD."""
        return bool(gitrepo.git(self.paths.root, "status", "--porcelain", "--", rel).strip())

    def commit(self, rels: list[str], message: str, trailers=(), *, changed=None,
               overview: bool = True) -> str:
        """Refresh the overview (unless OVERVIEW=False) and commit exactly RELS (plus the
        overview) in one commit naming who acts; returns its id."""
        rels = list(dict.fromkeys(rels))
        if overview:
            rels += [r for r in self.refresh_overview(changed) if r not in rels]
            if OVERVIEW not in rels:
                rels.append(OVERVIEW)
        actor = self.actor
        lines = [message, "", f"PM-Role: {actor.role}", f"PM-Session: {actor.session}", *trailers]
        self._staged = True
        commit = gitrepo.commit_paths(self.paths.root, rels, "\n".join(lines) + "\n", actor.name,
                                      f"{actor.session}@{actor.role}.pm.invalid")
        self._undo, self._staged = {}, False  # landed: nothing to roll back any more
        if self._folder is not None:
            from pm import store
            store.note_writes(self.paths.tasks_dir, self.paths.listing, self._folder,
                              [r.split("/", 1)[1] for r in rels if r.startswith("tasks/") and r.endswith(".html")])
            self._folder = self._listing_stamp()
        return commit


def _read_or_none(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return fh.read()
    except FileNotFoundError:
        return None

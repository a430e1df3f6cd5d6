"""The unit of work: a failure injected at each stage of a change (a file write, the overview,
the commit) leaves no change - the same files, the same HEAD, a clean index - no stale lock
and no temp file; and every change, pm doctor's repair included, runs in it."""
import os

import pytest

from plumbing import files
from plumbing.lock import locked
from pm import gitrepo, unitofwork
from pm.errors import GitError
from pm.layout import is_temp_name
from pm.transfer import normalise
from tests.pm.conftest import git


class Injected(Exception):
    """The failure a test injects."""


def _snapshot(root):
    out = {}
    for folder, _dirs, names in os.walk(root):
        if os.sep + ".git" in folder + os.sep:
            continue
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, root)] = fh.read()
    return out


def _state(root):
    return (_snapshot(root), git(root, "rev-parse", "HEAD"), git(root, "status", "--porcelain"))


def _seed(tracker, ceo):
    tracker.new("Alpha")
    tracker.new("Beta", links=[("blocked-by", 1)])
    ceo.promote(1)


# Each change a Tracker makes, on the seeded tracker (#1 Alpha in the sprint, #2 Beta blocked by #1).
OPERATIONS = {
    "new": lambda t, c: t.new("Gamma", links=[("blocks", 1)]),
    "status": lambda t, c: t.set_status(1, "review", expect="open"),
    "claim": lambda t, c: t.claim(),
    "set": lambda t, c: t.set(2, title="Beta renamed", problem="<p>why</p>"),
    "log": lambda t, c: t.log(1, "a note"),
    "link": lambda t, c: t.link(1, "related", 2),
    "unlink": lambda t, c: t.unlink(2, "blocked-by", 1),
    "promote": lambda t, c: c.promote(2, 1),
    "import": lambda t, c: t.import_records([normalise({"title": "Imported", "links": [
        {"type": "blocked-by", "id": 2}]}, "test")]),
}


def _failing_replace(monkeypatch, which):
    """The WHICH-th atomic rename of a tracker file fails (after its temp file was written);
    the others, the roll-back's included, go through."""
    real, count = files.replace, [0]

    def replace(src, dst, **kwargs):
        if os.path.basename(dst) != "next" and not str(dst).endswith(".pickle"):
            count[0] += 1
            if count[0] == which:
                raise Injected(f"write of {dst}")
        return real(src, dst, **kwargs)
    monkeypatch.setattr(files, "replace", replace)


def _fail_write(monkeypatch):
    _failing_replace(monkeypatch, 1)


def _fail_second_write(monkeypatch):
    """One file (a task or the overview) is written, the next fails."""
    _failing_replace(monkeypatch, 2)


def _fail_overview(monkeypatch):
    def broken(self, changed=None):
        raise Injected("overview")
    monkeypatch.setattr(unitofwork.UnitOfWork, "refresh_overview", broken)


def _fail_commit(monkeypatch):
    """git stages the files, then the commit fails (update-ref, say)."""
    def broken(root, paths, *args, **kwargs):
        gitrepo.git(root, "update-index", "--add", "--remove", "-z", "--stdin",
                    input="\0".join(paths) + "\0")
        raise GitError("simulated: update-ref failed")
    monkeypatch.setattr(gitrepo, "commit_paths", broken)


STAGES = {"write": _fail_write, "second write": _fail_second_write, "overview": _fail_overview,
          "commit": _fail_commit}


# A log entry changes one file only (the overview shows no log): it has no second write.
CASES = [(op, stage) for op in OPERATIONS for stage in STAGES
         if not (op == "log" and stage == "second write")]


@pytest.mark.parametrize("operation, stage", CASES)
def test_a_failure_at_any_stage_leaves_no_change(tracker, ceo, tracker_dir, monkeypatch,
                                                 operation, stage):
    _seed(tracker, ceo)
    before = _state(tracker_dir)
    with monkeypatch.context() as patch:
        STAGES[stage](patch)
        with pytest.raises((Injected, GitError)):
            OPERATIONS[operation](tracker, ceo)
    assert _state(tracker_dir) == before
    leftovers = [n for folder in (tracker_dir, tracker_dir / "tasks") for n in os.listdir(folder)
                 if is_temp_name(n)]
    assert leftovers == []
    with locked(tracker_dir / ".git" / "pm" / "lock", holder="probe", timeout=0):
        pass  # no stale lock: free at once
    OPERATIONS[operation](tracker, ceo)  # and the same change then goes through
    assert git(tracker_dir, "status", "--porcelain") == ""
    assert tracker.lint() == []


def test_a_failure_after_the_commit_keeps_the_commit(tracker, tracker_dir):
    with pytest.raises(Injected):
        with tracker.unit_of_work() as work:
            work.write("tasks/.keep", "kept\n")
            work.commit(["tasks/.keep"], "pm: touch .keep", overview=False)
            raise Injected("after the commit")
    assert (tracker_dir / "tasks" / ".keep").read_text() == "kept\n"
    assert git(tracker_dir, "log", "-1", "--format=%s").strip() == "pm: touch .keep"
    assert git(tracker_dir, "status", "--porcelain") == ""


def test_doctor_repairs_in_the_same_unit_of_work(tracker, tracker_dir, monkeypatch):
    tracker.new("A")
    tracker.new("B", links=[("blocked-by", 1)])
    peer = next((tracker_dir / "tasks").glob("1-*.html"))
    peer.write_text(peer.read_text().replace('<li data-type="blocks" data-id="2">', "")
                    .replace('blocks <a href="2-b.html">#2</a></li>\n', ""))
    git(tracker_dir, "commit", "-qam", "lose the inverse link")
    entered = []
    real_enter = unitofwork.UnitOfWork.__enter__

    def enter(self):
        entered.append(self)
        return real_enter(self)
    monkeypatch.setattr(unitofwork.UnitOfWork, "__enter__", enter)
    before = _state(tracker_dir)
    with monkeypatch.context() as patch:
        _fail_commit(patch)
        with pytest.raises(GitError):
            tracker.doctor()
    assert _state(tracker_dir) == before  # rolled back like any other change
    fixed, left = tracker.doctor()
    assert len(entered) == 2
    assert fixed == ["tasks/1-a.html: added blocks #2"]
    assert left == []
    assert git(tracker_dir, "log", "-1", "--format=%s").strip() == "pm: doctor repairs"


def test_a_change_against_an_old_version_is_refused_with_what_changed(tracker_dir):
    from pm.errors import StaleEdit
    from pm.model import Actor
    from pm.tracker import Tracker
    ceo = Tracker(str(tracker_dir), Actor("ceo", "boss"))
    task = ceo.new("Ranked")
    _seen, version = ceo.read(task.id)
    ceo.set_status(task.id, "review", version=version)  # the current version: accepted
    _seen, version = ceo.read(task.id)
    ceo.log(task.id, "someone else was here")
    ceo.set(task.id, priority="P0")
    head = git(tracker_dir, "rev-parse", "HEAD")
    for change in (lambda: ceo.set_status(task.id, "done", version=version),
                   lambda: ceo.set(task.id, version=version, title="Mine"),
                   lambda: ceo.log(task.id, "late", version=version),
                   lambda: ceo.promote(task.id, version=version)):
        with pytest.raises(StaleEdit) as caught:
            change()
        assert caught.value.changes == ["priority: P2 -> P0", 'log: ceo/boss wrote "someone else was here"']
        assert "reload the page and redo your edit" in str(caught.value).replace("(", "").replace(")", "")
    assert git(tracker_dir, "rev-parse", "HEAD") == head  # nothing written
    assert ceo.get(task.id).status == "review"

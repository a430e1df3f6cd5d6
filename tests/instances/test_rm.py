"""`instances rm` reads git's status exactly (no name loses a character) and gives advice that
matches the work at risk: uncommitted files would be lost, commits stay on the kept branch."""
import pytest

from instances import gitops
from instances.errors import UnsafeToRemove
from tests.instances.conftest import git


@pytest.mark.nginx
def test_a_modified_tracked_file_is_named_whole(mgr):
    mgr.up("feature/edit", run_checks=False)
    wt = mgr.worktree("feature-edit")
    (wt / "app.py").write_text((wt / "app.py").read_text() + "# edited\n")  # ' M app.py' in porcelain
    (wt / "new file.txt").write_text("spaces too")
    with pytest.raises(UnsafeToRemove) as info:
        mgr.rm("feature-edit")
    assert str(info.value) == (
        f"not removing {wt}: 2 uncommitted file(s) (app.py, new file.txt) would be lost: commit them on "
        "feature/edit, or `instances rm --force feature-edit` discards them")
    assert gitops.dirty_paths(wt, ignore=("app.py",)) == ["new file.txt"]  # the copy filter matches too


@pytest.mark.nginx
def test_a_staged_rename_is_named_by_its_new_path(mgr):
    mgr.up("feature/moved", run_checks=False)
    wt = mgr.worktree("feature-moved")
    git(wt, "mv", "app.py", "server.py")  # porcelain without -z: 'R  app.py -> server.py'
    assert gitops.dirty_paths(wt) == ["server.py"]
    assert gitops.dirty_paths(wt, ignore=("server.py",)) == []


@pytest.mark.nginx
def test_committed_work_is_not_called_lost(mgr):
    mgr.up("feature/done", run_checks=False)
    wt = mgr.worktree("feature-done")
    (wt / "notes.txt").write_text("done")
    git(wt, "add", "notes.txt")
    git(wt, "commit", "-q", "-m", "notes")
    git(wt, "mv", "notes.txt", "renamed.txt")
    git(wt, "commit", "-q", "-m", "rename")
    with pytest.raises(UnsafeToRemove) as info:
        mgr.rm("feature-done")
    message = str(info.value)
    assert message == (
        f"not removing {wt}: 2 commit(s) on feature/done not merged into main stay on the branch either way: "
        "`instances approve feature-done` merges them, `instances rm --force feature-done` removes only the worktree")
    assert "lost" not in message and "Commit" not in message

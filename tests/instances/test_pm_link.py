"""`instances up <task id>` with a real pm tracker: branch named from the title, URL logged."""
import pytest

from instances.errors import NotFound
from pm.api import Tracker
from tests.instances.conftest import git


@pytest.fixture
def tracker(tmp_path, monkeypatch):
    tr = Tracker.init(str(tmp_path / "tracker"))
    monkeypatch.setenv("PM_DIR", tr.root)
    return tr


@pytest.mark.nginx
def test_up_by_task_id_names_branch_and_logs_the_url(mgr, app_repo, tracker):
    task = tracker.new("Fix the ko rule; rm -rf / <b>now</b>")
    result = mgr.up(str(task.id))
    assert result["name"] == f"task-{task.id}" and result["pm"] == "logged"
    assert result["branch"] == f"task/{task.id}-fix-the-ko-rule-rm-rf-b-now-b"
    assert git(mgr.worktree(result["name"]), "branch", "--show-current") == result["branch"]
    log = [entry.html for entry in tracker.get(task.id).log]
    assert any(result["url"] in html for html in log)
    # the same id finds the same instance and branch again
    assert mgr.up(str(task.id), run_checks=False)["already_running"] is True
    approved = mgr.approve(str(task.id))
    assert approved["pm"] == "logged"
    assert any("Approved" in entry.html for entry in tracker.get(task.id).log)


def test_unknown_task_is_a_clear_error(mgr, tracker):
    with pytest.raises(NotFound, match="task 999"):
        mgr.up("999")


@pytest.mark.nginx
def test_without_a_tracker_task_ids_still_work(mgr, monkeypatch, tmp_path):
    monkeypatch.delenv("PM_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    result = mgr.up("77", run_checks=False)
    assert result["branch"] == "task/77" and result["name"] == "task-77"
    assert result["pm"].startswith("no pm tracker")

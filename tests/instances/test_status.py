"""What `ls` reports about an instance: the last *real* request (not the tool's own checks) and
a URL on the port the running nginx really listens on."""
import time

import httpx
import pytest

from instances.config import load_config
from instances.manager import Instances
from instances.status import last_request
from plumbing.ports import free_port


@pytest.mark.nginx
def test_last_request_skips_the_checks_of_up_and_counts_a_real_visit(mgr):
    mgr.up("feature/quiet")  # the sub-path checks send a dozen requests through nginx
    assert (mgr.nginx_prefix / "logs" / "access-feature-quiet.log").stat().st_size > 0
    assert last_request(mgr, "feature-quiet") is None
    assert mgr.ls()[0]["last_request"] is None
    before = time.time()
    assert httpx.get(mgr.url("feature-quiet"), auth=mgr.credentials(), trust_env=False).status_code == 200
    # nginx logs a request after it has sent the answer: give the line a moment to appear.
    deadline = time.monotonic() + 5
    while (seen := last_request(mgr, "feature-quiet")) is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert seen is not None and before - 1 <= seen <= before + 5


@pytest.mark.nginx
def test_urls_follow_the_running_nginx_not_the_current_environment(app_repo, make_mgr):
    started_on = free_port()
    first = make_mgr(app_repo)
    first.config = load_config(app_repo, environ={"INSTANCES_LISTEN": f"127.0.0.1:{started_on}"})
    first.up("feature/port", run_checks=False)
    # later, from a shell without INSTANCES_LISTEN: instances.toml names another port
    later = Instances(app_repo, load_config(app_repo, environ={}), first.state)
    assert later.config.listen[1] != started_on
    assert later.url("feature-port") == f"http://127.0.0.1:{started_on}/feature-port/"
    assert later.ls()[0]["url"] == f"http://127.0.0.1:{started_on}/feature-port/"
    assert later.sync_nginx() == "unchanged"  # and nothing moves the running nginx to another port
    assert httpx.get(later.url("feature-port"), auth=later.credentials(), trust_env=False).status_code == 200
    later.stop_nginx()
    assert later.base_url == later.config.listen_url  # with nginx stopped, instances.toml again


@pytest.mark.nginx
def test_commits_ahead_and_their_history_come_from_gitpython(mgr):
    from instances import gitops
    from tests.instances.conftest import commit_file

    mgr.up("feature/hist", run_checks=False)
    wt = mgr.worktree("feature-hist")
    commit_file(wt, "a.txt", "a", "first change")
    commit_file(wt, "b.txt", "b", "second change")
    assert mgr.ls()[0]["ahead"] == 2
    assert [c["subject"] for c in gitops.history(mgr.root, "main", "feature/hist")] == ["second change", "first change"]
    assert gitops.history(mgr.root, "main", "no/such-branch") == [] and gitops.ahead(mgr.root, "main", "no/such") is None
    assert gitops.branches(mgr.root, "feature/hist") == ["feature/hist"]

"""doctor after crashes: kill -9 of services and nginx, PID reuse, leaked leases, orphans."""
import pytest
import os
import signal
import subprocess
import sys

import httpx

from instances import procs
from instances.nginx import probe_generation


def _status(mgr, name):
    return httpx.get(f"{mgr.base_url}/{name}/", auth=mgr.credentials(), trust_env=False).status_code


def _kill9(pid):
    os.kill(pid, signal.SIGKILL)
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


@pytest.mark.nginx
def test_kill_9_of_services_and_nginx_then_doctor_reconciles(mgr):
    for branch in ("feature/a", "feature/b", "feature/c"):
        mgr.up(branch, run_checks=False)
    pids = {i["name"]: i["pid"] for i in mgr.ls()}
    _kill9(pids["feature-a"])
    _kill9(pids["feature-b"])
    master = mgr.nginx().master()
    os.kill(master.pid, signal.SIGKILL)
    procs.wait_gone([master], 60)  # on a busy machine the kernel takes a moment to deliver SIGKILL
    assert {i["name"]: i["state"] for i in mgr.ls()} == {"feature-a": "dead", "feature-b": "dead", "feature-c": "healthy"}

    actions = mgr.doctor()
    text = "\n".join(actions)
    assert "feature-a: service" in text and "feature-b: service" in text and "feature-c" not in text
    assert "nginx was not running" in text
    assert {i["name"]: i["state"] for i in mgr.ls()} == {"feature-a": "stopped", "feature-b": "stopped", "feature-c": "healthy"}
    assert _status(mgr, "feature-c") == 200
    assert _status(mgr, "feature-a") == 404  # no longer routed
    assert mgr.doctor() == []  # a second run finds nothing to do


@pytest.mark.nginx
def test_doctor_restart_brings_dead_services_back(mgr):
    mgr.up("feature/x", run_checks=False)
    _kill9(mgr.ls()[0]["pid"])
    actions = mgr.doctor(restart_dead=True)
    assert "feature-x: restarted" in actions
    assert mgr.ls()[0]["state"] == "healthy" and _status(mgr, "feature-x") == 200


@pytest.mark.nginx
def test_doctor_restart_after_a_plain_doctor_still_restarts_what_died(mgr):
    mgr.up("feature/later", run_checks=False)
    mgr.up("feature/downed", run_checks=False)
    mgr.down("feature-downed")  # stopped on purpose: never restarted by doctor
    _kill9(next(i["pid"] for i in mgr.ls() if i["name"] == "feature-later"))
    assert any("feature-later: service" in a and "marked stopped" in a for a in mgr.doctor())
    assert mgr.doctor(restart_dead=True) == ["feature-later: restarted"]
    assert {i["name"]: i["state"] for i in mgr.ls()} == {"feature-downed": "stopped", "feature-later": "healthy"}
    assert mgr.doctor(restart_dead=True) == []  # once back, it is not restarted again


@pytest.mark.nginx
def test_pid_reuse_is_not_mistaken_for_the_service(mgr):
    mgr.up("feature/reuse", run_checks=False)
    real = mgr.registry.get("feature-reuse")["process"]
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    try:
        _kill9(real["pid"])
        with mgr.registry.transaction() as data:  # the service's pid now belongs to someone else
            data["instances"]["feature-reuse"]["process"] = {**real, "pid": bystander.pid, "pgid": bystander.pid}
        assert mgr.ls()[0]["state"] == "dead"
        mgr.doctor()
        assert bystander.poll() is None  # not killed: its start time does not match
        assert mgr.ls()[0]["state"] == "stopped"
    finally:
        bystander.kill()
        bystander.wait()


def test_leaked_lease_from_an_interrupted_up_is_released(mgr):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    with mgr.registry.transaction() as data:
        data["instances"]["ghost"] = {"name": "ghost", "branch": "ghost", "task": None, "port": 1234,
                                      "state": "starting", "owner_pid": gone.pid, "owner_time": 1.0,
                                      "worktree": str(mgr.worktree("ghost"))}
    actions = mgr.doctor()
    assert any("ghost: released the port" in a for a in actions)
    assert mgr.registry.get("ghost")["port"] is None


@pytest.mark.nginx
def test_orphaned_nginx_blocks_and_worktrees(mgr):
    mgr.up("feature/keep", run_checks=False)
    mgr.up("feature/drop", run_checks=False)
    with mgr.registry.transaction() as data:  # a crash between stopping and unrouting
        data["instances"]["feature-drop"].update(state="stopped")
    (mgr.worktree_dir / "stray").mkdir()
    actions = mgr.doctor()
    assert any("nginx routes did not match" in a for a in actions)
    assert any("orphaned worktree" in a and "stray" in a for a in actions)
    assert "location /feature-drop/" not in mgr.nginx().live_include()
    assert probe_generation(mgr.base_url) == mgr.registry.load()["generation"]

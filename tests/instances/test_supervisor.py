"""The supervisor with real processes: it starts with the private nginx (once), stops an idle
instance on time, restarts then stops a service that allocates past its memory_limit, reconciles
a dead service like doctor, and when it is killed nothing is lost and doctor starts it again."""
import os
import signal
import subprocess
import sys
import time

import httpx
import pytest
from click.testing import CliRunner

from instances import procs
from instances.cli import main
from instances.config import load_config
from instances.supervisor import RESTART_WINDOW, memory_verdict
from tests.instances.conftest import write_toml

FAST = 'interval = "0.3s"'


def _supervised(mgr, app_repo, extra_top="", supervisor=FAST):
    write_toml(app_repo, mgr.config.listen[1], extra_top=extra_top, supervisor=supervisor)
    mgr.config = load_config(app_repo, environ={})


def _wait(predicate, timeout=20.0, step=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"not true within {timeout}s")


def _action(mgr, name):
    return (mgr.registry.get(name) or {}).get("last_action")


def test_memory_policy_is_one_pure_function():
    mib = 1024**2
    assert memory_verdict(50 * mib, 80 * mib, None, 100.0, 10, "restart", None) == (None, None)
    assert memory_verdict(90 * mib, 80 * mib, None, 100.0, 10, "restart", None) == (None, 100.0)  # grace starts
    assert memory_verdict(90 * mib, 80 * mib, 100.0, 111.0, 10, "restart", None) == ("restart", 100.0)
    assert memory_verdict(90 * mib, 80 * mib, 100.0, 111.0, 10, "restart", 111.0 - RESTART_WINDOW / 2) == ("stop", 100.0)
    assert memory_verdict(90 * mib, 80 * mib, 100.0, 111.0, 10, "warn", None) == ("warn", 100.0)
    assert memory_verdict(90 * mib, None, None, 100.0, 10, "stop", None) == (None, None)


@pytest.mark.nginx
def test_it_starts_with_nginx_once_and_stops_with_it(mgr, app_repo):
    _supervised(mgr, app_repo)
    mgr.up("feature/sup", run_checks=False)
    first = _wait(mgr.supervisor)
    log = mgr.log_dir / "supervisor.log"
    _wait(lambda: log.exists() and f"supervisor pid {first['pid']} for" in log.read_text())  # it holds the lock
    assert mgr.start_supervisor() is None  # already running: nothing started
    second = subprocess.run([sys.executable, "-m", "instances", "supervise", str(mgr.root), str(mgr.state)],
                            cwd=mgr.state, capture_output=True, text=True, timeout=30)
    assert second.returncode == 0 and "another supervisor already runs" in second.stdout
    assert mgr.supervisor()["pid"] == first["pid"]
    proc = procs.find(first)
    mgr.stop_nginx()
    assert procs.wait_gone([proc], 15) == [] and mgr.supervisor() is None


@pytest.mark.nginx
def test_an_idle_instance_is_stopped_on_time(mgr, app_repo):
    _supervised(mgr, app_repo, extra_top='idle_stop = "2s"')
    mgr.up("feature/idle", run_checks=False)
    started = mgr.registry.get("feature-idle")["started"]
    _wait(lambda: mgr.registry.get("feature-idle")["state"] == "stopped" and _action(mgr, "feature-idle"), timeout=30)
    stopped = mgr.registry.get("feature-idle")["stopped"]
    assert 2.0 <= stopped - started < 2.0 + 3.0  # on time: the idle limit plus a round or a few on a busy machine
    action = _action(mgr, "feature-idle")
    assert action["by"] == "supervisor" and action["text"] == "stopped after 2s without requests"
    assert "--- instances supervisor: stopped after 2s without requests at " in mgr.log_path("feature-idle").read_text()
    listing = CliRunner().invoke(main, ["ls"], catch_exceptions=False, env={"INSTANCES_HOME": str(mgr.state)})
    assert "feature-idle: supervisor at " in listing.output and "stopped after 2s without requests" in listing.output


@pytest.mark.nginx
def test_a_service_past_its_memory_limit_is_restarted_then_stopped(mgr, app_repo):
    _supervised(mgr, app_repo, extra_top='memory_limit = "90M"', supervisor=FAST + '\nmemory_grace = "0.5s"')
    mgr.up("feature/leak", run_checks=False)
    rec = mgr.registry.get("feature-leak")
    leak = f"http://127.0.0.1:{rec['port']}/grow/120"
    assert httpx.get(leak, trust_env=False, timeout=30).text == "holding 120 MiB"
    _wait(lambda: (_action(mgr, "feature-leak") or {}).get("text", "").endswith("restarted (memory_action = \"restart\")"))
    assert mgr.registry.get("feature-leak")["process"]["pid"] != rec["process"]["pid"]
    action = _action(mgr, "feature-leak")
    assert action["text"].startswith("memory ") and "above memory_limit 90.0 MiB" in action["text"]
    assert action["text"].endswith('; restarted (memory_action = "restart")')
    assert mgr.ls()[0]["memory_bytes"] < 90 * 1024**2  # the new service is back under its limit
    # the same leak again soon after: a restart would loop, so it is stopped
    port = mgr.registry.get("feature-leak")["port"]
    httpx.get(f"http://127.0.0.1:{port}/grow/120", trust_env=False, timeout=30)
    _wait(lambda: mgr.registry.get("feature-leak")["state"] == "stopped" and "stopped" in _action(mgr, "feature-leak")["text"])
    assert _action(mgr, "feature-leak")["text"].endswith("again within 10 min of a memory restart; stopped")
    log = mgr.log_path("feature-leak").read_text()
    assert log.count("--- instances supervisor: memory ") == 2


@pytest.mark.nginx
def test_a_dead_service_is_reconciled_like_doctor_does(mgr, app_repo):
    _supervised(mgr, app_repo)
    mgr.up("feature/crash", run_checks=False)
    pid = mgr.registry.get("feature-crash")["process"]["pid"]
    os.kill(pid, signal.SIGKILL)
    _wait(lambda: mgr.registry.get("feature-crash")["state"] == "stopped" and _action(mgr, "feature-crash"))
    assert _action(mgr, "feature-crash")["text"] == f"service (pid {pid}) was dead or its pid reused; marked stopped"
    assert mgr.doctor(restart_dead=True) == ["feature-crash: restarted"]  # the dead one is not forgotten


@pytest.mark.nginx
def test_killing_the_supervisor_loses_nothing_and_doctor_restarts_it(mgr, app_repo):
    _supervised(mgr, app_repo)
    mgr.up("feature/a", run_checks=False)
    mgr.up("feature/b", run_checks=False)
    before = mgr.registry.load()["instances"]
    sup = _wait(mgr.supervisor)
    proc = procs.find(sup)
    os.kill(sup["pid"], signal.SIGKILL)
    procs.wait_gone([proc], 15)
    assert mgr.supervisor() is None
    assert mgr.registry.load()["instances"] == before
    assert {i["name"]: i["state"] for i in mgr.ls()} == {"feature-a": "healthy", "feature-b": "healthy"}
    listing = CliRunner().invoke(main, ["ls"], catch_exceptions=False, env={"INSTANCES_HOME": str(mgr.state)})
    assert "supervisor: not running; `instances doctor` starts it" in listing.output
    actions = mgr.doctor()
    assert len(actions) == 1 and actions[0].startswith("supervisor was not running; started it (pid ")
    assert _wait(mgr.supervisor)["pid"] != sup["pid"]


@pytest.mark.nginx
def test_stopping_it_mid_round_leaves_no_successor(mgr, app_repo):
    from tests.instances.conftest import supervisors_of

    _supervised(mgr, app_repo)
    mgr.up("feature/race", run_checks=False)
    _wait(mgr.supervisor)
    procs.stop(mgr.registry.get("feature-race")["process"], timeout=2)  # its next round reconciles and syncs nginx
    time.sleep(0.35)
    mgr.stop_nginx()
    time.sleep(1.0)  # a successor started by that round would be up by now
    assert supervisors_of(mgr) == []

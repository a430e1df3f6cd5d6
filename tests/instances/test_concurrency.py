"""Many `instances up` at once: real parallel processes never lease the same port."""
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
LEASER = """
import sys
from instances.registry import Registry, lease_port
reg = Registry(sys.argv[1])
for i in range(int(sys.argv[3])):
    with reg.transaction() as data:
        port = lease_port(data)
        name = f"{sys.argv[2]}-{i}"
        data["instances"][name] = {"name": name, "port": port, "state": "starting"}
"""


def test_parallel_processes_never_lease_the_same_port(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    workers = [subprocess.Popen([sys.executable, "-c", LEASER, str(tmp_path / "state"), f"w{i}", "15"], env=env)
               for i in range(10)]
    assert [w.wait(timeout=60) for w in workers] == [0] * 10
    data = json.loads((tmp_path / "state" / "registry.json").read_text())
    ports = [rec["port"] for rec in data["instances"].values()]
    assert len(ports) == 150 and len(set(ports)) == 150


@pytest.mark.nginx
def test_concurrent_up_commands(app_repo, make_mgr):
    mgr = make_mgr(app_repo)  # only for cleanup and inspection
    cli = [sys.executable, "-m", "instances.cli"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([*cli, "up", f"feature/c{i}", "--no-checks"], cwd=app_repo, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(4)]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [o[1] for o in outputs]
    urls = sorted(out.strip().splitlines()[-1] for out, _ in outputs)
    assert urls == [f"{mgr.base_url}/feature-c{i}/" for i in range(4)]
    items = mgr.ls()
    assert len({i["port"] for i in items}) == 4 and {i["state"] for i in items} == {"healthy"}
    for url in urls:  # every instance routed, none lost to a concurrent reload
        resp = httpx.get(url, auth=mgr.credentials(), trust_env=False)
        assert resp.status_code == 200 and url.rstrip("/").rsplit("/", 1)[1] in resp.text


@pytest.mark.nginx
def test_concurrent_up_of_the_same_branch_starts_one_service(app_repo, make_mgr):
    mgr = make_mgr(app_repo)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([sys.executable, "-m", "instances.cli", "up", "feature/same", "--no-checks"], cwd=app_repo,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outputs = [p.communicate(timeout=120) for p in procs]
    codes = [p.returncode for p in procs]
    assert 0 in codes and set(codes) <= {0, 1}, outputs
    for (out, err), code in zip(outputs, codes):
        if code == 1:
            assert "is being started by process" in err
        else:
            assert out.strip().splitlines()[-1] == f"{mgr.base_url}/feature-same/"
    items = mgr.ls()
    assert [(i["name"], i["state"]) for i in items] == [("feature-same", "healthy")]
    assert len(_services_under(app_repo)) == 1


def _services_under(root) -> list:
    import psutil

    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if "app.py" in (proc.info["cmdline"] or []) and proc.cwd().startswith(str(root)):
                found.append(proc)
        except psutil.Error:
            continue
    return found


HOLDER = """
import sys, time
from instances.registry import Registry
with Registry(sys.argv[1]).transaction():
    print("held", flush=True)
    time.sleep(600)
"""


def test_a_held_registry_lock_times_out_naming_the_holder_and_a_kill_frees_it(tmp_path):
    from instances.registry import LOCK_TIMEOUTS, Registry
    from plumbing.lock import LockTimeout

    assert LOCK_TIMEOUTS == {"registry": 60.0, "nginx": 300.0, "git": 120.0}
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path / "state")], env=env,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        impatient = Registry(tmp_path / "state", lock_timeouts={"registry": 0.2})
        with pytest.raises(LockTimeout) as err:
            with impatient.transaction():
                pass
        message = str(err.value)
        assert "the instances registry lock" in message and "still held after 0.2s" in message
        assert f"pid {holder.pid} " in message and "stop that process if it hangs" in message
    finally:
        holder.kill()
        holder.wait()
    with Registry(tmp_path / "state", lock_timeouts={"registry": 5}).transaction() as data:
        data["instances"]["after"] = {"name": "after"}  # the kernel dropped the dead holder's lock
    assert "after" in json.loads((tmp_path / "state" / "registry.json").read_text())["instances"]

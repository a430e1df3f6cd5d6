"""RayPool on a real local Ray cluster (2 CPUs, two worker processes) started by the tests: the
same results as a plain loop, a kill -9'd worker's task retried and yielded once, fn's own
errors raised and not retried, check_nodes naming what a node lacks; and, without Ray, the error
that names the fix. The tests marked `ray` start the cluster; `make check` leaves them out."""
from __future__ import annotations

import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from plumbing.errors import NamedError
from tests.engines.match import ray_tasks

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def pool():
    from engines.match.cluster import RayPool

    pool = RayPool(init_kwargs={"num_cpus": 2, "object_store_memory": 100 * 1024 * 1024})
    assert pool.started
    try:
        yield pool
    finally:
        pool.close()
    import ray

    assert not ray.is_initialized()


@pytest.mark.ray
@pytest.mark.timeout(120)
def test_results_equal_a_local_loop(pool):
    items = list(range(20)) + [3, 3]  # repeated items come back once each time they were given
    through_ray = Counter(pool.run(ray_tasks.shell_square, items))
    local = Counter((item, ray_tasks.shell_square(item)) for item in items)
    assert through_ray == local
    assert sum(through_ray.values()) == len(items)


def _kill_victim_while_running(pool, tmp_path, victim: int = 2, items: int = 6):
    """Run wait_for_flag over ITEMS items in a thread, SIGKILL the worker running item VICTIM's
    first attempt, release it; return (results, errors, pids of the victim's attempts)."""
    args = [(str(tmp_path), i, victim) for i in range(items)]
    results, errors = [], []

    def consume():
        try:
            results.extend(pool.run(ray_tasks.wait_for_flag, args))
        except BaseException as error:
            errors.append(error)

    consumer = threading.Thread(target=consume)
    consumer.start()
    attempts = tmp_path / f"attempts-{victim}"
    deadline = time.monotonic() + 60
    while not (attempts.exists() and attempts.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    pid = int(attempts.read_text().split()[0])
    assert pid != os.getpid()
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.5)  # let Ray see the death before the flag lets anything finish
    (tmp_path / "flag").touch()
    consumer.join(90)
    assert not consumer.is_alive()
    return args, results, errors, attempts.read_text().split()


@pytest.mark.ray
@pytest.mark.timeout(120)
def test_a_killed_worker_task_is_retried_and_yielded_once(pool, tmp_path):
    items, results, errors, pids = _kill_victim_while_running(pool, tmp_path)
    assert not errors, errors
    assert len(pids) == 2 and pids[0] != pids[1]  # the task ran again, in another worker
    assert sorted(results) == sorted((item, item[1] * 10) for item in items)
    assert len(results) == len(items)


@pytest.mark.ray
@pytest.mark.timeout(120)
def test_a_worker_death_beyond_the_retries_names_the_item(pool, tmp_path):
    from engines.match.cluster import ClusterError, RayPool

    no_retries = RayPool(max_retries=0)  # joins the fixture's cluster: it is initialized
    assert not no_retries.started
    items, results, errors, pids = _kill_victim_while_running(no_retries, tmp_path)
    assert len(pids) == 1
    assert len(errors) == 1 and isinstance(errors[0], ClusterError), errors
    assert f"lost item {items[2]!r} after 0 retries" in str(errors[0])
    no_retries.close()  # not its cluster: the fixture's pool still works
    assert sorted(pool.run(ray_tasks.shell_square, [3])) == [(3, 10)]


@pytest.mark.ray
@pytest.mark.timeout(120)
def test_an_error_of_fn_is_raised_not_retried(pool, tmp_path):
    items = [(str(tmp_path), i, 3) for i in range(5)]
    with pytest.raises(ValueError, match="boom on item 3"):
        for _ in pool.run(ray_tasks.fail_on, items):
            pass
    assert (tmp_path / "attempts-3").read_text().split().__len__() == 1
    # the pool still works after an application error
    assert sorted(pool.run(ray_tasks.shell_square, [1, 2])) == [(1, 2), (2, 5)]


@pytest.mark.ray
@pytest.mark.timeout(120)
def test_check_nodes_names_a_missing_command(pool, tmp_path):
    pool.check_nodes([f"{sys.executable} -m engines.go", "/bin/sh -c true"])
    not_executable = tmp_path / "engine"
    not_executable.write_text("#!/bin/sh\n")
    with pytest.raises(NamedError) as raised:
        pool.check_nodes(["no-such-engine-xyz --mode gtp", str(not_executable), "/bin/sh"])
    message = str(raised.value)
    node = pool.nodes()[0]
    assert node["NodeManagerAddress"] in message
    assert "no-such-engine-xyz (not on PATH" in message
    assert f"{not_executable} (not executable)" in message
    assert "/bin/sh" not in message.replace("/bin/sh -c", "")
    assert "Fix:" in message


@pytest.mark.ray
@pytest.mark.timeout(60)
def test_conditions_describe_the_cluster(pool):
    conditions = pool.conditions()
    assert conditions["pool"] == "ray" and conditions["nodes"] == 1 and conditions["cpus"] == 2
    assert pool.max_in_flight() == 4


def test_without_ray_the_error_names_the_fix():
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "import engines.cli, engines.match.cluster as cluster\n"
        "try:\n"
        "    cluster.RayPool()\n"
        "except cluster.RayNotInstalled as error:\n"
        "    from plumbing.errors import NamedError\n"
        "    assert isinstance(error, NamedError)\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Ray is not installed: pip install 'soloshop[cluster]'"


def test_only_the_cluster_module_imports_ray():
    offenders = []
    for package in ("plumbing", "pm", "instances", "demo", "skills", "engines"):
        for path in (ROOT / package).rglob("*.py"):
            if path == ROOT / "engines/match/cluster.py":
                continue
            for line in path.read_text().splitlines():
                words = line.split()
                if words[:2] in (["import", "ray"], ["from", "ray"]) or \
                        (words[:1] in (["import"], ["from"]) and len(words) > 1
                         and words[1].startswith("ray.")):
                    offenders.append(f"{path.relative_to(ROOT)}: {line.strip()}")
    assert not offenders


def _active_nodes(ray_cli: str, port: int, env: dict) -> int:
    status = subprocess.run([ray_cli, "status", f"--address=127.0.0.1:{port}"], env=env,
                            capture_output=True, text=True, timeout=60).stdout
    active = status.partition("Active:")[2].partition("Pending:")[0]
    return sum(1 for line in active.splitlines() if "node_" in line)


CONNECTING_DRIVER = """
import sys
from engines.match.cluster import RayPool
from tests.engines.match import ray_tasks
pool = RayPool(address=sys.argv[1])
assert not pool.started and pool.conditions()["address"] == sys.argv[1]
print(sorted(pool.run(ray_tasks.shell_square, range(4))))
pool.check_nodes(["/bin/sh -c true"])
try:
    pool.check_nodes(["/bin/sh", "no-such-engine-xyz"])
except Exception as error:
    print(error)
pool.close()
"""


@pytest.mark.ray
@pytest.mark.timeout(180)
def test_a_pool_connects_to_a_running_cluster_and_leaves_it_running(tmp_path):
    """`ray start --head` and a second node `ray start --address` (both in the foreground, so
    SIGTERM stops them), a driver connecting with the address twice: close() disconnects
    without stopping the cluster, and check_nodes runs on each of the two nodes."""
    from plumbing.ports import free_port, wait_for_port

    port = free_port()
    # Token authentication as on a fresh machine: no ~/.ray/auth_token, the token in the
    # environment of head, node and driver; an explicit address needs RAY_AUTH_MODE said.
    (tmp_path / "home").mkdir()
    env = {**os.environ, "HOME": str(tmp_path / "home"), "RAY_AUTH_MODE": "token",
           "RAY_AUTH_TOKEN": secrets.token_hex(32)}
    ray_cli = str(Path(sys.executable).with_name("ray"))
    nodes = []

    def start(name: str, *args: str) -> None:
        nodes.append(subprocess.Popen(
            [ray_cli, "start", *args, "--num-cpus=1", "--block"], env=env,
            stdout=(tmp_path / f"{name}.log").open("w"), stderr=subprocess.STDOUT))

    try:
        start("head", "--head", f"--port={port}", "--include-dashboard=false")
        wait_for_port(port, host="127.0.0.1", timeout=60, process=nodes[0])
        start("node2", f"--address=127.0.0.1:{port}")
        deadline = time.monotonic() + 60
        while _active_nodes(ray_cli, port, env) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
        for _ in range(2):
            done = subprocess.run([sys.executable, "-c", CONNECTING_DRIVER, f"127.0.0.1:{port}"],
                                  cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr[-3000:]
            lines = done.stdout.strip().splitlines()
            assert lines[0] == "[(0, 1), (1, 2), (2, 5), (3, 10)]"
            assert lines[1].count("lacks no-such-engine-xyz") == 2, lines[1]  # both nodes
            assert len(set(re.findall(r"id ([0-9a-f]{8})", lines[1]))) == 2
    finally:
        for node in reversed(nodes):  # --block: each drains and stops its raylet and workers
            node.terminate()
            node.wait(60)
        current = Path("/tmp/ray/ray_current_cluster")  # `ray start` leaves it; `ray stop` would
        if current.exists() and current.read_text().strip().endswith(f":{port}"):
            current.unlink()

"""Benchmarks for `instances` (not run by `make test`):

1. `instances up BRANCH` (CLI, checks included) until the URL answers, median of 10 small Flask
   apps; baseline: starting the same app directly until its health path answers.
2. 100 verified nginx reloads while 16 clients loop on new connections (some requests slow, so
   reloads happen with requests in flight): failed requests must be 0.
3. memory of the 10 instances (PSS over each process tree), as `instances ls` shows it.
4. `kill -9` of 20 services and the nginx master, then `instances doctor` until reconciled;
   baseline: doctor with nothing to fix.

Run: .venv/bin/python bench/instances_bench.py [--reloads 100] [--clients 16]
"""
import argparse
import base64
import http.client
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from importlib.metadata import version

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from instances import procs  # noqa: E402
from instances.config import load_config  # noqa: E402
from instances.fmt import fmt_bytes  # noqa: E402
from instances.manager import Instances  # noqa: E402
from instances.nginx import probe_generation  # noqa: E402
from plumbing import git as plumbing_git  # noqa: E402
from plumbing.ports import free_port  # noqa: E402

FIXTURE = REPO / "tests" / "instances" / "fixtures" / "flaskapp"
GIT_ENV = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid"}


def make_repo(root: Path) -> Path:
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / ".gitignore").write_text("__pycache__/\n")
    (root / "instances.toml").write_text(
        'command = "{python} app.py {port}"\nhealth = "/health"\nwebsocket = "/ws"\n'
        f'[nginx]\nlisten = "127.0.0.1:{free_port()}"\n')
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "bench app"]):
        plumbing_git.run(root, *args, env=GIT_ENV)
    return root


def conditions():
    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    nginx_v = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip()
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    print(f"conditions: {platform.platform()}; {os.cpu_count()} cores ({cpu}); {mem / 1024**3:.0f} GiB RAM; "
          f"load average {os.getloadavg()[0]:.2f} at start (machine shared with other work); {nginx_v}; "
          f"Python {platform.python_version()}; fixture: Flask {version('flask')} dev server, "
          "threaded, 1 process per instance")


def bench_up(repo: Path, mgr: Instances, count: int, code: Path = REPO, first: int = 0) -> list[float]:
    """Wall time of the `instances up` CLI (checks included) until the printed URL answers 200,
    with the instances code in CODE (this tree, or a baseline revision's extract)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(dict.fromkeys([str(code), str(REPO)])), **GIT_ENV}
    creds = mgr.credentials()
    times = []
    for i in range(first, first + count):
        t0 = time.perf_counter()
        # PYTHONPATH puts CODE first (the fixture repo has no package of that name to shadow it)
        out = subprocess.run([sys.executable, "-m", "instances.cli", "up", f"bench/app-{i}"], cwd=repo, env=env,
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"instances up failed: {out.stderr}")
        url = out.stdout.strip().splitlines()[-1]
        status = httpx.get(url, auth=creds, trust_env=False).status_code
        times.append(time.perf_counter() - t0)
        assert status == 200, status
    return times


def bench_direct_start(repo: Path, count: int) -> list[float]:
    """Baseline: the same app started directly, until /health answers."""
    times = []
    for _ in range(count):
        port = free_port()
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "app.py", str(port)], cwd=repo, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", trust_env=False, timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.02)
        times.append(time.perf_counter() - t0)
        proc.terminate()
        proc.wait()
    return times


def client_loop(base_url, creds, names, clients, stop, results):
    """CLIENTS threads in this (separate) process, each opening a new connection per request
    (http.client: an httpx call builds a TLS context each time and would throttle the load)."""
    counts = {"ok": 0, "failed": 0, "slow_ok": 0, "errors": []}
    lock = threading.Lock()
    host, port = base_url.removeprefix("http://").split(":")
    auth_header = "Basic " + base64.b64encode(f"{creds[0]}:{creds[1]}".encode()).decode()

    def client(idx: int):
        n = 0
        while not stop.is_set():
            name = names[(idx + n) % len(names)]
            slow = idx % 4 == 0  # a quarter of the clients keep 300 ms requests in flight
            path = f"/{name}/sleep/300" if slow else f"/{name}/"
            conn = http.client.HTTPConnection(host, port, timeout=10)
            try:  # a new connection for every request
                conn.request("GET", path, headers={"Authorization": auth_header})
                resp = conn.getresponse()
                resp.read()
                good = resp.status == 200
                err = None if good else f"HTTP {resp.status} on {path}"
            except (OSError, http.client.HTTPException) as exc:
                good, err = False, f"{type(exc).__name__} on {path}"
            finally:
                conn.close()
            with lock:
                counts["ok" if good else "failed"] += 1
                counts["slow_ok"] += int(good and slow)
                if err and len(counts["errors"]) < 5:
                    counts["errors"].append(err)
            n += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put(counts)


def bench_reloads(mgr: Instances, names: list[str], reloads: int, clients: int) -> dict:
    """Reloads from this process; the clients run in another so they do not compete for our GIL."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    stop, results = ctx.Event(), ctx.Queue()
    worker = ctx.Process(target=client_loop, args=(mgr.base_url, mgr.credentials(), names, clients, stop, results))
    worker.start()
    time.sleep(1.0)
    durations = []
    t_all = time.perf_counter()
    for _ in range(reloads):
        t0 = time.perf_counter()
        assert mgr.sync_nginx(force=True) == "reloaded"
        durations.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - t_all
    time.sleep(0.5)
    stop.set()
    counts = results.get(timeout=60)
    worker.join()
    return {**counts, "durations": durations, "elapsed": elapsed}


def report_up(ups: list[float], base: list[float]) -> None:
    print(f"\n[1] up -> live URL (CLI, worktree + service + nginx reload + sub-path checks), {len(ups)} runs: "
          f"median {statistics.median(ups):.2f} s, max {max(ups):.2f} s "
          f"(baseline, app started directly until healthy: median {statistics.median(base):.2f} s)")


def report_memory(items: list[dict]) -> None:
    print(f"\n[3] {len(items)} instances up at once, memory = PSS summed over each service's process tree:")
    for it in items:
        print(f"    {it['name']:<14} {it['state']:<8} port {it['port']:<6} {fmt_bytes(it['memory_bytes']):>10}")
    total = sum(it["memory_bytes"] or 0 for it in items)
    print(f"    total {fmt_bytes(total)}; nginx not included")


def report_reloads(r: dict, reloads: int, clients: int, names: list[str]) -> None:
    print(f"\n[2] {reloads} verified reloads in {r['elapsed']:.1f} s (median {statistics.median(r['durations']) * 1000:.0f} ms, "
          f"max {max(r['durations']) * 1000:.0f} ms each) while {clients} clients looped on new connections "
          f"over {len(names)} instances: {r['ok']} requests ok ({r['slow_ok']} of them 300 ms requests), "
          f"{r['failed']} failed {r['errors'] or ''}")


def kill_everything(mgr: Instances) -> int:
    """kill -9 of every service and of the nginx master; returns how many services were killed."""
    victims = [it["pid"] for it in mgr.ls() if it["pid"]]
    for pid in victims:
        os.kill(pid, signal.SIGKILL)
    for pid in victims:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    master = mgr.nginx().master()
    os.kill(master.pid, signal.SIGKILL)
    procs.wait_gone([master], 30)
    return len(victims)


def bench_doctor(repo: Path, mgr: Instances, first: int, last: int) -> None:
    """[4]: instances FIRST..LAST-1 started too, all killed, then the doctor CLI until reconciled."""
    for i in range(first, last):
        mgr.up(f"bench/app-{i}", run_checks=False)
    t0 = time.perf_counter()
    clean = mgr.doctor()
    clean_s = time.perf_counter() - t0
    killed = kill_everything(mgr)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "instances.cli", "doctor", "--json"], cwd=repo, env=env,
                         capture_output=True, text=True)
    doctor_s = time.perf_counter() - t0
    states = {it["state"] for it in mgr.ls()}
    serving = probe_generation(mgr.base_url) == mgr.registry.load()["generation"]
    print(f"\n[4] kill -9 of {killed} services and the nginx master, then `instances doctor` (CLI): "
          f"{doctor_s:.2f} s, exit {out.returncode}, {out.stdout.count('service (pid')} dead services found; "
          f"states after: {sorted(states)}; nginx serving again: {serving} "
          f"(baseline, doctor with nothing to fix, in-process: {clean_s:.2f} s, {len(clean)} actions)")


def compare_up(tmp: Path, rev: str, count: int) -> None:
    """`instances up` with REV's code and with this tree's, alternating one up each, each side in a
    repository of its own; both sides pay the same first-up costs (nginx and supervisor start)."""
    import baseline

    code = Path(baseline.extract(rev, str(tmp / "code"), ["instances", "plumbing"]))
    sides = {}
    for label, where in ((f"baseline {baseline.short(rev)}", code), ("this tree", REPO)):
        repo = make_repo(tmp / f"cmp-{len(sides)}")
        sides[label] = (repo, Instances(repo, load_config(repo, environ={}), repo / ".git" / "instances"), where, [])
    try:
        for i in range(count):
            for repo, mgr, where, times in sides.values():
                times += bench_up(repo, mgr, 1, code=where, first=100 + i)
    finally:
        for _, mgr, _, _ in sides.values():
            for rec in mgr.registry.instances().values():
                procs.stop(rec.get("process"), timeout=2)
            mgr.stop_nginx()
    print(f"\n[0] before/after in this run, `instances up` (CLI, checks incl. Chromium) until the URL answers, "
          f"{count} each, alternating:")
    for label, (_, _, _, times) in sides.items():
        print(f"    {label:<18} median {statistics.median(times):.2f} s, max {max(times):.2f} s")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reloads", type=int, default=100)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--ups", type=int, default=10)
    parser.add_argument("--kill", type=int, default=20)
    parser.add_argument("--baseline", metavar="REV", help="also time `instances up` with REV's code, alternating")
    return parser.parse_args()


def main():
    args = parse_args()
    conditions()
    tmp = Path(tempfile.mkdtemp(prefix="instances-bench-"))
    repo = make_repo(tmp / "app")
    os.environ.update(GIT_ENV)
    mgr = Instances(repo, load_config(repo, environ={}), repo / ".git" / "instances")
    try:
        base = bench_direct_start(repo, 5)
        if args.baseline:
            compare_up(tmp, args.baseline, args.ups)
        report_up(bench_up(repo, mgr, args.ups), base)
        items = mgr.ls()
        report_memory(items)
        names = [it["name"] for it in items]
        report_reloads(bench_reloads(mgr, names, args.reloads, args.clients), args.reloads, args.clients, names)
        bench_doctor(repo, mgr, args.ups, args.kill)
    finally:
        for rec in mgr.registry.instances().values():
            procs.stop(rec.get("process"), timeout=2)
        mgr.stop_nginx()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

"""What a game pays for running through RayPool instead of a plain thread pool on one machine.

    .venv/bin/python bench/match_ray_overhead.py [--tasks 200] [--jobs 2] [--runs 3]

Times TASKS no-op tasks and TASKS short subprocess tasks (`/bin/true`, as a game starts its
engines) through a ThreadPoolExecutor(JOBS) and through RayPool on a local cluster of JOBS CPUs
(one CPU per task, so JOBS at a time in both), best of RUNS after one warm-up run each; the
cluster's startup and shutdown are timed separately. Prints its conditions with the figures.
"""
from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a source tree

from engines.match.cluster import RayPool  # noqa: E402
from engines.match.results import machine  # noqa: E402


def noop(item: int) -> int:
    return item


def true_subprocess(item: int) -> int:
    return subprocess.run(["/bin/true"], check=True).returncode + item


def threads(fn, items, jobs: int) -> list:
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(zip(items, pool.map(fn, items)))


def best(runs: int, call) -> float:
    call()  # warm-up: Ray's workers import the function's module on first use
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    items = list(range(args.tasks))

    started = time.perf_counter()
    pool = RayPool(init_kwargs={"num_cpus": args.jobs, "object_store_memory": 100 * 2**20})
    startup = time.perf_counter() - started
    import ray

    print(f"python {platform.python_version()}, ray {ray.__version__}, tasks {args.tasks}, "
          f"concurrency {args.jobs} (threads: max_workers={args.jobs}; ray: num_cpus={args.jobs},"
          f" 1 CPU a task, {pool.max_in_flight()} in flight), best of {args.runs} after a warm-up")
    print(f"local cluster startup (RayPool()): {startup:.2f} s")
    try:
        for name, fn in (("no-op", noop), ("/bin/true subprocess", true_subprocess)):
            expected = sorted(threads(fn, items, args.jobs))
            assert sorted(pool.run(fn, items)) == expected
            t_threads = best(args.runs, lambda: threads(fn, items, args.jobs))
            t_ray = best(args.runs, lambda: list(pool.run(fn, items)))
            per = lambda t: t / args.tasks * 1e3  # noqa: E731 - ms a task
            print(f"{name:22s} threads {t_threads:6.3f} s ({per(t_threads):6.3f} ms/task)   "
                  f"ray {t_ray:6.3f} s ({per(t_ray):6.3f} ms/task)   "
                  f"ray's overhead {per(t_ray) - per(t_threads):6.3f} ms/task")
    finally:
        started = time.perf_counter()
        pool.close()
        print(f"local cluster shutdown (close()): {time.perf_counter() - started:.2f} s")
        print(f"machine: {machine()}")


if __name__ == "__main__":
    main()

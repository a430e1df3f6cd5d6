"""pm benchmark: speed at 10,000 and 100,000 tasks, many writers at once, and Backlog.md
listing the same 10,000 tasks in the same run.

    .venv/bin/python bench/pm_bench.py                 # the full figures (several minutes)
    .venv/bin/python bench/pm_bench.py --quick         # small counts, to try it out
    .venv/bin/python bench/pm_bench.py --only size --baseline 0185552   # before and after
    .venv/bin/python bench/pm_bench.py --only big --baseline main --workdir /tmp/pmb   # 100,000

The big tracker is also timed as a copy sharded by `pm doctor --shard`, and the parallel
creates run on a sharded tracker too (--no-shard skips both);
with --workdir, trackers an earlier run left there are reused.

With --baseline REV, REV's pm (extracted with `git archive` into a temp dir, run with
PYTHONPATH pointing there) is timed beside the working tree's, run for run in turn, against
the same generated trackers, and both figures are printed.

Every figure is wall-clock time of the real `pm` command (a new process each time), with
its median and p90 over --runs runs; the machine's conditions are printed first.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import baseline as baseline_code  # bench/baseline.py, beside this script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# `python -m pm.cli` with this checkout on PYTHONPATH (see env_for): a `pip install -e .`
# elsewhere on the machine rewrites the console script, and one run lost a create to that.
PM = [sys.executable, "-m", "pm.cli"]
GAMES = ["Go", "Gomoku", "Quoridor"]
TOPICS = ["board page", "engine API", "move timer", "undo", "ranking", "replay", "scoring",
          "hint button", "mobile layout", "opening book", "time controls", "sound"]


def conditions() -> None:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(l.split(":", 1)[1].strip() for l in fh if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    git = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip()
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"machine: {platform.platform()}, {os.cpu_count()} cpus ({cpu}), "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"python {platform.python_version()}, {git}, soloshop at {commit}; times are wall clock "
          "of a new `pm` process each; cpu = user+sys of it and its git children (load-independent)")


def env_for(root: str, role="worker", session="bench", code: str = ROOT) -> dict:
    """The environment of a pm process on tracker ROOT, running the pm found in CODE."""
    path = os.pathsep.join(p for p in (code, os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, PM_DIR=root, PM_ROLE=role, PM_SESSION=session, PYTHONPATH=path)


def compare(label: str, argvs, variants: list[tuple[str, dict]], limit: float | None = None,
            ) -> dict[str, float]:
    """Time the calls once per variant, in turn, and report each variant. ARGVS is a list of
    argv lists (every variant runs the same ones) or a function of the variant's index giving
    its own list (changes: the second of two identical status changes would have less to do)."""
    lists = [list(argvs(i)) if callable(argvs) else list(argvs) for i in range(len(variants))]
    samples: dict[str, list] = {name: [] for name, _env in variants}
    for calls in zip(*lists):
        for (name, env), argv in zip(variants, calls):
            samples[name].append(timed(argv, env))
    return {name: report(f"{label} [{name}]" if len(variants) > 1 else label, samples[name], limit)
            for name, _env in variants}


def pm(root: str, *args, role="worker", session="bench", check=True) -> subprocess.CompletedProcess:
    return subprocess.run(PM + list(args), env=env_for(root, role, session), capture_output=True,
                          text=True, check=check)


def timed(argv: list[str], env: dict | None = None, cwd: str | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and the git processes it waited for)."""
    if cwd is None and env and env.get("PM_DIR"):
        # Not the checkout: `python -m` puts the working directory first on sys.path, which
        # would run the checkout's pm whatever PYTHONPATH says.
        cwd = env["PM_DIR"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{argv} failed: {proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def report(label: str, samples: list[tuple[float, float]], limit: float | None = None) -> float:
    walls = sorted(w for w, _c in samples)
    med = statistics.median(walls)
    p90 = walls[max(0, int(len(walls) * 0.9) - 1)]
    cpu = statistics.median(c for _w, c in samples)
    verdict = "" if limit is None else ("  (target <= %d ms: %s)" % (limit * 1000, "met" if med <= limit else "NOT met"))
    print(f"  {label:<40} median {med * 1000:7.1f} ms  p90 {p90 * 1000:7.1f} ms  "
          f"cpu {cpu * 1000:6.1f} ms  n={len(samples)}{verdict}")
    return med


def records(n: int, seed: int = 1):
    rng = random.Random(seed)
    for i in range(1, n + 1):
        rec = {"id": i, "title": f"{rng.choice(GAMES)} {rng.choice(TOPICS)} #{i}",
               "status": rng.choice(["open", "open", "open", "in-progress", "review", "done", "done"]),
               "priority": rng.choice(["P0", "P1", "P2", "P2", "P3"]),
               "kind": rng.choice(["task", "bug", "feature", "chore"]),
               "problem": f"<p>Players of {rng.choice(GAMES)} report that the {rng.choice(TOPICS)} "
                          "misbehaves when the board is full.</p>"}
        if i > 10 and rng.random() < 0.2:
            rec["links"] = [{"type": "blocked-by", "id": rng.randint(1, i - 1)}]
        if i <= 12:
            rec["sprint"] = i
        yield rec


def make_tracker(root: str, n: int) -> float:
    pm(root, "init")
    data = os.path.join(os.path.dirname(root), f"tasks-{n}.jsonl")
    with open(data, "w") as fh:
        for rec in records(n):
            fh.write(json.dumps(rec) + "\n")
    start = time.perf_counter()
    pm(root, "import", data, role="ceo")
    return time.perf_counter() - start


def sharded_copy(root: str) -> str:
    """A copy of tracker ROOT sharded by `pm doctor --shard` (reused when the work dir has it)."""
    copy = root + "-sharded"
    if os.path.exists(os.path.join(copy, ".pmtracker")):
        print(f"  reusing {copy}")
        return copy
    subprocess.run(["cp", "-a", root, copy], check=True)
    start = time.perf_counter()
    pm(copy, "doctor", "--shard")
    print(f"  `pm doctor --shard` on a copy: {time.perf_counter() - start:.1f} s")
    return copy


def bench_size(work: str, n: int, runs: int, full: bool, baseline: tuple[str, str] | None = None,
               shard: bool = False) -> dict:
    root = os.path.join(work, f"pm-{n}")
    if os.path.exists(os.path.join(root, ".pmtracker")):  # --workdir kept it from a former run
        print(f"\n{n:,} tasks (the tracker kept in {root} by an earlier run)")
    else:
        took = make_tracker(root, n)
        print(f"\n{n:,} tasks (generated with one `pm import` in {took:.1f} s, one commit)")
    env = env_for(root)
    variants = [("now", env)]
    if baseline:
        variants.append((f"baseline {baseline[0]}", env_for(root, code=baseline[1])))
    if shard:  # the same tasks sharded (tasks/12xxx/), timed with this checkout's pm
        variants.append(("now, sharded", env_for(sharded_copy(root))))
    report("baseline: python -c pass (interpreter only)",
           [timed([sys.executable, "-c", "pass"], env) for _ in range(runs)])
    for name, variant_env in variants:
        caches = os.path.join(variant_env["PM_DIR"], ".git", "pm")
        for cache in ("cache.pickle", "summaries.pickle", "listing.marshal"):  # the import built them
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(caches, cache))
        shutil.rmtree(os.path.join(caches, "shards"), ignore_errors=True)
        cold, cold_cpu = timed(PM + ["ls"], variant_env)
        label = "pm ls, cold listing cache" + (f" [{name}]" if len(variants) > 1 else "")
        print(f"  {label:<40} {cold * 1000:7.1f} ms  (cpu {cold_cpu * 1000:.1f} ms)")
    for _name, variant_env in variants:
        timed(PM + ["ls"], variant_env)  # warm the caches again
        timed(PM + ["ready"], variant_env)
    ls = compare("pm ls", [PM + ["ls"] for _ in range(runs)], variants, 0.3)
    out = {"ls": ls["now"]}
    if not full and n <= 10000:
        return out
    out["ready"] = compare("pm ready", [PM + ["ready"]] * runs, variants, 0.3)["now"]
    if not full:  # the big tracker: the listings and a status change with its commit
        sampled = random.Random(3).sample(range(1, n + 1), runs * len(variants))
        out["status"] = compare("pm status N S (incl. its git commit)",
                                lambda v: [PM + ["status", str(i), s] for i in sampled[v * runs:(v + 1) * runs]
                                           for s in ("review", "wontfix")], variants, 0.15)["now"]
        return out
    out["ls_json"] = compare("pm ls --json", [PM + ["ls", "--json"]] * runs,
                             variants)["now"]
    # Each variant changes tasks of its own, so every status change really changes the task
    # and its overview row.
    sampled = random.Random(2).sample(range(1, n + 1), runs * len(variants))
    ids_of = lambda v: sampled[v * runs:(v + 1) * runs]  # noqa: E731
    out["show"] = compare("pm show N", [PM + ["show", str(i)] for i in ids_of(0)], variants,
                          0.05)["now"]
    out["status"] = compare("pm status N S (incl. its git commit)",
                            lambda v: [PM + ["status", str(i), status] for i in ids_of(v)
                                       for status in ("review", "wontfix")], variants, 0.15)["now"]
    out["log"] = compare("pm log N MSG (incl. its git commit)",
                         lambda v: [PM + ["log", str(i), "benchmark note"] for i in ids_of(v)],
                         variants)["now"]
    out["lint"] = compare("pm lint", [PM + ["lint"]] * max(3, runs // 4), variants,
                          2.0)["now"]
    return out


def concurrent_new(work: str, procs: int, each: int, shard: bool = False) -> None:
    root = os.path.join(work, "pm-new-sharded" if shard else "pm-new")
    pm(root, "init")
    if shard:
        pm(root, "doctor", "--shard")
    print(f"\n{procs} processes x {each} `pm new` at once" + (" (a sharded tracker)" if shard else ""))

    def worker(p: int):
        env = env_for(root, session=f"w{p}")
        ids, errors = [], []
        for i in range(each):
            r = subprocess.run(PM + ["new", f"task {i} from worker {p}"], env=env, capture_output=True,
                               text=True)
            if r.returncode == 0:
                ids.append(int(r.stdout))
            else:
                errors.append(r.stderr.strip())
        return ids, errors
    start = time.perf_counter()
    with ThreadPoolExecutor(procs) as pool:
        results = list(pool.map(worker, range(procs)))
    elapsed = time.perf_counter() - start
    ids = [i for r in results for i in r[0]]
    failures = [e for r in results for e in r[1]]
    errors = len(failures)
    files = sum(1 for _dir, _subdirs, names in os.walk(os.path.join(root, "tasks"))
                for n in names if n.endswith(".html"))
    commits = int(subprocess.run(["git", "-C", root, "rev-list", "--count", "HEAD"], capture_output=True,
                                 text=True).stdout) - 1
    lint = pm(root, "lint", check=False).returncode
    print(f"  {files} files, {len(set(ids))} distinct numbers of {len(ids)}, {commits} commits, "
          f"{errors} errors, lint exit {lint}; {elapsed:.1f} s ({len(ids) / elapsed:.1f} creates/s)")
    for message in failures[:3]:
        print(f"  error: {message}")


def racing(work: str, claims: int, logs: int) -> None:
    root = os.path.join(work, "pm-race")
    pm(root, "init")
    pm(root, "new", "the one ready task")
    pm(root, "new", "the busy task", "--blocked-by", "1")
    procs = [subprocess.Popen(PM + ["claim", "--next"], env=env_for(root, session=f"c{i}"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(claims)]
    codes = [p.wait() for p in procs]
    print(f"\n{claims} racing `pm claim --next` on one ready task: {codes.count(0)} success(es), "
          f"{codes.count(1)} told nothing is ready")
    procs = [subprocess.Popen(PM + ["log", "2", f"entry {i}"], env=env_for(root, session=f"l{i}"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(logs)]
    codes = [p.wait() for p in procs]
    kept = len(json.loads(pm(root, "show", "2", "--json").stdout)["log"])
    print(f"{logs} concurrent `pm log` on one task: {codes.count(0)} exit 0, {kept} entries kept")


def backlog_md(work: str, n: int, runs: int, pm_ls: float) -> None:
    tool = os.path.join(work, "backlog-tool")
    binary = os.path.join(tool, "node_modules", ".bin", "backlog")
    if not os.path.exists(binary):
        os.makedirs(tool, exist_ok=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", tool, "backlog.md"],
                       check=True, capture_output=True)
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    project = os.path.join(work, "backlog-project")
    os.makedirs(project)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run([binary, "init", "bench", "--defaults", "--integration-mode", "none",
                    "--check-branches", "false", "--auto-open-browser", "false"], cwd=project,
                   check=True, capture_output=True, stdin=subprocess.DEVNULL)
    tasks = os.path.join(project, "backlog", "tasks")
    os.makedirs(tasks, exist_ok=True)
    status = {"open": "To Do", "in-progress": "In Progress", "review": "In Progress", "done": "Done"}
    prio = {"P0": "high", "P1": "high", "P2": "medium", "P3": "low"}
    for rec in records(n):
        slug = rec["title"].replace(" ", "-").replace("#", "")
        deps = [f"task-{l['id']}" for l in rec.get("links", [])]
        with open(os.path.join(tasks, f"task-{rec['id']} - {slug}.md"), "w") as fh:
            fh.write(f"---\nid: TASK-{rec['id']}\ntitle: '{rec['title']}'\nstatus: {status[rec['status']]}\n"
                     f"assignee: []\ncreated_date: '2026-01-01 10:00'\nlabels: []\n"
                     f"dependencies: {json.dumps(deps)}\npriority: {prio[rec['priority']]}\n---\n\n"
                     f"## Description\n\n{rec['problem'][3:-4]}\n")
    probe = subprocess.run([binary, "task", "list", "--plain"], cwd=project, capture_output=True,
                           text=True, stdin=subprocess.DEVNULL)
    listed = sum(1 for l in probe.stdout.splitlines() if "TASK-" in l.upper())
    print(f"\nBacklog.md {version} (npm package backlog.md), `backlog task list --plain` over the same "
          f"{n:,} tasks ({listed} listed)")
    med = report("backlog task list --plain", [timed([binary, "task", "list", "--plain"], cwd=project)
                                               for _ in range(runs)])
    print(f"  ratio: Backlog.md takes {med / pm_ls:.1f}x the time of `pm ls` on the same tasks")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=10_000)
    parser.add_argument("--big", type=int, default=100_000, help="0 skips the big tracker")
    parser.add_argument("--procs", type=int, default=32)
    parser.add_argument("--each", type=int, default=50)
    parser.add_argument("--claims", type=int, default=16)
    parser.add_argument("--logs", type=int, default=16)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--no-backlog", action="store_true", help="skip Backlog.md")
    parser.add_argument("--no-shard", action="store_true",
                        help="skip the sharded runs (`pm doctor --shard`): the big tracker's copy, the parallel creates")
    parser.add_argument("--quick", action="store_true", help="small counts, to try the bench")
    parser.add_argument("--only", choices=["size", "big", "new", "race", "backlog"], action="append")
    parser.add_argument("--workdir", help="keep the trackers here (default: a temp dir, removed)")
    parser.add_argument("--baseline", metavar="REV",
                        help="also time REV's pm on the same trackers (e.g. 0185552)")
    args = parser.parse_args()
    if args.quick:
        args.tasks, args.big, args.procs, args.each, args.runs = 1000, 0, 4, 5, 5
    only = set(args.only or ["size", "big", "new", "race", "backlog"])
    # The environment may forbid writing bytecode; without it every pm call compiles pm anew.
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(ROOT, "pm"),
                    os.path.join(ROOT, "plumbing")], check=True, stdout=subprocess.DEVNULL)
    conditions()
    work = args.workdir or tempfile.mkdtemp(prefix="pm-bench-")
    os.makedirs(work, exist_ok=True)
    try:
        figures = {}
        baseline = None
        if args.baseline:
            baseline = (args.baseline, baseline_code.extract(args.baseline, work, ["pm", "plumbing"]))
            print(f"baseline: pm at {baseline_code.short(args.baseline)}, timed in turn with the working tree's ([now])")
        if only & {"size", "backlog"}:
            figures = bench_size(work, args.tasks, args.runs, full="size" in only, baseline=baseline)
        if "big" in only and args.big:
            bench_size(work, args.big, max(5, args.runs // 4), full=False, baseline=baseline,
                       shard=not args.no_shard)
        if "new" in only:
            concurrent_new(work, args.procs, args.each)
            if not args.no_shard:
                concurrent_new(work, args.procs, args.each, shard=True)
        if "race" in only:
            racing(work, args.claims, args.logs)
        if "backlog" in only and not args.no_backlog:
            backlog_md(work, args.tasks, max(3, args.runs // 4), figures["ls"])
        print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

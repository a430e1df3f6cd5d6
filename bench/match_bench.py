"""`engines match` figures: its game rate against the old bench/go_match.py in the same run,
and what a game costs on a local Ray cluster against the local pool.

    .venv/bin/python bench/match_bench.py rate [--games 10] [--rounds 2] [--baseline 0185552]
    .venv/bin/python bench/match_bench.py ray [--games 8]

`rate`: 9x9 Go, our engine against itself at 0.1 s a move (byo-yomi for the candidate, the
engine's own --seconds for the opponent), empty board, GNU Go level 10 as referee, 2 games at
a time; the baseline revision's bench/go_match.py (extracted with `git archive`) and this
tree's `engines match go` play the same games in turn, ROUNDS times, and games per hour are
reported for each. `ray`: the same short match (7x7, fixed playouts, GNU Go level 1) through
the local pool and through `--cluster local`, per game wall time of each (the Ray figure with
and without the cluster's start).
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import baseline as baseline_code  # bench/baseline.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
ENGINES = Path(sys.executable).with_name("engines")
GTP = f"{shlex.quote(str(ENGINES))} gtp go"


def conditions() -> str:
    sys.path.insert(0, str(ROOT))
    from engines.match.results import machine
    return f"{machine()}; python {sys.version.split()[0]}; soloshop at {baseline_code.short('HEAD')}"


def timed(argv: list[str]) -> float:
    started = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"{shlex.join(argv[:4])} ... failed:\n{proc.stderr[-2000:]}")
    return time.monotonic() - started


def rate(args) -> None:
    common = ["--games", str(args.games), "--size", "9", "--seconds", "0.1", "--jobs", "2",
              "--engine", GTP, "--opponent", f"{GTP} --seconds 0.1", "--referee-level", "10"]
    with tempfile.TemporaryDirectory(prefix="match-bench-") as work:
        old_code = baseline_code.extract(args.baseline, work, ["bench/go_match.py", "engines"])
        # go_match.py puts its own tree first on sys.path; no PYTHONPATH, which the engines it
        # starts would inherit (they must be this tree's).
        old = [sys.executable, os.path.join(old_code, "bench", "go_match.py")]
        new = [str(ENGINES), "match", "go", "--openings", "none"]
        print(f"conditions: {conditions()}")
        print(f"match: {args.games} games a run, 9x9, 0.1 s a move each side, 2 at a time, "
              f"referee GNU Go 10; baseline bench/go_match.py at {baseline_code.short(args.baseline)}")
        totals = {"old": [0, 0.0], "new": [0, 0.0]}
        for round_ in range(args.rounds):
            for label, argv in (("old", old), ("new", new)):
                out = os.path.join(work, f"{label}-{round_}")
                seconds = timed([*argv, *common, "--seed", str(1 + round_ * args.games),
                                 "--out", out])
                totals[label][0] += args.games
                totals[label][1] += seconds
                print(f"  round {round_ + 1} {label}: {args.games} games in {seconds:.1f} s "
                      f"= {3600 * args.games / seconds:.0f} games/hour", flush=True)
        for label, (games, seconds) in totals.items():
            print(f"{label}: {games} games in {seconds:.1f} s = {3600 * games / seconds:.0f} games/hour")
        ratio = (totals["new"][0] / totals["new"][1]) / (totals["old"][0] / totals["old"][1])
        print(f"new / old game rate: {ratio:.3f}")


def ray(args) -> None:
    gnugo1 = "/usr/games/gnugo --mode gtp --level 1 --chinese-rules --komi {komi} --seed {seed}"
    common = ["--games", str(args.games), "--size", "7", "--komi", "9", "--openings", "generate",
              "--seconds", "0", "--playouts", "200", "--threads", "1", "--opponent", gnugo1,
              "--level", "1", "--referee-level", "1", "--concurrency", "2"]
    print(f"conditions: {conditions()}")
    print(f"match: {args.games} games a run, 7x7, our engine at 200 playouts against GNU Go 1, "
          "2 at a time; Ray: `--cluster local` (a 2-CPU cluster started and stopped by the run)")
    with tempfile.TemporaryDirectory(prefix="match-ray-") as work:
        sys.path.insert(0, str(ROOT))
        from engines.match.cluster import RayPool
        started = time.monotonic()
        RayPool(init_kwargs={"num_cpus": 2}).close()
        startup = time.monotonic() - started
        for round_ in range(args.rounds):
            local = timed([str(ENGINES), "match", "go", *common, "--out", f"{work}/l{round_}"])
            on_ray = timed([str(ENGINES), "match", "go", *common, "--cluster", "local",
                            "--out", f"{work}/r{round_}"])
            print(f"  round {round_ + 1}: local {local / args.games:.2f} s/game, ray "
                  f"{on_ray / args.games:.2f} s/game ({(on_ray - startup) / args.games:.2f} "
                  f"without the cluster's start and stop, {startup:.1f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("rate")
    r.add_argument("--games", type=int, default=10)
    r.add_argument("--rounds", type=int, default=2)
    r.add_argument("--baseline", default="0185552")
    y = sub.add_parser("ray")
    y.add_argument("--games", type=int, default=8)
    y.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    {"rate": rate, "ray": ray}[args.what](args)


if __name__ == "__main__":
    main()

"""Do two builds of the Gomoku core search the same tree? A change that is meant to be only
faster (incremental codes instead of rescans) must give, at a fixed depth, the same move,
score, PV and node count on every position.

    python bench/gomoku_same_search.py REV [--new REV2] [--depth 5] [--games 6]

REV's core (and REV2's, else this tree's) is built by bench/gomoku_rev.py; both builds search random middle games of the
three rules (seeded, 10-40 random legal moves near the centre, positions with a result
skipped) and the bench positions, and every difference is printed. Exit 1 on a difference.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gomoku_rev  # noqa: E402

RULES = ("freestyle", "standard", "renju")

CHILD = r"""
import json, sys
from engines.gomoku.engine import GomokuEngine
out = []
for rule, moves, depth in json.loads(sys.stdin.read()):
    e = GomokuEngine(15, rule, tt_megabytes=16)
    e.setup([tuple(m) for m in moves])
    r = e.search(depth=depth)
    out.append([r["move"], r["score"], r["depth"], r["nodes"], r["pv"], r["proven_win_in"]])
    e.close()
print(json.dumps(out))
"""


def positions(games: int, depth: int, seed: int = 15) -> list:
    from engines.gomoku import rules
    from engines.gomoku.bench import POSITIONS
    rng = random.Random(seed)
    jobs = [["freestyle", [list(m) for m in p], depth] for p in POSITIONS]
    for rule in RULES:
        for _ in range(games):
            game, moves = rules.Game(15, rule), []
            for _ in range(rng.randrange(10, 41)):
                near = [p for p in game.legal_moves() if abs(p[0] - 7) <= 4 and abs(p[1] - 7) <= 4]
                if not near:
                    break
                moves.append(rng.choice(near))
                game.play(moves[-1])
                if game.is_over:
                    break
            if not game.is_over:
                jobs.append([rule, [list(m) for m in moves], depth])
    return jobs


def run(pythonpath: str, jobs: list) -> list:
    env = {**os.environ, "PYTHONPATH": pythonpath}
    # -P: the current directory is not put before PYTHONPATH (it would win from a checkout)
    done = subprocess.run([sys.executable, "-P", "-c", CHILD], input=json.dumps(jobs), env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--games", type=int, default=6, help="random positions per rule")
    parser.add_argument("--new", help="compare with this revision instead of the tree")
    parser.add_argument("--work", default="/tmp/soloshop-gomoku-revs")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    old = gomoku_rev.build(args.rev, args.work)
    jobs = positions(args.games, args.depth)
    here = (gomoku_rev.build(args.new, args.work) if args.new
            else str(Path(__file__).resolve().parent.parent))
    a, b = run(old, jobs), run(here, jobs)
    print(f"{args.rev}: {sum(r[3] for r in a):,} nodes in all")
    diffs = [(j, x, y) for j, x, y in zip(jobs, a, b) if x != y]
    for job, x, y in diffs:
        print(f"differs: {job[0]} {len(job[1])} moves: {args.rev} {x} / {args.new or 'this tree'} {y}")
    nodes = sum(r[3] for r in b)
    print(f"{len(jobs) - len(diffs)}/{len(jobs)} positions searched identically at depth "
          f"{args.depth} ({nodes:,} nodes in {args.new or 'this tree'}'s searches)")
    return 1 if diffs else 0


if __name__ == "__main__":
    raise SystemExit(main())

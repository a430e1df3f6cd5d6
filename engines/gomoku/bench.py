"""Nodes a second of the Gomoku search on fixed middle-game positions (15x15 freestyle), one
thread, a fixed time per position: `python -m engines.gomoku.bench [seconds] [--cold]`.

Each position gets a new engine whose table is written before the clock starts, as a brain
does at START (GomokuEngine.clear_table); --cold leaves the table as allocated, so that the
search pays for its first use of every page (about 0.05 s of each second here), the only way an
older revision without clear_table can be measured: compare builds under the same flag.

The positions are openings of fixed moves; the figure is total nodes over total search time,
printed with its conditions (no timing is asserted anywhere). Beside the wall-clock figure it
prints nodes per second of this process's CPU time, which other programs' load on the same
core changes much less (the search runs on the calling process's thread).
"""
from __future__ import annotations

import argparse
import os
import platform
import time

from engines.gomoku.engine import GomokuEngine

# Middle games of 14 moves with no VCF for the side to move (black): each is a 3-move opening
# continued by the engine's own genmove(depth=3), kept when a 200,000-node search proved no
# win for either side.
POSITIONS = (
    [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 8), (5, 8), (6, 7), (10, 8), (11, 9), (10, 7),
     (6, 9), (6, 4), (7, 5)],
    [(7, 7), (7, 8), (9, 7), (6, 7), (8, 8), (8, 9), (9, 10), (9, 8), (6, 6), (9, 9), (7, 9),
     (6, 10), (5, 6), (6, 11)],
    [(7, 7), (8, 7), (6, 9), (7, 6), (6, 8), (8, 6), (6, 6), (6, 7), (8, 8), (9, 9), (6, 10),
     (9, 8), (4, 4), (5, 5)],
    [(7, 7), (6, 8), (9, 9), (8, 8), (9, 7), (9, 8), (7, 8), (8, 9), (7, 6), (7, 9), (8, 7),
     (10, 7), (7, 5), (7, 4)],
)


def run_bench(seconds: float = 1.0, tt_megabytes: int = 64, cold: bool = False) -> dict:
    nodes = depth = 0
    spent = cpu = 0.0
    for moves in POSITIONS:
        engine = GomokuEngine(15, "freestyle", tt_megabytes=tt_megabytes)
        engine.setup(moves)
        warm = not cold and hasattr(engine, "clear_table")   # an older revision has none
        if warm:
            engine.clear_table()
        cpu0 = time.process_time()
        result = engine.search(seconds=seconds)
        cpu += time.process_time() - cpu0
        nodes += result["nodes"]
        spent += result["seconds"]
        depth += result["depth"]
        engine.close()
    figures = {"nodes_per_second": nodes / spent if spent else 0.0, "nodes": nodes,
               "nodes_per_cpu_second": nodes / cpu if cpu else 0.0,
               "mean_depth": depth / len(POSITIONS), "positions": len(POSITIONS),
               "table": "written before the clock" if warm else "cold (first use timed)",
               "seconds_each": seconds, "tt_megabytes": tt_megabytes,
               "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_version()}"}
    print(f"gomoku search: {figures['nodes_per_second']:,.0f} nodes/s "
          f"({figures['nodes_per_cpu_second']:,.0f} a CPU second), mean depth "
          f"{figures['mean_depth']:.1f}, {len(POSITIONS)} positions x {seconds:g} s, one thread, "
          f"{tt_megabytes} MB table {figures['table']} ({figures['machine']})")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Nodes a second of the Gomoku search on four fixed middle games (15x15 "
                    "freestyle), one thread, a fixed time each.")
    parser.add_argument("seconds", nargs="?", type=float, default=1.0,
                        help="search time per position (default 1)")
    parser.add_argument("--cold", action="store_true",
                        help="leave the table as allocated (time its first use), as an older "
                             "revision without clear_table must be measured")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error(f"seconds must be above 0, not {args.seconds:g}")
    run_bench(args.seconds, cold=args.cold)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

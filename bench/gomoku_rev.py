"""An earlier revision's Gomoku engine, built beside the working tree's, for the before/after
comparisons a core change ships with (speed, and self-play through `engines match gomoku`).

    python bench/gomoku_rev.py REV [--work DIR] [-- BRAIN OPTIONS]   # the brain's command line

It builds REV's Gomoku core with bench/engine_rev.py (REV's engines/ and plumbing/, compiled in
place: engines/gomoku/_core*.so there) and prints a command line that runs REV's brain (`env PYTHONPATH=DIR python -P -c 'from engines.cli import main; main()' gomocup
ARGS...`: REV's own `engines gomocup` with the options after --), ready for --engine or
--opponent. `python bench/gomoku_rev.py --bench REV [-- BENCH OPTIONS]` prints REV's nodes a
second instead, measured by this tree's engines/gomoku/bench.py (the same positions and
figures for both; `-- --cold` for a revision older than the bench's warm table).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine_rev  # noqa: E402


def build(rev: str, work: str) -> str:
    """REV's code with its compiled Gomoku core under WORK; returns the directory."""
    return engine_rev.build("gomoku", rev, work)


def brain_cmd(where: str, *args: str) -> str:
    return engine_rev.command("gomoku", where, *args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev")
    parser.add_argument("--work", default="/tmp/soloshop-gomoku-revs")
    parser.add_argument("--bench", action="store_true", help="REV's nodes a second")
    parser.add_argument("brain_args", nargs="*",
                        help="after --: options of REV's brain (of the bench with --bench)")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    where = build(args.rev, args.work)
    if args.bench:
        env = {**os.environ, "PYTHONPATH": where}
        bench = Path(__file__).resolve().parent.parent / "engines" / "gomoku" / "bench.py"
        return subprocess.run([sys.executable, str(bench), *args.brain_args], env=env,
                              cwd=where).returncode
    print(brain_cmd(where, *args.brain_args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

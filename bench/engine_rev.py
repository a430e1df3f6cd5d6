"""An earlier revision's engine, built beside the working tree's, for the before/after
comparisons a C-core change ships with (self-play through `engines match`, and speed).

    python bench/engine_rev.py GAME REV [--work DIR] [-- ENGINE OPTIONS]

GAME is go, gomoku or quoridor. REV's engines/ and plumbing/ are extracted with
bench/baseline.py (once per revision under --work), that revision's core for GAME is compiled
in place with its own build script, and the command line of REV's match protocol is printed
(Go: `engines gtp go`, Gomoku: `engines gomocup`, Quoridor: the line protocol), with the
options after --, ready for `engines match GAME --engine/--opponent`.
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import baseline  # noqa: E402

GAMES = ("go", "gomoku", "quoridor")
# What each game's protocol is, as Python code that REV's tree runs.
PROTOCOL = {
    "go": ["-c", "from engines.cli import main; main()", "gtp", "go"],
    "gomoku": ["-c", "from engines.cli import main; main()", "gomocup"],
    "quoridor": ["-m", "engines.quoridor.protocol"],
}


def build(game: str, rev: str, work: str) -> str:
    """REV's code with its compiled GAME core under WORK; returns the directory."""
    if game not in GAMES:
        raise SystemExit(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
    rev = baseline.short(rev)
    os.makedirs(work, exist_ok=True)
    where = os.path.join(work, f"baseline-{rev}")
    if not os.path.exists(os.path.join(where, "engines")):
        where = baseline.extract(rev, work, ["engines", "plumbing"])
    if not list(Path(where, "engines", game).glob("_core*.so")):
        # the build script's ffibuilder, compiled in REV's tree (tmpdir '.': the module lands
        # beside REV's sources, where REV's imports look for it)
        subprocess.run([sys.executable, "-c", "import os, sys; sys.path.insert(0, os.getcwd()); "
                        f"from engines.{game}.build_{game} import ffibuilder; "
                        "ffibuilder.compile(tmpdir='.')"], cwd=where, check=True,
                       stdout=subprocess.DEVNULL)
    return where


def command(game: str, where: str, *args: str) -> str:
    """REV's protocol for GAME as one command line. -P: the current directory, which may be a
    checkout of the newer tree, is not put in front of sys.path (it would shadow REV's code)."""
    return shlex.join(["env", f"PYTHONPATH={where}", sys.executable, "-P", *PROTOCOL[game], *args])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("rev")
    parser.add_argument("--work", default="/tmp/soloshop-engine-revs")
    parser.add_argument("engine_args", nargs="*", help="after --: options of REV's protocol")
    args = parser.parse_args()
    print(command(args.game, build(args.game, args.rev, args.work), *args.engine_args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

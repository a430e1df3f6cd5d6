"""An earlier revision of the Quoridor engine, built beside the working tree's, for a match
against the previous build (the before-stop rule of a C-core change) and speed before/after.

    python bench/quoridor_baseline.py REV [WORKDIR]

Builds REV's Quoridor core with bench/engine_rev.py (REV's engines/ and plumbing/, its own
build_quoridor.py) and prints the command line of its line protocol, e.g.
for `engines match quoridor --opponent "$(python bench/quoridor_baseline.py main)"`.
"""
from __future__ import annotations

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_rev  # noqa: E402


def build(rev: str, work: str) -> str:
    """REV's tree under WORK with its Quoridor core compiled; returns the directory."""
    return engine_rev.build("quoridor", rev, work)


def command(where: str, *args: str) -> str:
    """The line protocol of the build in WHERE as one command line."""
    return engine_rev.command("quoridor", where, *args)


if __name__ == "__main__":
    rev = sys.argv[1] if len(sys.argv) > 1 else "main"
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="quoridor-")
    print(command(build(rev, work)))

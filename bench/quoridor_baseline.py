"""An earlier revision of the Quoridor engine, built beside the working tree's, for a match
against the previous build (the before-stop rule of a C-core change) and speed before/after.

    python bench/quoridor_baseline.py REV [WORKDIR]

Extracts REV's engines/ and plumbing/ with bench/baseline.py, compiles its Quoridor core in
place (its own build_quoridor.py) and prints the command line of its line protocol, e.g.
for `engines match quoridor --opponent "$(python bench/quoridor_baseline.py main)"`.
"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import baseline  # noqa: E402


def build(rev: str, work: str) -> str:
    """REV's tree under WORK with its Quoridor core compiled; returns the directory."""
    where = baseline.extract(rev, work, ["engines", "plumbing"])
    subprocess.run([sys.executable, "-c", "import os, sys; sys.path.insert(0, os.getcwd()); "
                    "from engines.quoridor.build_quoridor import ffibuilder; "
                    "ffibuilder.compile(tmpdir='.')"], cwd=where, check=True,
                   stdout=subprocess.DEVNULL)
    return where


def command(where: str, *args: str) -> str:
    """The line protocol of the build in WHERE as one command line (-P: the working
    directory, which may hold the newer tree, is not put on the path)."""
    return shlex.join(["env", f"PYTHONPATH={where}", sys.executable, "-P", "-m",
                       "engines.quoridor.protocol", *args])


if __name__ == "__main__":
    rev = baseline.short(sys.argv[1] if len(sys.argv) > 1 else "main")
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="quoridor-")
    print(command(build(rev, work)))

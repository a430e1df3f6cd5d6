"""An earlier revision's code beside the working tree's, so a benchmark can time both in one
run: `git archive REV PATHS` into a directory of its own, byte-compiled so neither side pays
for compiling source. Run the old code with that directory first on PYTHONPATH."""
from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def extract(rev: str, work: str, paths: list[str]) -> str:
    """REV's PATHS (those REV has) under WORK/baseline-REV; returns that directory."""
    where = os.path.join(work, f"baseline-{rev}")
    os.makedirs(where)
    present = [p for p in paths if subprocess.run(
        ["git", "-C", ROOT, "cat-file", "-e", f"{rev}:{p}"], capture_output=True).returncode == 0]
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev, *present], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", where], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", where], check=True,
                   stdout=subprocess.DEVNULL)
    return where


def short(rev: str) -> str:
    """REV as a short commit id."""
    return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", rev], capture_output=True,
                          text=True, check=True).stdout.strip()

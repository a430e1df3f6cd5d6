"""Engine command lines: templates with placeholders, and the `engines` command of this venv."""
from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path


def build_argv(template: str, **values) -> list[str]:
    """Split a command line first, then fill placeholders per argument (no shell involved)."""
    return [part.format(**values) for part in shlex.split(template)]


def engines_command(*args: str) -> str:
    """`engines ARGS` as a command line, with the `engines` beside this Python when there is one
    (a venv's), else the one on PATH."""
    local = Path(sys.executable).with_name("engines")
    program = str(local) if local.exists() else (shutil.which("engines") or "engines")
    return shlex.join([program, *args])

"""Module-level task functions for the RayPool tests: workers import them by name."""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path


def shell_square(item: int) -> int:
    """A short subprocess per item: the shell computes item*item + 1."""
    out = subprocess.run(["/bin/sh", "-c", f"echo $(({item} * {item} + 1))"],
                         capture_output=True, text=True, check=True).stdout
    return int(out)


def _attempt(directory: str, item: int) -> int:
    """Append this process's pid to the item's attempts file; return which attempt this is."""
    path = Path(directory) / f"attempts-{item}"
    with path.open("a") as f:
        f.write(f"{os.getpid()}\n")
    return len(path.read_text().split())


def wait_for_flag(arg: tuple[str, int, int]) -> int:
    """Item VICTIM's first attempt waits (up to 30 s) for the flag file; others return at once."""
    directory, item, victim = arg
    attempt = _attempt(directory, item)
    if item == victim and attempt == 1:
        deadline = time.monotonic() + 30
        while not (Path(directory) / "flag").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    return item * 10


def fail_on(arg: tuple[str, int, int]) -> int:
    """Raise ValueError for item BAD (an application error); square the others."""
    directory, item, bad = arg
    _attempt(directory, item)
    if item == bad:
        raise ValueError(f"boom on item {item}")
    return item * item

"""The tracker's one exclusive lock: fcntl.flock on a file in the tracker's .git dir.

The kernel drops a flock when its process dies, so a killed pm never leaves a lock that
blocks the next one. Waits are bounded; the timeout message names the holder, which each
holder writes into the lock file.
"""
from __future__ import annotations

import fcntl
import os
import time
from contextlib import contextmanager

from pm.errors import LockTimeout


@contextmanager
def locked(path: str, holder: str, timeout: float):
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout
        delay = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockTimeout(
                        f"tracker lock {path} still held after {timeout:g}s by {_holder(fd)}; "
                        "wait for it to finish, or raise PM_LOCK_TIMEOUT") from None
                time.sleep(delay)
                delay = min(delay * 2, 0.02)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} {holder}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # closing releases the flock


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode(errors="replace").strip()
    except OSError:
        text = ""
    return text or "an unknown process"

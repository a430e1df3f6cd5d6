"""An exclusive lock on a file: fcntl.flock, a bounded wait, and the holder named on timeout.

The kernel drops a flock when its process dies, so a killed holder never leaves a lock that
blocks the next one. Each holder writes who it is into the lock file, so a waiter that gives
up can say who held it.

flock picks the next holder at random, so with 32 writers one of them could wait far longer
than the rest. A waiter that has waited PATIENCE seconds takes the "turnstile" (a second
flock); while someone holds it, waiters that have not waited that long stand back, so the
longest waiters go next and a wait stays close to (queue length x hold time).
"""
from __future__ import annotations

import fcntl
import os
import time
from contextlib import contextmanager
from typing import Iterator

from plumbing.errors import NamedError

PATIENCE = 1.0


class LockTimeout(NamedError):
    """The lock stayed held longer than the bounded wait."""


@contextmanager
def locked(path: str | os.PathLike, *, holder: str, timeout: float, what: str = "lock",
           fix: str = "wait for it to finish and try again") -> Iterator[None]:
    """Hold an exclusive lock on PATH (created if missing) for the block.

    HOLDER says who takes it (written into the file); after TIMEOUT seconds of waiting,
    LockTimeout names WHAT, PATH, the current holder and FIX."""
    path = os.fspath(path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    turnstile = -1
    try:
        start = time.monotonic()
        delay = 0.001
        while True:
            waited = time.monotonic() - start
            if turnstile < 0 and waited >= PATIENCE:
                turnstile = os.open(path + ".turnstile", os.O_RDWR | os.O_CREAT, 0o644)
                if not _try(turnstile, fcntl.LOCK_EX):
                    os.close(turnstile)
                    turnstile = -1
            # Without the turnstile, go for the lock only while no long waiter holds it.
            if (turnstile >= 0 or _turnstile_free(path)) and _try(fd, fcntl.LOCK_EX):
                break
            if waited >= timeout:
                raise LockTimeout(f"{what} {path} still held after {timeout:g}s by "
                                  f"{_holder(fd)}; {fix}")
            time.sleep(delay)
            delay = min(delay * 2, 0.02)
        if turnstile >= 0:
            os.close(turnstile)
            turnstile = -1
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} {holder}\n".encode(), 0)
        yield
    finally:
        if turnstile >= 0:
            os.close(turnstile)
        os.close(fd)  # closing releases the flock


def _try(fd: int, mode: int) -> bool:
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _turnstile_free(path: str) -> bool:
    try:
        fd = os.open(path + ".turnstile", os.O_RDONLY)
    except FileNotFoundError:
        return True
    try:
        return _try(fd, fcntl.LOCK_SH)  # closing the fd below drops the shared lock again
    finally:
        os.close(fd)


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode(errors="replace").strip()
    except OSError:
        text = ""
    return text or "an unknown process"

"""plumbing.lock: exclusive across real processes, bounded waits that name the holder."""
import os
import subprocess
import sys
import time

import pytest

from plumbing.lock import LockTimeout, locked

HOLD = r"""
import sys, time
from plumbing.lock import locked
with locked(sys.argv[1], holder="session eng-7", timeout=5):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""

COUNT = r"""
import sys
from plumbing.lock import locked
path = sys.argv[1]
for _ in range(int(sys.argv[2])):
    with locked(path + ".lock", holder="counter", timeout=60):
        with open(path) as fh:
            n = int(fh.read())
        with open(path, "w") as fh:
            fh.write(str(n + 1))
"""


def _env():
    return {**os.environ, "PYTHONPATH": os.getcwd()}


def test_a_timeout_names_the_lock_the_holder_and_the_fix(tmp_path):
    path = tmp_path / "x.lock"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path), "5"], env=_env(),
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(LockTimeout) as err:
            with locked(path, holder="me", timeout=0.3, what="tracker lock", fix="raise PM_LOCK_TIMEOUT"):
                pass
        message = str(err.value)
        assert f"tracker lock {path} still held after 0.3s" in message
        assert f"pid {holder.pid} session eng-7" in message and message.endswith("raise PM_LOCK_TIMEOUT")
    finally:
        holder.kill()
        holder.wait()


def test_a_killed_holder_never_blocks_the_next(tmp_path):
    path = tmp_path / "x.lock"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path), "60"], env=_env(),
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    holder.kill()
    holder.wait()
    start = time.monotonic()
    with locked(path, holder="next", timeout=2):
        assert f"pid {os.getpid()} next" in path.read_text()
    assert time.monotonic() - start < 2


def test_many_processes_are_mutually_exclusive(tmp_path):
    counter = tmp_path / "n"
    counter.write_text("0")
    procs = [subprocess.Popen([sys.executable, "-c", COUNT, str(counter), "40"], env=_env())
             for _ in range(8)]
    assert [p.wait() for p in procs] == [0] * 8
    assert counter.read_text() == str(8 * 40)

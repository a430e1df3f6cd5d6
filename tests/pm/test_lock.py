"""The tracker lock (plumbing.lock under .git/pm/lock): bounded waits that name the holder,
and long waiters going first. Deterministic: the lock is held by another open file
description or by a process that says when it holds it, never by a sleep of the right length."""
import fcntl
import os
import subprocess
import sys
import threading

import pytest

from plumbing.lock import LockTimeout as LockWaitTimeout
from plumbing.lock import locked
from pm.errors import LockTimeout, PmError
from tests.pm.conftest import pm_env


def test_timeout_names_the_holder(tmp_path):
    path = str(tmp_path / "lock")
    with locked(path, holder="ceo/boss pm promote", timeout=5):
        with pytest.raises(LockWaitTimeout, match=r"still held after 0.2s by pid \d+ ceo/boss pm promote"):
            with locked(path, holder="worker/w", timeout=0.2):
                pass


def test_a_tracker_change_waiting_too_long_is_pm_lock_timeout(tracker_dir, tracker):
    code = ("import time\nfrom pm.tracker import Tracker\nt = Tracker.find()\n"
            "with t.unit_of_work():\n    print('held', flush=True)\n    time.sleep(60)\n")
    holder = subprocess.Popen([sys.executable, "-c", code], env=pm_env(tracker_dir, session="slow"),
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        tracker.lock_timeout = 0.2
        with pytest.raises(LockTimeout) as err:
            tracker.new("must wait")
        assert isinstance(err.value, PmError)
        assert f"tracker lock {tracker_dir}/.git/pm/lock still held after 0.2s by pid {holder.pid} " \
               "worker/slow" in str(err.value)
        assert str(err.value).endswith("wait for it to finish, or raise PM_LOCK_TIMEOUT")
    finally:
        holder.kill()
        holder.wait()
    assert [t.title for t in tracker.all()] == []


def test_a_long_waiter_goes_before_later_arrivals(tmp_path):
    """A waiter holding the turnstile (it has waited past PATIENCE) gets the lock before
    waiters that arrived later, even though flock itself would pick at random."""
    path = str(tmp_path / "lock")
    order, started = [], threading.Barrier(5)
    holder = os.open(path, os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)  # the current holder
    order.append("holder")
    turnstile = os.open(path + ".turnstile", os.O_RDWR | os.O_CREAT)
    fcntl.flock(turnstile, fcntl.LOCK_EX)  # "first", the long waiter, stands at the turnstile

    def late(name):
        started.wait(10)
        with locked(path, holder=name, timeout=20):
            order.append(name)

    threads = [threading.Thread(target=late, args=(f"late{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    started.wait(10)
    os.close(holder)  # the holder leaves; the later arrivals stand back for the turnstile
    first = os.open(path, os.O_RDWR)
    fcntl.flock(first, fcntl.LOCK_EX)  # blocks only if a late arrival jumped the queue
    order.append("first")
    os.close(turnstile)
    os.close(first)
    for t in threads:
        t.join(20)
    assert order[:2] == ["holder", "first"]
    assert sorted(order[2:]) == [f"late{i}" for i in range(4)]

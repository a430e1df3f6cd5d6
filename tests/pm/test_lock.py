"""The tracker lock: bounded waits that name the holder, and long waiters going first."""
import threading
import time

import pytest

from pm.errors import LockTimeout
from pm.lock import PATIENCE, locked


def test_timeout_names_the_holder(tmp_path):
    path = str(tmp_path / "lock")
    with locked(path, "ceo/boss pm promote", 5):
        with pytest.raises(LockTimeout, match=r"still held after 0.2s by pid \d+ ceo/boss pm promote"):
            with locked(path, "worker/w", 0.2):
                pass


def test_a_long_waiter_goes_before_later_arrivals(tmp_path):
    path = str(tmp_path / "lock")
    order, release = [], threading.Event()

    def holder():
        with locked(path, "holder", 10):
            order.append("holder")
            release.wait(10)

    def waiter(name):
        with locked(path, name, 20):
            order.append(name)
            time.sleep(0.05)

    threads = [threading.Thread(target=holder)]
    threads[0].start()
    time.sleep(0.1)
    threads.append(threading.Thread(target=waiter, args=("first",)))
    threads[1].start()
    time.sleep(PATIENCE + 0.3)  # "first" has waited past PATIENCE and holds the turnstile
    for i in range(4):
        threads.append(threading.Thread(target=waiter, args=(f"late{i}",)))
        threads[-1].start()
    time.sleep(0.3)
    release.set()
    for t in threads:
        t.join(20)
    assert order[:2] == ["holder", "first"]
    assert sorted(order[2:]) == [f"late{i}" for i in range(4)]

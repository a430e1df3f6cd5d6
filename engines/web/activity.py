"""How many engines are open right now, across requests (reported by /healthz).

Every request opens its own engine and closes it before its answer ends, so this count returns
to zero when the server is idle: a quick check that no search outlives its request.
"""
from __future__ import annotations

import threading

_lock = threading.Lock()
_open = 0


def opened() -> None:
    global _open
    with _lock:
        _open += 1


def closed() -> None:
    global _open
    with _lock:
        _open -= 1


def open_engines() -> int:
    with _lock:
        return _open

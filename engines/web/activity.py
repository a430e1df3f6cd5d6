"""How many engines are open right now, across requests (reported by /healthz).

Every request opens its own engine and closes it before its answer ends, so this count returns
to zero when the server is idle: a quick check that no search outlives its request.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager

_changed = threading.Condition()
_open = 0


def opened() -> None:
    global _open
    with _changed:
        _open += 1
        _changed.notify_all()


def closed() -> None:
    global _open
    with _changed:
        _open -= 1
        _changed.notify_all()


def open_engines() -> int:
    with _changed:
        return _open


def wait_until_idle(timeout: float) -> bool:
    """Block until no engine is open in this process (True), or TIMEOUT seconds pass (False).

    Woken by every open and close, so it returns as soon as the last engine closes."""
    with _changed:
        return _changed.wait_for(lambda: _open == 0, timeout=timeout)


@contextmanager
def engine_scope(engine):
    """Count `engine` as open while the block runs and close it on every exit path (an engine
    without `close`, such as QuoridorEngine, frees its C memory when collected)."""
    opened()
    try:
        yield engine
    finally:
        close = getattr(engine, "close", None)
        if close is not None:
            close()
        closed()

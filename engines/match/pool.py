"""Where a match's games run: a pool that maps a game function over picklable game tasks.

The interface every backend offers (the local one here, `engines.match.cluster.RayPool` for a
Ray cluster):

    pool.run(fn, items) -> iterator of (item, result), unordered, as each game completes
    pool.conditions()   -> where the games run, for the results' conditions
    pool.close()        -> cancel what has not started (and stop what is running)

`fn` is a module-level function taking one picklable item (an adapter's settings and a game
spec) and returning a picklable `GameResult`; an exception of `fn` propagates from the
iterator. A game that noticed the pool closing raises `Cancelled`, and is not yielded.

`LocalPool` runs games in threads: a game is two engine subprocesses and a referee
subprocess, the Python side only waits on pipes. `stopping()` tells a game running in a
LocalPool's thread that the pool was closed, so it gives up between moves (and while waiting
for an answer) instead of playing on after a Ctrl-C or a decided SPRT.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Callable, Iterable, Iterator

from plumbing.errors import NamedError

_current = threading.local()


class Cancelled(Exception):
    """A game stopped because its pool was closed; it has no result."""


class PoolError(NamedError):
    """A pool cannot be made (an unknown backend, a backend that is not installed)."""


def stopping() -> bool:
    """True in a game running in a LocalPool that has been closed."""
    event = getattr(_current, "stop", None)
    return event is not None and event.is_set()


class LocalPool:
    """Up to CONCURRENCY games at a time in threads of this process."""

    def __init__(self, concurrency: int):
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.concurrency = concurrency
        self._stop = threading.Event()
        self._executor = ThreadPoolExecutor(max_workers=concurrency,
                                            thread_name_prefix="match-game")
        self._futures: set[Future] = set()

    def _call(self, fn: Callable[[Any], Any], item: Any) -> Any:
        _current.stop = self._stop
        try:
            if self._stop.is_set():
                raise Cancelled("the pool was closed before the game started")
            return fn(item)
        finally:
            _current.stop = None

    def run(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[tuple[Any, Any]]:
        """Submit every item now; iterate to get (item, result) as games complete."""
        pending = {}
        for item in items:
            future = self._executor.submit(self._call, fn, item)
            pending[future] = item
            self._futures.add(future)
        return self._completed(pending)

    def _completed(self, pending: dict) -> Iterator[tuple[Any, Any]]:
        while pending:
            for future in [f for f in pending if f.cancelled()]:  # never started: no result
                del pending[future]
                self._futures.discard(future)
            if not pending:
                break
            done, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in done:
                item = pending.pop(future)
                self._futures.discard(future)
                if future.cancelled():
                    continue
                try:
                    result = future.result()
                except Cancelled:
                    continue
                yield item, result

    def conditions(self) -> dict:
        """For results.json: where the games ran."""
        return {"pool": "local", "concurrency": self.concurrency}

    def close(self) -> None:
        """Cancel the games not started, tell the running ones to stop, wait for them."""
        self._stop.set()
        for future in list(self._futures):
            future.cancel()
        self._executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def free_cores() -> int:
    """The cores this process may use, less the load already on them (at least 1)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, cores - round(os.getloadavg()[0]))


def default_concurrency(threads_per_game: int = 1) -> int:
    """Free cores divided by the threads a game's engines use at once (at least 1)."""
    return max(1, free_cores() // max(1, threads_per_game))


def make_pool(concurrency: int, cluster: str | None = None, *, threads_per_game: int = 1,
              commands: list[str] = ()):
    """The pool for a match: a LocalPool of CONCURRENCY games, or, given CLUSTER (a Ray
    address, or "local" for a cluster on this machine), the Ray backend, which schedules a
    game per THREADS_PER_GAME CPUs and first checks that every node has COMMANDS' programs.

    engines.match.cluster is imported only then, so that Ray stays an optional dependency."""
    if not cluster:
        return LocalPool(concurrency)
    try:
        from engines.match import cluster as ray_cluster  # noqa: PLC0415 - optional backend
    except ImportError as error:
        raise PoolError(f"Ray is not installed: pip install 'soloshop[cluster]' ({error})") from None
    pool = ray_cluster.RayPool(address=cluster, num_cpus_per_game=threads_per_game)
    try:
        pool.check_nodes(list(commands))
    except BaseException:
        pool.close()
        raise
    return pool

"""The match loop, for any game: GAMES games, JOBS at a time, game i with seed SEED+i and the
candidate moving first in the even games, a progress line per game, results.json at the end.

Ctrl-C stops after the games in progress (their results are kept); an error of the adapter's
`fatal` kind stops the match as MatchStopped, which names it.
"""
from __future__ import annotations

import platform
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from engines.match.adapter import GameAdapter
from engines.match.results import (GameResult, machine, progress_line, summarize,
                                   write_results)
from plumbing.errors import NamedError


class MatchStopped(NamedError):
    """A player or the referee failed in a way no further game can get around."""


@dataclass
class Schedule:
    games: int
    base_seed: int = 1
    jobs: int = 1


@dataclass
class MatchOutcome:
    results: list[GameResult]
    summary: dict
    path: Path  # the results file
    complete: bool = field(default=True)  # False when interrupted before the last game


def run_match(adapter: GameAdapter, schedule: Schedule, out: Path,
              log: TextIO = sys.stdout) -> MatchOutcome:
    """Play the SCHEDULE with ADAPTER, print progress to LOG, write OUT/results.json."""
    started = time.monotonic()
    results = _play_all(adapter, schedule, log)
    conditions = {
        **adapter.conditions(),
        "seeds": f"{schedule.base_seed}..{schedule.base_seed + schedule.games - 1}",
        "jobs": schedule.jobs, "machine": machine(), "python": platform.python_version(),
        "wall_seconds": round(time.monotonic() - started, 1),
    }
    summary = summarize(results, conditions, adapter.limit)
    path = write_results(out, summary, results)
    return MatchOutcome(results, summary, path, complete=len(results) == schedule.games)


def _play_all(adapter: GameAdapter, schedule: Schedule, log: TextIO) -> list[GameResult]:
    stop = threading.Event()
    results: list[GameResult] = []
    pool = ThreadPoolExecutor(max_workers=schedule.jobs)
    futures = [pool.submit(adapter.play_game, i, schedule.base_seed + i, i % 2 == 0, stop)
               for i in range(schedule.games)]
    try:
        for future in as_completed(futures):
            results.append(future.result())
            wins = sum(r.points for r in results)
            print(progress_line(results[-1], len(results), schedule.games, wins), file=log,
                  flush=True)
    except KeyboardInterrupt:
        stop.set()
        print("interrupted: stopping after the games in progress", file=sys.stderr)
    except adapter.fatal as error:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
        raise MatchStopped(f"the match stopped: {error}") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return sorted(results, key=lambda r: r.index)

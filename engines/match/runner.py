"""The match loop, for any game.

Games come in pairs: pair p plays opening p twice, the candidate moving first in game 2p and
second in game 2p+1; game i has seed SEED+i. Each game is a picklable task (the adapter's
settings and a `GameSpec`) run by a pool (`engines.match.pool`: local threads, or the Ray
backend) through the adapter module's `play_one`. As a game ends it is appended to the journal
(OUT/journal.jsonl), the progress line and OUT/report.html are updated, and the SPRT (if any)
is asked whether it has decided: if so, the match stops there. OUT/results.json is written at
the end.

Resume: a journal already in OUT with the same options means those games are played; only
the missing indices are scheduled (see `engines.match.journal`).

Ctrl-C (or SIGTERM, which the CLI turns into one) stops the games in progress, which are not
journaled and will be played again on resume; an error of the adapter's `fatal` kind stops the
match as MatchStopped, which names it.
"""
from __future__ import annotations

import functools
import platform
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TextIO

from engines.match import report
from engines.match.adapter import GameAdapter, GameSpec
from engines.match.journal import Journal
from engines.match.pool import LocalPool, stopping
from engines.match.progress import Progress
from engines.match.results import (GameResult, format_sprt, machine, pair_points, summarize,
                                   write_results)
from plumbing.errors import NamedError
from plumbing.files import atomic_write

REPORT = "report.html"


class MatchStopped(NamedError):
    """A player or the referee failed in a way no further game can get around."""


@dataclass
class Schedule:
    games: int  # the cap
    base_seed: int = 1
    jobs: int = 1  # games at a time (--concurrency)
    sprt: object | None = None  # an engines.match.sprt.Sprt


@dataclass
class MatchOutcome:
    results: list[GameResult]
    summary: dict
    path: Path  # the results file
    complete: bool = field(default=True)  # False when interrupted before the end
    decision: str | None = None  # the SPRT's, when it decided
    resumed: int = 0  # games found in the journal


def specs(schedule: Schedule, openings: list | None) -> list[GameSpec]:
    """Every game of the schedule: pairs of one opening with colours swapped."""
    out = []
    for index in range(schedule.games):
        pair = index // 2
        opening = openings[pair % len(openings)] if openings else None
        out.append(GameSpec(index, pair, opening, "b" if index % 2 == 0 else "w",
                            schedule.base_seed + index))
    return out


def run_match(adapter: GameAdapter, schedule: Schedule, out: Path, log: TextIO = sys.stdout,
              pool=None) -> MatchOutcome:
    """Play the SCHEDULE with ADAPTER (resuming OUT's journal), progress to LOG, write
    OUT/results.json and OUT/report.html; POOL defaults to a LocalPool of schedule.jobs."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    pairs = (schedule.games + 1) // 2
    openings = adapter.openings(pairs, schedule.base_seed) if hasattr(adapter, "openings") \
        else None
    sprt = schedule.sprt
    options = {**(adapter.options() if hasattr(adapter, "options") else {}),
               "seed": schedule.base_seed,
               "sprt": sprt.describe() if sprt else None}
    journal = Journal(out)
    done = [GameResult.from_json(entry) for entry in
            journal.open(getattr(adapter, "game", type(adapter).__name__), options)]
    done = [r for r in done if r.index < schedule.games]
    results = list(done)
    conditions = {**adapter.conditions(),
                  "seeds": f"{schedule.base_seed}..{schedule.base_seed + schedule.games - 1}",
                  "jobs": schedule.jobs, "machine": machine(),
                  "python": platform.python_version(),
                  "openings_count": len(openings) if openings else 0,
                  "sprt": sprt.describe() if sprt else None}
    progress = Progress(log, schedule.games, sprt)
    timeline: list[dict] = []
    for k in range(1, len(results) + 1):
        timeline.append(_point(results[:k], sprt))
    state = _sprt_state(sprt, timeline[-1]) if sprt and timeline else None
    decision = state["decision"] if state else None
    if done:
        print(f"resuming {journal.path}: {len(done)} game(s) played"
              + (f", the SPRT has decided ({decision})" if decision else ""), file=sys.stderr)

    played = {r.index for r in results}
    todo = [spec for spec in specs(schedule, openings) if spec.index not in played]
    interrupted = False
    if todo and not decision:
        settings = getattr(adapter, "settings", None)
        if hasattr(adapter, "play_one"):
            fn = adapter.play_one
        else:  # an adapter object that plays in-process (tests): threads only
            fn = functools.partial(_play_in_process, adapter)
        pool = pool or LocalPool(min(schedule.jobs, len(todo)))
        conditions["pool"] = pool.conditions()
        try:
            for (_, spec), result in pool.run(fn, [(settings, spec) for spec in todo]):
                result.pair, result.index, result.seed = spec.pair, spec.index, spec.seed
                if spec.opening is not None and not result.opening:
                    result.opening = getattr(spec.opening, "id", str(spec.opening))
                journal.append(asdict(result))
                results.append(result)
                timeline.append(_point(results, sprt))
                state = _sprt_state(sprt, timeline[-1]) if sprt else None
                progress.game(result, len(results), sum(r.points for r in results),
                              timeline[-1])
                _write_report(out, results, conditions, adapter, state, timeline)
                if state and state["decision"]:
                    decision = state["decision"]
                    progress.message(f"SPRT decided after {len(results)} games: "
                                     f"{format_sprt(state)}")
                    break
        except KeyboardInterrupt:
            interrupted = True
            progress.end()
            print("interrupted: the games in progress are dropped (a rerun with the same "
                  "options resumes)", file=sys.stderr)
        except adapter.fatal as error:
            progress.end()
            pool.close()
            raise MatchStopped(f"the match stopped: {error}") from None
        finally:
            pool.close()
    if pool is not None:
        pool.close()
    progress.end()
    conditions["wall_seconds"] = round(time.monotonic() - started, 1)
    results.sort(key=lambda r: r.index)
    summary = summarize(results, conditions, adapter.limit, state)
    path = write_results(out, summary, results)
    _write_report(out, results, conditions, adapter, state, timeline, summary)
    complete = not interrupted and (bool(decision) or len(results) == schedule.games)
    return MatchOutcome(results, summary, path, complete, decision, len(done))


def _point(results: list[GameResult], sprt) -> dict:
    return report.timeline_point([r.points for r in results], pair_points(results) or None,
                                 sprt)


def _sprt_state(sprt, point: dict) -> dict:
    llr = point["llr"]
    return {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta,
            "lower": sprt.lower, "upper": sprt.upper, "llr": llr,
            "decision": sprt.decide(llr) if llr is not None else None,
            "games": point["games"],
            "text": ""} | ({"text": format_sprt({"elo0": sprt.elo0, "elo1": sprt.elo1,
                                                  "alpha": sprt.alpha, "beta": sprt.beta,
                                                  "lower": sprt.lower, "upper": sprt.upper,
                                                  "llr": llr, "decision": sprt.decide(llr)})}
                            if llr is not None else {})


def _write_report(out: Path, results, conditions, adapter, state, timeline,
                  summary: dict | None = None) -> None:
    summary = summary or summarize(sorted(results, key=lambda r: r.index), conditions,
                                   adapter.limit, state)
    title = f"{conditions.get('candidate', 'candidate')} vs {conditions.get('opponent', '')}"
    atomic_write(out / REPORT, report.render_html(summary, timeline, title), durable=False)


class _StopFlag:
    """The old adapters' stop event, backed by the pool's `stopping`."""

    @staticmethod
    def is_set() -> bool:
        return stopping()


def _play_in_process(adapter, task) -> GameResult:
    _, spec = task
    return adapter.play_game(spec.index, spec.seed, spec.candidate_color == "b", _StopFlag())

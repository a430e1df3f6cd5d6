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
    match = _Match(adapter, schedule, Path(out), log)
    todo = match.resume()
    interrupted = False
    if todo and not match.decision:
        pool = pool or LocalPool(min(schedule.jobs, len(todo)))
        try:
            interrupted = match.play(pool, todo)
        finally:
            pool.close()
    elif pool is not None:
        pool.close()
    return match.finish(interrupted)


class _Match:
    """One run of a match: what the journal already holds, the games as they end, the files."""

    def __init__(self, adapter: GameAdapter, schedule: Schedule, out: Path, log: TextIO):
        self.adapter, self.schedule, self.out, self.sprt = adapter, schedule, out, schedule.sprt
        out.mkdir(parents=True, exist_ok=True)
        self.started = time.monotonic()
        self.openings = adapter.openings((schedule.games + 1) // 2, schedule.base_seed) \
            if hasattr(adapter, "openings") else None
        self.journal = Journal(out)
        self.progress = Progress(log, schedule.games, self.sprt)
        self.results: list[GameResult] = []
        self.timeline: list[dict] = []
        self.state: dict | None = None  # the SPRT's, after the last game
        self.resumed = 0
        self.conditions = {
            **adapter.conditions(),
            "seeds": f"{schedule.base_seed}..{schedule.base_seed + schedule.games - 1}",
            "jobs": schedule.jobs, "machine": machine(), "python": platform.python_version(),
            "openings_count": len(self.openings) if self.openings else 0,
            "sprt": self.sprt.describe() if self.sprt else None}

    @property
    def decision(self) -> str | None:
        return self.state["decision"] if self.state else None

    def resume(self) -> list[GameSpec]:
        """Take the journal's games (same options, or a named refusal); the games still to play."""
        options = {**(self.adapter.options() if hasattr(self.adapter, "options") else {}),
                   "seed": self.schedule.base_seed,
                   "sprt": self.sprt.describe() if self.sprt else None}
        game = getattr(self.adapter, "game", type(self.adapter).__name__)
        for entry in self.journal.open(game, options):
            result = GameResult.from_json(entry)
            if result.index < self.schedule.games:
                self._add(result)
        self.resumed = len(self.results)
        if self.resumed:
            decided = f", the SPRT has decided ({self.decision})" if self.decision else ""
            print(f"resuming {self.journal.path}: {self.resumed} game(s) played{decided}",
                  file=sys.stderr)
        played = {r.index for r in self.results}
        return [spec for spec in specs(self.schedule, self.openings) if spec.index not in played]

    def play(self, pool, todo: list[GameSpec]) -> bool:
        """Play TODO in POOL until done or the SPRT decides; True when interrupted."""
        adapter = self.adapter
        settings = getattr(adapter, "settings", None)
        # An adapter object that plays in-process (tests) runs in threads only.
        fn = adapter.play_one if hasattr(adapter, "play_one") else \
            functools.partial(_play_in_process, adapter)
        self.conditions["pool"] = pool.conditions()
        try:
            for (_, spec), result in pool.run(fn, [(settings, spec) for spec in todo]):
                self._game_ended(spec, result)
                if self.decision:
                    self.progress.message(f"SPRT decided after {len(self.results)} games: "
                                          f"{format_sprt(self.state)}")
                    return False
        except KeyboardInterrupt:
            self.progress.end()
            print("interrupted: the games in progress are dropped (a rerun with the same "
                  "options resumes)", file=sys.stderr)
            return True
        except adapter.fatal as error:
            self.progress.end()
            raise MatchStopped(f"the match stopped: {error}") from None
        return False

    def _game_ended(self, spec: GameSpec, result: GameResult) -> None:
        result.pair, result.index, result.seed = spec.pair, spec.index, spec.seed
        if spec.opening is not None and not result.opening:
            result.opening = getattr(spec.opening, "id", str(spec.opening))
        self.journal.append(asdict(result))
        self._add(result)
        self.progress.game(result, len(self.results), sum(r.points for r in self.results),
                           self.timeline[-1])
        _write_report(self.out, self.results, self.conditions, self.adapter, self.state,
                      self.timeline)

    def _add(self, result: GameResult) -> None:
        self.results.append(result)
        self.timeline.append(_point(self.results, self.sprt))
        self.state = _sprt_state(self.sprt, self.timeline[-1]) if self.sprt else None

    def finish(self, interrupted: bool) -> MatchOutcome:
        """results.json and the final report; the outcome."""
        self.progress.end()
        self.conditions["wall_seconds"] = round(time.monotonic() - self.started, 1)
        results = sorted(self.results, key=lambda r: r.index)
        summary = summarize(results, self.conditions, self.adapter.limit, self.state)
        path = write_results(self.out, summary, results)
        _write_report(self.out, results, self.conditions, self.adapter, self.state,
                      self.timeline, summary)
        complete = not interrupted and (bool(self.decision)
                                        or len(results) == self.schedule.games)
        return MatchOutcome(results, summary, path, complete, self.decision, self.resumed)


def _point(results: list[GameResult], sprt) -> dict:
    return report.timeline_point([r.points for r in results], pair_points(results) or None,
                                 sprt)


def _sprt_state(sprt, point: dict) -> dict:
    """The SPRT's bounds, LLR and decision after the games of POINT, with its text."""
    llr = point["llr"]
    state = {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta,
             "lower": sprt.lower, "upper": sprt.upper, "llr": llr,
             "decision": sprt.decide(llr) if llr is not None else None,
             "games": point["games"], "text": ""}
    if llr is not None:
        state["text"] = format_sprt(state)
    return state


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

"""The live progress of a match: games done of the cap, score, Elo and interval, the LLR.

On a terminal it is one line rewritten in place after every game; anywhere else (a pipe, a
file, a CI log) it is one line per game, starting with the game's own line
(`results.progress_line`) and ending with the running figures.
"""
from __future__ import annotations

from typing import TextIO

from engines.match.results import GameResult, format_elo, progress_line


def figures(point: dict, sprt) -> str:
    """"Elo +120 [+30, +210]  LLR 1.23 [-2.94, 2.94]" from a report timeline point."""
    elo = format_elo({"estimate": point["elo"], "low": point["low"], "high": point["high"]})
    if sprt is None or point.get("llr") is None:
        return elo
    return f"{elo}  LLR {point['llr']:.2f} [{sprt.lower:.2f}, {sprt.upper:.2f}]"


class Progress:
    def __init__(self, log: TextIO, total: int, sprt=None):
        self.log = log
        self.total = total
        self.sprt = sprt
        isatty = getattr(log, "isatty", None)
        self.tty = bool(isatty and isatty())
        self._open_line = False

    def game(self, result: GameResult, done: int, points: float, point: dict) -> None:
        if self.tty:
            outcome = {1.0: "win", 0.5: "draw", 0.0: "loss"}[result.points]
            line = (f"{done}/{self.total} games  score {points:g}/{done}  "
                    f"{figures(point, self.sprt)}  (last: game {result.index + 1} "
                    f"{result.result} {outcome})")
            self.log.write("\r\x1b[K" + line)
            self._open_line = True
        else:
            self.log.write(f"{progress_line(result, done, self.total, points)}  "
                           f"{figures(point, self.sprt)}\n")
        self.log.flush()

    def message(self, text: str) -> None:
        self.end()
        self.log.write(text + "\n")
        self.log.flush()

    def end(self) -> None:
        if self._open_line:
            self.log.write("\n")
            self.log.flush()
            self._open_line = False

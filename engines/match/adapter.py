"""What a game brings to the match runner: the seam between `engines.match.runner` and a game.

The runner owns the loop (pairs of games on one opening with colours swapped, seeds, the pool,
the journal and resume, SPRT, progress, the results and report files); an adapter owns
everything about its game: its engines' protocol, its openings, playing one game to its end,
having it judged, its record format.

A game runs as a picklable task `(adapter.settings, GameSpec)` given to `adapter.play_one`, a
module-level function of the adapter's module that builds the game inside the worker (a
thread here, a process on another machine with the Ray backend) and returns a `GameResult`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from engines.match.results import GameResult


@dataclass
class GameSpec:
    """One game of the schedule, as the runner decides it: picklable."""

    index: int
    pair: int  # games 2p and 2p+1 play opening p, colours swapped
    opening: Any  # the adapter's opening object (has an `id`), or None
    candidate_color: str  # 'b' (moves first on an empty board) or 'w'
    seed: int


class GameAdapter(Protocol):
    """One game's side of a match between a candidate and an opponent."""

    game: str  # "go": the journal refuses to resume another game's match
    settings: Any  # a picklable dataclass: everything a worker needs to play a game
    # Errors that stop the whole match (a referee that fails); any other error is a bug and
    # propagates. A player's failure is a forfeit, never fatal.
    fatal: tuple[type[BaseException], ...]
    # The candidate's time limit per move in seconds (None: none), for the summary's
    # over-the-limit count.
    limit: float | None
    # (settings, GameSpec) -> GameResult, a module-level function.
    play_one: Callable[[tuple], GameResult]

    def check(self) -> None:
        """Before any game: both engines start and speak the protocol (else a NamedError)."""

    def openings(self, pairs: int, seed: int) -> list:
        """The openings for PAIRS pairs (a file's, cycled if shorter; or generated from SEED);
        raise a NamedError naming the file and line of a malformed one."""

    def options(self) -> dict:
        """What the games depend on, for the journal: a resumed match must have the same."""

    def conditions(self) -> dict:
        """What the figures depend on: the players' names and command lines (`candidate`,
        `opponent`, `candidate_cmd`, `opponent_cmd`) and the game's own settings."""

    def describe(self, conditions: dict) -> str:
        """The conditions line of the summary text, from the match's CONDITIONS (the adapter's
        own plus the runner's `seeds`, `jobs`)."""

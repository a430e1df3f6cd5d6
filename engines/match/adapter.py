"""What a game brings to the match runner: the seam between `engines.match.runner` and a game.

The runner owns the loop (games in parallel, seeds, colours, progress, interruption, the
results file); an adapter owns everything about its game: starting the players, playing one
game to its end, having it judged, saving its record.
"""
from __future__ import annotations

import threading
from typing import Protocol

from engines.match.results import GameResult


class GameAdapter(Protocol):
    """One game's side of a match between a candidate and an opponent."""

    # Errors that stop the whole match (a player that cannot start, a referee that fails);
    # any other error is a bug and propagates.
    fatal: tuple[type[BaseException], ...]
    # The candidate's time limit per move in seconds (None: none), for the summary's
    # over-the-limit count.
    limit: float | None

    def play_game(self, index: int, seed: int, candidate_first: bool,
                  stop: threading.Event) -> GameResult:
        """Play game INDEX with SEED, the candidate moving first if CANDIDATE_FIRST; raise
        KeyboardInterrupt between moves once STOP is set."""

    def conditions(self) -> dict:
        """What the figures depend on: the players' names and command lines (`candidate`,
        `opponent`, `candidate_cmd`, `opponent_cmd`) and the game's own settings."""

    def describe(self, conditions: dict) -> str:
        """The conditions line of the summary text, from the match's CONDITIONS (the adapter's
        own plus the runner's `seeds`, `jobs`)."""

"""`engines match GAME`: a match between two engines, the candidate's score, Elo and SPRT.

    engines match go --games 200 --size 9 --tc 10+0.1 --sprt elo0=0,elo1=10 --out var/go-match

One subcommand per game, each in its own module (`engines.match.<game>_cli`), loaded only when
it runs. What every game's command shares (the schedule, time, SPRT, pool and output options,
and the run itself) is written once, in `engines.match.options`.
"""
from __future__ import annotations

import click

from plumbing.cli import ToolGroup

# game -> "module:command"; the group's --help lists them without importing any.
GAMES = {"go": "engines.match.go_cli:go",
         "gomoku": "engines.match.gomoku_cli:gomoku",
         "quoridor": "engines.match.quoridor_cli:quoridor",
         "compare": "engines.match.compare:compare"}   # two runs, game by game


@click.group(cls=ToolGroup, lazy=GAMES, context_settings={"help_option_names": ["-h", "--help"]})
def match():
    """Play a match of GAME between two engines and report the candidate's score.

    Openings are played in pairs with colours swapped, game i uses seed SEED+i, and every game
    is appended to OUT/journal.jsonl as it ends: run the same command again to resume an
    interrupted match. `engines match GAME --help` lists a game's options; `engines match
    compare RUN --against BASELINE` pairs two builds' runs game by game on the same seeds."""

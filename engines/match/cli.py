"""`engines match GAME`: a match between two engines and the candidate's win rate.

    engines match go --games 50 --size 9 --seconds 0.5 --level 10 --out var/go-match

The options are those of the old `bench/go_match.py` (which now calls this command).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from engines.match.go import GNUGO_CMD, GoAdapter, GoSettings, default_engine_cmd
from engines.match.results import format_summary
from engines.match.runner import Schedule, run_match


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game", type=click.Choice(["go"]))
@click.option("--games", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--size", default=9, show_default=True, type=click.Choice(["9", "13", "19"]))
@click.option("--komi", default=7.0, show_default=True, type=float)
@click.option("--seconds", default=0.5, show_default=True, type=click.FloatRange(min=0),
              help="Candidate's time limit per move (0 = none).")
@click.option("--playouts", default=None, type=click.IntRange(min=1),
              help="Candidate's playout budget per move (if it knows soloshop-playouts).")
@click.option("--threads", default=None, type=click.IntRange(1, 64),
              help="Candidate's search threads (if it knows soloshop-threads).")
@click.option("--level", default=10, show_default=True, type=click.IntRange(1, 10),
              help="GNU Go level for the default opponent ({level}).")
@click.option("--seed", "base_seed", default=1, show_default=True, type=int,
              help="Game i uses seed SEED+i.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(1, 8))
@click.option("--out", default="var/go-match", show_default=True,
              type=click.Path(file_okay=False, path_type=Path))
@click.option("--engine", "engine_cmd", default=None,
              help="Candidate GTP command line  [default: this venv's `engines gtp go`].")
@click.option("--opponent", "opponent_cmd", default=GNUGO_CMD, show_default=True)
@click.option("--referee-level", default=10, show_default=True, type=click.IntRange(1, 10))
@click.option("--max-moves", default=None, type=int, help="Default: 3 x board points.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def match(game, games, size, komi, seconds, playouts, threads, level, base_seed, jobs, out,
          engine_cmd, opponent_cmd, referee_level, max_moves, as_json):
    """Play GAMES games of GAME between two engines and report the candidate's win rate.

    Colours alternate, game i uses seed SEED+i, an independent referee (GNU Go's dead stones
    and an area count, cross-checked by a play-out) scores every game. SGFs, the players'
    stderr and results.json go to OUT; exit 1 when the match stopped early."""
    size = int(size)
    adapter = GoAdapter(GoSettings(
        size=size, komi=komi, seconds=seconds or None, level=level,
        engine_cmd=engine_cmd or default_engine_cmd(), opponent_cmd=opponent_cmd,
        max_moves=max_moves or 3 * size * size, out=out, playouts=playouts, threads=threads,
        referee_level=referee_level))
    outcome = run_match(adapter, Schedule(games, base_seed, jobs), out,
                        log=sys.stderr if as_json else sys.stdout)
    if as_json:
        click.echo(json.dumps(outcome.summary))
    else:
        click.echo(format_summary(outcome.summary, adapter.describe))
        click.echo(f"  SGFs and results.json in {out}")
    if not outcome.complete:
        raise SystemExit(1)

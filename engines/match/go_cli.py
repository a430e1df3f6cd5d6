"""`engines match go`: Go over GTP, GNU Go as the default opponent and as the referee.

    engines match go --games 200 --size 9 --tc 10+0.1 --sprt elo0=0,elo1=10 --out var/go-match

The options of the old `bench/go_match.py` (which now calls this command) still work: `--jobs`
is `--concurrency`.
"""
from __future__ import annotations

import click

from engines.match.options import candidate_seconds, common_options, run_adapter
from engines.match.go import (DEFAULT_TIMEOUT, DEFAULT_TOLERANCE, GNUGO_CMD, GoAdapter,
                              GoSettings, Side, default_engine_cmd)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@common_options(
    out="var/go-match",
    openings_help="An SGF file (one or more game trees) or a directory of .sgf files; "
                  "'generate' (2-4 seeded centre moves per pair); 'none' (empty board). "
                  "Each opening is played twice, colours swapped.",
    engine_help="Candidate GTP command line  [default: this venv's `engines gtp go`].",
    opponent=GNUGO_CMD, opponent_help="Opponent GTP command line ({level}: --level).",
    tolerance=DEFAULT_TOLERANCE, timeout=DEFAULT_TIMEOUT)
@click.option("--size", default="9", show_default=True,
              type=click.Choice(["7", "9", "13", "19"]))
@click.option("--komi", default=7.0, show_default=True, type=float)
@click.option("--playouts", default=None, type=click.IntRange(min=1),
              help="Candidate's playout budget per move (if it knows soloshop-playouts).")
@click.option("--threads", default=None, type=click.IntRange(1, 64),
              help="Candidate's search threads (if it knows soloshop-threads).")
@click.option("--opponent-playouts", default=None, type=click.IntRange(min=1))
@click.option("--opponent-threads", default=None, type=click.IntRange(1, 64))
@click.option("--level", default=10, show_default=True, type=click.IntRange(1, 10),
              help="GNU Go level for the default opponent ({level}).")
@click.option("--referee-level", default=10, show_default=True, type=click.IntRange(1, 10))
@click.option("--max-moves", default=None, type=click.IntRange(min=1),
              help="Default: 3 x board points.")
def go(games, openings, seconds, tc, opponent_seconds, opponent_tc, tolerance, timeout,
       base_seed, concurrency, sprt, cluster, out, engine_cmd, opponent_cmd, as_json, size,
       komi, playouts, threads, opponent_playouts, opponent_threads, level, referee_level,
       max_moves):
    """Play up to GAMES games of Go between two GTP engines and report the candidate's score.

    An independent referee (GNU Go's dead stones and an area count, cross-checked by a
    play-out) scores every game. Forfeits (illegal move, crash, time, no answer, garbage) are
    recorded with their reason. Exit 1 when the match stopped early (not by the SPRT)."""
    size = int(size)
    adapter = GoAdapter(GoSettings(
        size=size, komi=komi, level=level, max_moves=max_moves or 3 * size * size, out=out,
        candidate=Side(engine_cmd or default_engine_cmd(), candidate_seconds(seconds, tc), tc,
                       playouts, threads),
        opponent=Side(opponent_cmd, opponent_seconds or None, opponent_tc, opponent_playouts,
                      opponent_threads),
        referee_level=referee_level, tolerance=tolerance, timeout=timeout,
        openings=None if openings == "none" else openings))
    run_adapter(adapter, games=games, base_seed=base_seed, concurrency=concurrency, sprt=sprt,
                cluster=cluster, out=out, as_json=as_json)

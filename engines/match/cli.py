"""`engines match GAME`: a match between two engines, the candidate's score, Elo and SPRT.

    engines match go --games 200 --size 9 --tc 10+0.1 --sprt elo0=0,elo1=10 --out var/go-match

Every option without `--opponent-` is the candidate's; `--opponent-X` sets the opponent's (the
opponent has no limit by default). The options of the old `bench/go_match.py` (which now calls
this command) still work: `--jobs` is `--concurrency`.
"""
from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import click

from engines.match.go import (DEFAULT_TIMEOUT, DEFAULT_TOLERANCE, GNUGO_CMD, GoAdapter,
                              GoSettings, Side, default_engine_cmd)
from engines.match.pool import default_concurrency, make_pool
from engines.match.results import format_summary
from engines.match.runner import Schedule, run_match

GAMES = {"go": "Go over GTP (GNU Go as the default opponent and the referee)"}


def parse_tc(ctx, param, value):
    """'10+0.1' (base seconds + increment per move) or '10' -> (10.0, 0.1)."""
    if value is None:
        return None
    base, _, inc = value.partition("+")
    try:
        tc = (float(base), float(inc or 0))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not BASE+INCREMENT in seconds (e.g. 10+0.1)")
    if tc[0] <= 0 or tc[1] < 0:
        raise click.BadParameter(f"{value!r}: the base must be > 0 and the increment >= 0")
    return tc


def parse_sprt(ctx, param, value):
    """'elo0=0,elo1=10,alpha=0.05,beta=0.05' (alpha and beta default to 0.05) -> Sprt."""
    if value is None:
        return None
    from engines.match.sprt import Sprt, SprtError

    fields = {}
    for part in value.split(","):
        key, sep, number = part.partition("=")
        key = key.strip()
        if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
            raise click.BadParameter(f"{part!r}: expected elo0=E0,elo1=E1[,alpha=A,beta=B]")
        try:
            fields[key] = float(number)
        except ValueError:
            raise click.BadParameter(f"{part!r}: {number!r} is not a number") from None
    if "elo0" not in fields or "elo1" not in fields:
        raise click.BadParameter("give both elo0 and elo1 (e.g. elo0=0,elo1=10)")
    try:
        return Sprt(**fields)
    except SprtError as error:
        raise click.BadParameter(str(error)) from None


def _terminate(signum, frame):
    raise KeyboardInterrupt


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game", type=click.Choice(sorted(GAMES)))
@click.option("--games", default=10, show_default=True, type=click.IntRange(min=1),
              help="The most games to play (the SPRT may stop earlier).")
@click.option("--size", default="9", show_default=True,
              type=click.Choice(["7", "9", "13", "19"]))
@click.option("--komi", default=7.0, show_default=True, type=float)
@click.option("--openings", default="generate", show_default=True,
              help="An SGF file (one or more game trees) or a directory of .sgf files; "
                   "'generate' (2-4 seeded centre moves per pair); 'none' (empty board). "
                   "Each opening is played twice, colours swapped.")
@click.option("--seconds", default=None, type=click.FloatRange(min=0),
              help="Candidate's time per move, byo-yomi (0 = none)  [default: 0.5 unless --tc].")
@click.option("--tc", default=None, callback=parse_tc, metavar="BASE+INC",
              help="Candidate's time per game: BASE seconds + INC per move (time_settings and "
                   "time_left).")
@click.option("--playouts", default=None, type=click.IntRange(min=1),
              help="Candidate's playout budget per move (if it knows soloshop-playouts).")
@click.option("--threads", default=None, type=click.IntRange(1, 64),
              help="Candidate's search threads (if it knows soloshop-threads).")
@click.option("--opponent-seconds", default=None, type=click.FloatRange(min=0))
@click.option("--opponent-tc", default=None, callback=parse_tc, metavar="BASE+INC")
@click.option("--opponent-playouts", default=None, type=click.IntRange(min=1))
@click.option("--opponent-threads", default=None, type=click.IntRange(1, 64))
@click.option("--tolerance", default=DEFAULT_TOLERANCE, show_default=True,
              type=click.FloatRange(min=0),
              help="Seconds over a move's or a game's time before it is lost on time.")
@click.option("--timeout", default=DEFAULT_TIMEOUT, show_default=True,
              type=click.FloatRange(min=0.1),
              help="Seconds any command may take when no time control bounds it; an engine "
                   "that does not answer by then forfeits.")
@click.option("--level", default=10, show_default=True, type=click.IntRange(1, 10),
              help="GNU Go level for the default opponent ({level}).")
@click.option("--seed", "base_seed", default=1, show_default=True, type=int,
              help="Game i uses seed SEED+i; generated openings come from SEED.")
@click.option("--concurrency", "--jobs", "concurrency", default=None,
              type=click.IntRange(1, 64),
              help="Games at a time  [default: free cores / threads per engine, at least 1].")
@click.option("--sprt", default=None, callback=parse_sprt,
              metavar="elo0=E0,elo1=E1[,alpha=A,beta=B]",
              help="Stop as soon as the SPRT decides (alpha, beta default 0.05).")
@click.option("--cluster", default=None, envvar="RAY_ADDRESS", metavar="ADDRESS",
              help="Play the games as tasks on a Ray cluster: HOST:6379 of a running one "
                   "(`ray start --head`), or `local` to start one on this machine  "
                   "[default: $RAY_ADDRESS, else this machine's cores without Ray].")
@click.option("--out", default="var/go-match", show_default=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="SGFs, journal.jsonl (resumed when present), results.json, report.html.")
@click.option("--engine", "engine_cmd", default=None,
              help="Candidate GTP command line  [default: this venv's `engines gtp go`].")
@click.option("--opponent", "opponent_cmd", default=GNUGO_CMD, show_default=True)
@click.option("--referee-level", default=10, show_default=True, type=click.IntRange(1, 10))
@click.option("--max-moves", default=None, type=click.IntRange(min=1),
              help="Default: 3 x board points.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def match(game, games, size, komi, openings, seconds, tc, playouts, threads, opponent_seconds,
          opponent_tc, opponent_playouts, opponent_threads, tolerance, timeout, level,
          base_seed, concurrency, sprt, cluster, out, engine_cmd, opponent_cmd, referee_level,
          max_moves, as_json):
    """Play up to GAMES games of GAME between two engines and report the candidate's score.

    Openings are played in pairs with colours swapped, game i uses seed SEED+i, an independent
    referee (GNU Go's dead stones and an area count, cross-checked by a play-out) scores every
    game. Forfeits (illegal move, crash, time, no answer, garbage) are recorded with their
    reason. Every game is appended to OUT/journal.jsonl as it ends: run the same command again
    to resume an interrupted match. Exit 1 when the match stopped early (not by the SPRT)."""
    size = int(size)
    if seconds is None:
        seconds = None if tc else 0.5
    adapter = GoAdapter(GoSettings(
        size=size, komi=komi, level=level, max_moves=max_moves or 3 * size * size, out=out,
        candidate=Side(engine_cmd or default_engine_cmd(), seconds or None, tc, playouts,
                       threads),
        opponent=Side(opponent_cmd, opponent_seconds or None, opponent_tc, opponent_playouts,
                      opponent_threads),
        referee_level=referee_level, tolerance=tolerance, timeout=timeout,
        openings=None if openings == "none" else openings))
    adapter.openings((games + 1) // 2, base_seed)  # a malformed opening: before any engine
    adapter.check()
    jobs = concurrency or default_concurrency(adapter.threads_per_game())
    pool = make_pool(jobs, cluster, threads_per_game=adapter.threads_per_game(),
                     commands=adapter.commands())
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        outcome = run_match(adapter, Schedule(games, base_seed, jobs, sprt), out,
                            log=sys.stderr if as_json else sys.stdout, pool=pool)
    finally:
        signal.signal(signal.SIGTERM, previous)
    if as_json:
        click.echo(json.dumps(outcome.summary))
    else:
        click.echo(format_summary(outcome.summary, adapter.describe))
        click.echo(f"  SGFs, journal.jsonl, results.json and report.html in {out}")
    if not outcome.complete:
        raise SystemExit(1)

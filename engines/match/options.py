"""What every game's `engines match GAME` command shares: the options (`common_options`, with
each game's defaults and help), their parsers, and the run (`run_adapter`).

Every option without `--opponent-` is the candidate's; `--opponent-X` sets the opponent's (the
opponent has no limit by default).
"""
from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import Callable

import click

from engines.match.pool import default_concurrency, make_pool
from engines.match.results import format_summary
from engines.match.runner import Schedule, run_match


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


def common_options(*, out: str, openings_help: str, engine_help: str, opponent: str | None,
                   opponent_help: str, tolerance: float, timeout: float,
                   openings: str = "generate") -> Callable:
    """The options every game's match command has, with that game's defaults and help."""
    options = [
        click.option("--games", default=10, show_default=True, type=click.IntRange(min=1),
                     help="The most games to play (the SPRT may stop earlier)."),
        click.option("--openings", default=openings, show_default=True, help=openings_help),
        click.option("--seconds", default=None, type=click.FloatRange(min=0),
                     help="Candidate's time per move (0 = none)  [default: 0.5 unless --tc]."),
        click.option("--tc", default=None, callback=parse_tc, metavar="BASE+INC",
                     help="Candidate's time per game: BASE seconds + INC per move."),
        click.option("--opponent-seconds", default=None, type=click.FloatRange(min=0)),
        click.option("--opponent-tc", default=None, callback=parse_tc, metavar="BASE+INC"),
        click.option("--tolerance", default=tolerance, show_default=True,
                     type=click.FloatRange(min=0),
                     help="Seconds over a move's or a game's time before it is lost on time."),
        click.option("--timeout", default=timeout, show_default=True,
                     type=click.FloatRange(min=0.1),
                     help="Seconds any command may take when no time control bounds it; an "
                          "engine that does not answer by then forfeits."),
        click.option("--seed", "base_seed", default=1, show_default=True, type=int,
                     help="Game i uses seed SEED+i; generated openings come from SEED."),
        click.option("--concurrency", "--jobs", "concurrency", default=None,
                     type=click.IntRange(1, 64),
                     help="Games at a time  [default: free cores / threads per engine, at "
                          "least 1]."),
        click.option("--sprt", default=None, callback=parse_sprt,
                     metavar="elo0=E0,elo1=E1[,alpha=A,beta=B]",
                     help="Stop as soon as the SPRT decides (alpha, beta default 0.05)."),
        click.option("--cluster", default=None, envvar="RAY_ADDRESS", metavar="ADDRESS",
                     help="Play the games as tasks on a Ray cluster: HOST:6379 of a running "
                          "one (`ray start --head`), or `local` to start one on this machine  "
                          "[default: $RAY_ADDRESS, else this machine's cores without Ray]."),
        click.option("--out", default=out, show_default=True,
                     type=click.Path(file_okay=False, path_type=Path),
                     help="Records, journal.jsonl (resumed when present), results.json, "
                          "report.html."),
        click.option("--engine", "engine_cmd", default=None, help=engine_help),
        click.option("--opponent", "opponent_cmd", default=opponent,
                     show_default=opponent is not None, help=opponent_help),
        click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON."),
    ]

    def decorate(command):
        for option in reversed(options):
            command = option(command)
        return command
    return decorate


def candidate_seconds(seconds: float | None, tc) -> float | None:
    """--seconds' default: 0.5 a move unless a game clock (--tc) is given; 0 means none."""
    if seconds is None:
        seconds = None if tc else 0.5
    return seconds or None


def _terminate(signum, frame):
    raise KeyboardInterrupt


def run_adapter(adapter, *, games: int, base_seed: int, concurrency: int | None, sprt,
                cluster: str | None, out: Path, as_json: bool) -> None:
    """Check the adapter, play the match, print the summary; exit 1 if it stopped early."""
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
        click.echo(f"  records, journal.jsonl, results.json and report.html in {out}")
    if not outcome.complete:
        raise SystemExit(1)

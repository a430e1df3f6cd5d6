"""`engines match compare`: two builds' runs on the same games, game by game.

A match is deterministic when both engines are (a fixed playout budget, one thread, a seeded
opponent): the same seed, colour and opening give the same game. Two builds' runs on the same
seeds are then paired, and only the games that went differently say anything about the
change. Against a strong opponent most games do not (the better build wins them too), so the
paired count, a sign test on the games that differ, and the mean difference per game with its
interval are much sharper than two scores side by side.

`paired` is pure; the command reads the journals (`engines.match.journal`), one or more runs a
side (a baseline played in several runs, or the same seeds split over cores).
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path

import click

from engines.match.journal import Journal, JournalError, differences
from engines.match.stats import wilson_interval


@dataclass(frozen=True)
class Comparison:
    paired: int          # games both sides played: the same seed, candidate colour and opening
    only_candidate: int  # the candidate's games with no counterpart, and the baseline's
    only_baseline: int
    candidate: float     # the candidate's points over the paired games, and the baseline's
    baseline: float
    better: int          # paired games the candidate scored more in, fewer in, the same
    worse: int
    same: int
    sign_p: float        # two-sided sign test over the games that differ
    mean: float          # the candidate's points minus the baseline's, a game, and its 95% interval
    low: float
    high: float


def _key(game: dict) -> tuple:
    return (game["seed"], game["candidate_color"], game.get("opening", ""))


def sign_test(better: int, worse: int) -> float:
    """Two-sided exact binomial test of BETTER against WORSE at even odds (1.0 with none)."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(better, worse) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def paired(candidate: list[dict], baseline: list[dict], z: float = 1.96) -> Comparison:
    """The CANDIDATE's games (journal entries) against the BASELINE's on the same seed, colour
    and opening. A key played more than once on a side counts once (its first game)."""
    cand, base = {}, {}
    for games, into in ((candidate, cand), (baseline, base)):
        for g in games:
            into.setdefault(_key(g), float(g["points"]))
    common = [k for k in cand if k in base]
    diffs = [cand[k] - base[k] for k in common]
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    half = z * math.sqrt(sum((d - mean) ** 2 for d in diffs) / n / n) if n else 0.0
    better, worse = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
    return Comparison(
        paired=n, only_candidate=len(cand) - n, only_baseline=len(base) - n,
        candidate=sum(cand[k] for k in common), baseline=sum(base[k] for k in common),
        better=better, worse=worse, same=n - better - worse, sign_p=sign_test(better, worse),
        mean=mean, low=mean - half, high=mean + half)


def read_runs(runs) -> tuple[str, dict, list[dict]]:
    """(game, the first run's options, every game) of one side's run directories."""
    game, options, games = None, None, []
    for run in runs:
        journal = Journal(run)
        head = journal.head()
        if game is not None and head["game"] != game:
            raise JournalError(f"{run} is a {head['game']} match and {runs[0]} a {game} match: "
                               "compare runs of one game")
        game = head["game"]
        options = head.get("options", {}) if options is None else options
        games.extend(journal.games(game))
    return game, options, games


def _score(points: float, games: int) -> str:
    low, high = wilson_interval(points, games)
    return f"{points:g}/{games} = {points / games:.1%} (Wilson 95% {low:.1%}-{high:.1%})"


def describe(c: Comparison) -> list[str]:
    """The comparison in lines of text."""
    if not c.paired:
        return ["no game in common: pair runs that played the same seeds (the same --seed and "
                "--openings), or the games cannot be compared one by one"]
    return [
        f"paired: {c.paired} games (same seed, colour and opening); "
        f"only the candidate's {c.only_candidate}, only the baseline's {c.only_baseline}",
        f"candidate {_score(c.candidate, c.paired)}",
        f"baseline  {_score(c.baseline, c.paired)}",
        f"difference {c.candidate - c.baseline:+g} points, {c.mean:+.1%} a game "
        f"(95% {c.low:+.1%} to {c.high:+.1%})",
        f"the candidate scored more in {c.better} games, less in {c.worse}, the same in "
        f"{c.same}; sign test p = {c.sign_p:.2g}",
    ]


# The options that tell two builds' conditions apart by design (the engine, its budget, the
# SPRT) or that pairing already checks game by game (the seed): not worth a warning.
EXPECTED = {"engine", "seed", "playouts", "seconds", "tc", "threads", "sprt"}


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("runs", nargs=-1, required=True,
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--against", "baseline", multiple=True, required=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A baseline run's --out directory (give it more than once for several).")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
def compare(runs, baseline, as_json):
    """Compare the candidate's RUNS (`engines match` --out directories) with the baseline's,
    game by game on the same seeds, colours and openings: the paired scores, the games each
    scored more in, a sign test and the mean difference a game with its 95% interval.

    \b
        engines match compare var/runs/new --against var/runs/main-2101 --against var/runs/main-2301

    Pairing needs deterministic runs (a playout budget, one thread, a seeded opponent); the
    options the two sides differ in beyond the engine and its limits are named."""
    game, options, games = read_runs(list(runs))
    base_game, base_options, base_games = read_runs(list(baseline))
    if base_game != game:
        raise click.ClickException(f"the runs are {game} matches and the baseline {base_game}: "
                                   "compare runs of one game")
    c = paired(games, base_games)
    differ = differences({k: v for k, v in base_options.items() if k not in EXPECTED},
                         {k: v for k, v in options.items() if k not in EXPECTED})
    if as_json:
        click.echo(json.dumps({**asdict(c), "options_differ": differ}, indent=2))
        return
    for line in describe(c):
        click.echo(line)
    for d in differ:
        click.echo(f"warning: the conditions differ, {d}")

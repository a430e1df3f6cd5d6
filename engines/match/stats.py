"""Statistics of a match score: a win rate's Wilson interval and the Elo difference it implies;
win/draw/loss (trinomial) and game-pair (pentanomial) counts and their Elo intervals.

Pure functions, standard library only. The SPRT on the same counts is `engines.match.sprt`."""
from __future__ import annotations

import math
from typing import Iterable, Sequence


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a win rate (draws count as half a win)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_difference(score: float) -> float | None:
    """The Elo difference at which the stronger side expects SCORE (0..1) of the points;
    None at 0 and 1, where the logistic model puts it at infinity."""
    if not 0.0 < score < 1.0:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no "-0" at an even score


def elo_interval(wins: float, games: int, z: float = 1.96) -> dict:
    """The Elo estimate of WINS out of GAMES and the Elo of the Wilson interval's two ends."""
    low, high = wilson_interval(wins, games, z)
    return {"estimate": elo_difference(wins / games) if games else None,
            "low": elo_difference(low), "high": elo_difference(high)}


# --- Trinomial and pentanomial results -------------------------------------------------------

GAME_SCORES = (0.0, 0.5, 1.0)  # a loss, a draw, a win, from the candidate's side
# The candidate's points over a game pair (one opening played twice, colours swapped).
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)


def _count(values: Iterable[float], categories: tuple[float, ...], what: str) -> list[int]:
    counts = [0] * len(categories)
    for value in values:
        try:
            counts[categories.index(value)] += 1
        except ValueError:
            raise ValueError(f"{what} {value!r} is not one of {categories}") from None
    return counts


def pentanomial(pair_points: Iterable[float]) -> list[int]:
    """How many game pairs scored each of PAIR_SCORES (0, 0.5, 1, 1.5, 2 points for the
    candidate over the pair's two games), in that order."""
    return _count(pair_points, PAIR_SCORES, "pair score")


def trinomial(points: Iterable[float]) -> tuple[int, int, int]:
    """(wins, draws, losses) of the candidate's game POINTS (1, 0.5 or 0 each)."""
    losses, draws, wins = _count(points, GAME_SCORES, "game score")
    return (wins, draws, losses)


def _elo_of_mean(scores: tuple[float, ...], counts: list[int], z: float) -> dict:
    """Logistic Elo of the mean of SCORES (0..1) weighted by COUNTS, with the normal
    approximation of the mean's distribution (the empirical variance of one observation over
    the count) mapped through the logistic curve; None where the score is 0 or 1."""
    n = sum(counts)
    if n == 0:
        return {"estimate": None, "low": None, "high": None}
    mean = sum(c * x for c, x in zip(counts, scores)) / n
    variance = sum(c * (x - mean) ** 2 for c, x in zip(counts, scores)) / n
    half = z * math.sqrt(variance / n)
    return {"estimate": elo_difference(mean), "low": elo_difference(mean - half),
            "high": elo_difference(mean + half)}


def elo_from_trinomial(wins: int, draws: int, losses: int, z: float = 1.96) -> dict:
    """Elo estimate and interval (keys estimate, low, high) from wins, draws and losses.

    The estimate is the logistic Elo of the mean score. The interval is the mean score plus or
    minus Z standard errors, the standard error from the empirical per-game variance (a draw
    scores 0.5, so draws narrow it), both ends mapped through the logistic Elo; an end outside
    (0, 1) is None, and so is everything at a 0% or 100% score (the variance is then 0)."""
    return _elo_of_mean(GAME_SCORES, [losses, draws, wins], z)


def elo_from_pentanomial(counts: Sequence[int], z: float = 1.96) -> dict:
    """Elo estimate and interval (keys estimate, low, high) from the pentanomial COUNTS (in the
    order of PAIR_SCORES).

    As fishtest and fastchess report it: each pair is one observation whose score is its points
    over 2 (0, 0.25, ..., 1); the mean over pairs gives the logistic Elo, and the interval is that
    mean plus or minus Z standard errors from the empirical variance of the pair scores. Pairs
    capture the correlation of the two games of one opening, so the interval is usually
    narrower than the trinomial one for the same games."""
    if len(counts) != len(PAIR_SCORES):
        raise ValueError(f"pentanomial counts need {len(PAIR_SCORES)} values, got {len(counts)}")
    return _elo_of_mean(tuple(x / 2 for x in PAIR_SCORES), list(counts), z)

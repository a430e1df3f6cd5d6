"""Statistics of a match score: a win rate's Wilson interval and the Elo difference it implies."""
from __future__ import annotations

import math


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

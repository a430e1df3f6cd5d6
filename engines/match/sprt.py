"""The sequential probability ratio test (SPRT) of a match: is the candidate elo1 stronger than
the opponent, or only elo0?

Wald's SPRT compares the log-likelihood ratio (LLR) of the results so far with two bounds
from the error rates alpha (accepting H1 when H0 holds) and beta (accepting H0 when H1 holds):
lower = ln(beta / (1 - alpha)) and upper = ln((1 - beta) / alpha); the match goes on while the
LLR lies strictly between them.

The model is the one fishtest and fastchess use: logistic Elo (an Elo difference e means an
expected score L(e) = 1 / (1 + 10^(-e/400))) and a generalized SPRT (GSPRT) on the multinomial
distribution of outcomes, either games (loss, draw, win scoring 0, 0.5, 1) or game pairs (the
candidate's points over the pair's two games over 2: 0, 0.25, 0.5, 0.75, 1). Neither hypothesis
says how likely a draw is, so each is replaced by its most likely outcome distribution given the
results: the maximum-likelihood distribution among those whose mean score is L(elo0)
(resp. L(elo1)). The LLR is the sum over outcomes of n_i * ln(p1_i / p0_i).

That constrained maximum (a Lagrange-multiplier argument, as in Michel Van den Bergh's notes on
the GSPRT for fishtest) is p_i = phat_i / (1 + lambda * (x_i - s)), phat_i the observed
frequencies, x_i the outcome scores and s the required mean; lambda is the root of
sum_i phat_i (x_i - s) / (1 + lambda (x_i - s)) = 0, a function decreasing in lambda, found by
bisection in the range that keeps every outcome's denominator non-negative.

Small samples: the maximum is taken over all outcomes of the game (3 or 5), not only the
observed ones. While the observed outcomes straddle s, outcomes never seen get no probability
(they drop out). When they do not (early on: all games won or drawn, say, and s at or below
the draw's score), no root exists in that range; the maximum then sits on its edge and gives
the worst (or best) outcome not yet seen the probability the mean needs, so the LLR stays
finite and modest instead of jumping to infinity. That holds with a single outcome seen, too:
n straight wins give n * ln(L(elo1) / L(elo0)) (each hypothesis at its best puts all the rest
on a loss), and n pairs all scoring 1 (every opening won by the same colour) lead to H0 after
about fifty pairs, instead of an LLR stuck at 0 and a test that never ends. No games: LLR 0.

`llr_normal_approx` is the classic closed form for large samples, a cross-check.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from engines.match.stats import GAME_SCORES, PAIR_SCORES
from plumbing.errors import NamedError

ELO_LIMIT = 1000.0  # |elo0|, |elo1| beyond this put L(e) too close to 0 or 1 to be useful
PAIR_FRACTIONS = tuple(x / 2 for x in PAIR_SCORES)


class SprtError(NamedError):
    """Invalid SPRT parameters; the message names the parameter and the fix."""


def logistic_score(elo: float) -> float:
    """The expected score L(elo) = 1 / (1 + 10^(-elo/400)) of the side elo points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def mle_distribution(counts: Sequence[float], scores: Sequence[float],
                     mean: float) -> list[float]:
    """The most likely distribution over outcomes scoring SCORES, given COUNTS of each, among
    those with the expected score MEAN (strictly between the lowest and highest score).

    See the module's docstring: p_i = phat_i / (1 + lambda (x_i - mean)), lambda by bisection;
    when the observed outcomes do not straddle MEAN, lambda sits on the edge of its range and the
    unobserved extreme outcome takes the remaining probability."""
    n = sum(counts)
    if n <= 0:
        raise ValueError("mle_distribution needs at least one observation")
    lowest, highest = min(scores), max(scores)
    if not lowest < mean < highest:
        raise ValueError(f"mean {mean!r} is not strictly between {lowest} and {highest}")
    phat = [c / n for c in counts]
    d = [x - mean for x in scores]
    seen = [i for i, c in enumerate(counts) if c > 0]
    # Every denominator 1 + lambda * d_i stays >= 0 for lambda in [lo, hi]; it reaches 0 only
    # for the extreme outcomes, at the two ends.
    lo, hi = -1.0 / (highest - mean), 1.0 / (mean - lowest)

    def slope(lam: float) -> float:  # decreasing in lam
        return sum(phat[i] * d[i] / (1.0 + lam * d[i]) for i in seen)

    def at(lam: float) -> list[float]:
        return [phat[i] / (1.0 + lam * d[i]) if counts[i] > 0 else 0.0
                for i in range(len(scores))]

    for end, extreme, sign in ((lo, highest, -1.0), (hi, lowest, 1.0)):
        edge_outcomes = [i for i, x in enumerate(scores) if x == extreme]
        if all(counts[i] == 0 for i in edge_outcomes) and sign * slope(end) >= 0.0:
            # No root inside: the mean needs more of the unseen extreme outcome than 0.
            p = at(end)
            p[edge_outcomes[0]] = max(0.0, 1.0 - sum(p))
            return p
    a, b = lo, hi
    while True:
        mid = 0.5 * (a + b)
        if mid <= a or mid >= b:
            break
        if slope(mid) > 0.0:
            a = mid
        else:
            b = mid
    p = at(0.5 * (a + b))
    total = sum(p)
    return [x / total for x in p]  # exact normalisation; the root is exact to rounding


def gsprt_llr(counts: Sequence[float], scores: Sequence[float], s0: float, s1: float) -> float:
    """The GSPRT log-likelihood ratio of COUNTS of outcomes scoring SCORES: the most likely
    distribution with mean S1 against the most likely with mean S0 (0 without observations)."""
    if sum(counts) <= 0:
        return 0.0
    p0 = mle_distribution(counts, scores, s0)
    p1 = mle_distribution(counts, scores, s1)
    return sum(c * math.log(p1[i] / p0[i]) for i, c in enumerate(counts) if c > 0)


def llr_normal_approx(mean: float, variance: float, n: float, elo0: float,
                      elo1: float) -> float:
    """The large-sample approximation of the LLR: N * (s1 - s0) * (2 mean - s0 - s1) /
    (2 variance), s0 = L(elo0), s1 = L(elo1), for N observations of mean score MEAN (0..1) and
    per-observation VARIANCE (the log-likelihood ratio of two normal distributions with that
    variance centred on s1 and s0). Games or pairs alike, with scores scaled to 0..1."""
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    if variance <= 0.0:
        return 0.0
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)


def _check_number(name: str, value, fix: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SprtError(f"SPRT {name}={value!r} is not a finite number: {fix}")
    return float(value)


@dataclass(frozen=True)
class Sprt:
    """An SPRT of H0 "the candidate is elo0 stronger" against H1 "elo1 stronger" (elo1 > elo0),
    with error rates ALPHA (accepting H1 under H0) and BETA (accepting H0 under H1)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        elo_fix = f"give an Elo difference between -{ELO_LIMIT:g} and +{ELO_LIMIT:g}"
        for name in ("elo0", "elo1"):
            value = _check_number(name, getattr(self, name), elo_fix)
            if abs(value) > ELO_LIMIT:
                raise SprtError(f"SPRT {name}={value:g} is out of range: {elo_fix}")
        if not self.elo1 > self.elo0:
            raise SprtError(f"SPRT elo1={self.elo1:g} is not above elo0={self.elo0:g}: "
                            "give elo1 greater than elo0 (e.g. elo0=0 elo1=10)")
        for name, what in (("alpha", "accepting H1 when H0 holds"),
                           ("beta", "accepting H0 when H1 holds")):
            fix = f"give the probability of {what} strictly between 0 and 0.5 (e.g. 0.05)"
            value = _check_number(name, getattr(self, name), fix)
            if not 0.0 < value < 0.5:
                raise SprtError(f"SPRT {name}={value:g} is out of range: {fix}")

    @property
    def lower(self) -> float:
        """ln(beta / (1 - alpha)): at or below it, accept H0."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """ln((1 - beta) / alpha): at or above it, accept H1."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr_trinomial(self, wins: int, draws: int, losses: int) -> float:
        """The LLR of the games' wins, draws and losses."""
        return gsprt_llr([losses, draws, wins], GAME_SCORES, logistic_score(self.elo0),
                         logistic_score(self.elo1))

    def llr_pentanomial(self, counts: Sequence[int]) -> float:
        """The LLR of the game pairs' COUNTS in the order of PAIR_SCORES (the pair score over 2
        is the outcome's score, its mean L(elo))."""
        if len(counts) != len(PAIR_SCORES):
            raise ValueError(f"pentanomial counts need {len(PAIR_SCORES)} values, "
                             f"got {len(counts)}")
        return gsprt_llr(list(counts), PAIR_FRACTIONS, logistic_score(self.elo0),
                         logistic_score(self.elo1))

    def decide(self, llr: float) -> str | None:
        """"H1" (accept elo1: the candidate is stronger) at or above the upper bound, "H0"
        (accept elo0) at or below the lower one, None (go on) in between."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def describe(self) -> str:
        """"SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05, bounds [-2.94, 2.94]"."""
        return (f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} "
                f"beta={self.beta:g}, bounds [{self.lower:.2f}, {self.upper:.2f}]")

"""engines.match.stats: trinomial and pentanomial counts and their Elo intervals (the expected
figures computed here by hand from the formulas, not by the code under test)."""
import math

import pytest

from engines.match.stats import (PAIR_SCORES, elo_from_pentanomial, elo_from_trinomial,
                                 pentanomial, trinomial)


def score_of(elo):  # the logistic curve, written out independently
    return 1 / (1 + 10 ** (-elo / 400))


def test_pentanomial_counts_pairs_in_the_order_of_pair_scores():
    assert PAIR_SCORES == (0.0, 0.5, 1.0, 1.5, 2.0)
    assert pentanomial([0, 2, 1, 1, 1.5, 0.5, 2.0]) == [1, 1, 2, 1, 2]
    assert pentanomial([]) == [0, 0, 0, 0, 0]
    for bad in (0.25, 3, -0.5):
        with pytest.raises(ValueError, match="pair score"):
            pentanomial([1.0, bad])


def test_trinomial_counts_wins_draws_losses():
    assert trinomial([1, 0.5, 0, 1.0, 1, 0.0]) == (3, 1, 2)
    assert trinomial([]) == (0, 0, 0)
    with pytest.raises(ValueError, match="game score"):
        trinomial([1, 0.7])


def test_elo_of_known_scores():
    assert round(elo_from_trinomial(3, 0, 1)["estimate"], 1) == 190.8  # 75%
    assert round(elo_from_trinomial(1, 0, 3)["estimate"], 1) == -190.8
    assert elo_from_trinomial(5, 0, 5)["estimate"] == 0.0
    assert elo_from_trinomial(2, 6, 2)["estimate"] == 0.0
    assert round(elo_from_pentanomial([0, 0, 1, 2, 1])["estimate"], 1) == 190.8  # 3 of 4 points


def test_the_trinomial_interval_is_the_normal_interval_of_the_mean_score():
    # 60 wins, 20 draws, 20 losses: mean 0.7, per-game variance
    # (60 * 0.3^2 + 20 * 0.2^2 + 20 * 0.7^2) / 100 = 0.16, standard error 0.04
    elo = elo_from_trinomial(60, 20, 20)
    assert score_of(elo["estimate"]) == pytest.approx(0.7, abs=1e-12)
    assert score_of(elo["low"]) == pytest.approx(0.7 - 1.96 * 0.04, abs=1e-12)
    assert score_of(elo["high"]) == pytest.approx(0.7 + 1.96 * 0.04, abs=1e-12)
    assert elo["low"] < elo["estimate"] < elo["high"]
    # symmetric in score space, not in Elo
    assert score_of(elo["low"]) + score_of(elo["high"]) == pytest.approx(1.4, abs=1e-12)
    assert elo["high"] - elo["estimate"] != pytest.approx(elo["estimate"] - elo["low"], rel=1e-3)
    wider = elo_from_trinomial(60, 20, 20, z=3.0)
    assert wider["low"] < elo["low"] and wider["high"] > elo["high"]


def test_draws_narrow_the_interval_at_the_same_score():
    decisive, drawish = elo_from_trinomial(50, 0, 50), elo_from_trinomial(25, 50, 25)
    assert decisive["estimate"] == drawish["estimate"] == 0.0
    assert decisive["low"] < drawish["low"] < 0 < drawish["high"] < decisive["high"]
    # variances 0.25 and 0.125 per game
    assert score_of(decisive["high"]) == pytest.approx(0.5 + 1.96 * math.sqrt(0.25 / 100))
    assert score_of(drawish["high"]) == pytest.approx(0.5 + 1.96 * math.sqrt(0.125 / 100))


def test_the_pentanomial_interval_uses_the_variance_of_pair_scores():
    # pair scores 0, .25, .5, .75, 1 with counts 1, 2, 4, 2, 1: mean .5, variance
    # (2 * 0.25 + 4 * 0.0625) / 10 = 0.075 per pair
    elo = elo_from_pentanomial([1, 2, 4, 2, 1])
    assert elo["estimate"] == 0.0
    assert score_of(elo["high"]) == pytest.approx(0.5 + 1.96 * math.sqrt(0.075 / 10))
    assert elo["low"] == pytest.approx(-elo["high"])


def test_pairs_remove_the_colour_correlation():
    # every pair one win and one loss: as games a coin toss, as pairs no spread at all
    games = elo_from_trinomial(20, 0, 20)
    pairs = elo_from_pentanomial([0, 0, 20, 0, 0])
    assert games["low"] < 0 < games["high"]
    assert pairs == {"estimate": 0.0, "low": 0.0, "high": 0.0}
    with pytest.raises(ValueError):
        elo_from_pentanomial([1, 2, 3])


def test_undefined_elo_is_none():
    none = {"estimate": None, "low": None, "high": None}
    assert elo_from_trinomial(0, 0, 0) == none
    assert elo_from_trinomial(7, 0, 0) == none  # 100%: no variance, no finite Elo
    assert elo_from_trinomial(0, 0, 7) == none
    assert elo_from_pentanomial([0, 0, 0, 0, 0]) == none
    # 9 wins and a draw: the interval's upper end passes 100%
    elo = elo_from_trinomial(9, 1, 0)
    assert elo["estimate"] > 0 and elo["low"] is not None and elo["high"] is None

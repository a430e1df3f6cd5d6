"""engines.match.sprt: bounds, decisions, parameter checks, and the GSPRT's LLR against
independent computations of the constrained maximum likelihood."""
import math

import pytest

from engines.match.sprt import Sprt, SprtError, llr_normal_approx, mle_distribution
from plumbing.errors import NamedError


def score_of(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def loglik(counts, probs):
    total = 0.0
    for n, p in zip(counts, probs):
        if n:
            if p <= 0:
                return -math.inf
            total += n * math.log(p)
    return total


def maximize(f, lo, hi, iterations=200):
    """Maximum of a concave F on [LO, HI]: a dense grid, then a golden-section search around
    the grid's best point."""
    grid = [lo + (hi - lo) * k / 2000 for k in range(2001)]
    best = max(range(len(grid)), key=lambda k: f(grid[k]))
    a, b = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(iterations):
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        if f(c) >= f(d):
            b = d
        else:
            a = c
    return max(f(a), f(b), f(grid[best]))


def direct_trinomial_max(wins, draws, losses, s):
    """max log-likelihood over every (loss, draw, win) distribution with mean s, directly: the
    draw probability d is free, then win = s - d/2, loss = 1 - s - d/2 (both >= 0)."""
    counts = (losses, draws, wins)

    def f(d):
        return loglik(counts, (max(0.0, 1 - s - d / 2), d, max(0.0, s - d / 2)))

    return maximize(f, 0.0, min(2 * s, 2 * (1 - s)))


def dual_max(counts, scores, s):
    """max log-likelihood with mean s by the convex dual (empirical likelihood):
    N * (sum phat log phat - max over lambda of sum phat log(1 + lambda (x - s))), lambda over
    the closed range where 1 + lambda (x - s) >= 0 for every outcome of the game."""
    n = sum(counts)
    phat = [c / n for c in counts]
    lo, hi = -1 / (max(scores) - s), 1 / (s - min(scores))
    shrink = 1e-13 * (hi - lo)

    def h(lam):
        total = 0.0
        for p, x in zip(phat, scores):
            if p:
                inner = 1 + lam * (x - s)
                if inner <= 0:
                    return -math.inf
                total += p * math.log(inner)
        return total

    entropy = sum(p * math.log(p) for p in phat if p)
    return n * (entropy - maximize(h, lo + shrink, hi - shrink))


PAIRS = [0, 0.25, 0.5, 0.75, 1]


def test_bounds_for_five_percent_errors_are_ln_19():
    sprt = Sprt(0, 10)
    assert sprt.upper == pytest.approx(math.log(19)) and sprt.lower == pytest.approx(-math.log(19))
    assert round(sprt.upper, 3) == 2.944
    asym = Sprt(0, 5, alpha=0.1, beta=0.01)
    assert asym.lower == pytest.approx(math.log(0.01 / 0.9))
    assert asym.upper == pytest.approx(math.log(0.99 / 0.1))
    assert Sprt(0, 10).describe() == (
        "SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05, bounds [-2.94, 2.94]")
    assert Sprt(-2.5, 2.5, 0.1, 0.2).describe() == (
        "SPRT elo0=-2.5 elo1=2.5 alpha=0.1 beta=0.2, bounds [-1.50, 2.08]")


def test_decide_at_inside_and_outside_the_bounds():
    sprt = Sprt(0, 10)
    assert sprt.decide(sprt.upper) == "H1" and sprt.decide(sprt.lower) == "H0"
    assert sprt.decide(5.0) == "H1" and sprt.decide(-5.0) == "H0"
    assert sprt.decide(0.0) is None
    assert sprt.decide(math.nextafter(sprt.upper, 0)) is None
    assert sprt.decide(math.nextafter(sprt.lower, 0)) is None


@pytest.mark.parametrize("kwargs, name", [
    ({"elo0": 10, "elo1": 0}, "elo1"),
    ({"elo0": 5, "elo1": 5}, "elo1"),
    ({"elo0": float("nan"), "elo1": 5}, "elo0"),
    ({"elo0": 0, "elo1": 5000}, "elo1"),
    ({"elo0": "0", "elo1": 5}, "elo0"),
    ({"elo0": 0, "elo1": 5, "alpha": 0}, "alpha"),
    ({"elo0": 0, "elo1": 5, "alpha": 0.5}, "alpha"),
    ({"elo0": 0, "elo1": 5, "beta": -0.1}, "beta"),
    ({"elo0": 0, "elo1": 5, "beta": 1.2}, "beta"),
    ({"elo0": 0, "elo1": 5, "beta": True}, "beta"),
])
def test_invalid_parameters_name_themselves(kwargs, name):
    with pytest.raises(SprtError, match=f"SPRT {name}=") as caught:
        Sprt(**kwargs)
    assert isinstance(caught.value, NamedError)
    assert "give" in str(caught.value)  # and say what to give


@pytest.mark.parametrize("wdl", [(60, 25, 15), (40, 30, 30), (3, 2, 1), (10, 0, 7), (1, 1, 1),
                                 (120, 300, 80)])
@pytest.mark.parametrize("elos", [(0, 10), (-5, 5), (0, 50), (-30, -10)])
def test_trinomial_llr_equals_a_direct_maximization(wdl, elos):
    s0, s1 = score_of(elos[0]), score_of(elos[1])
    expected = direct_trinomial_max(*wdl, s1) - direct_trinomial_max(*wdl, s0)
    assert Sprt(*elos).llr_trinomial(*wdl) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("wdl", [(3, 2, 0), (0, 4, 1), (5, 1, 0), (12, 12, 0), (2, 0, 1)])
def test_small_samples_not_straddling_the_hypotheses_match_the_direct_maximization(wdl):
    # no losses (or no wins) yet: the maximum puts the mean's missing mass on the unseen outcome
    sprt = Sprt(0, 20)
    s0, s1 = score_of(0), score_of(20)
    expected = direct_trinomial_max(*wdl, s1) - direct_trinomial_max(*wdl, s0)
    llr = sprt.llr_trinomial(*wdl)
    assert math.isfinite(llr) and llr == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("counts", [[5, 20, 50, 20, 5], [1, 3, 10, 14, 6], [0, 2, 5, 3, 0],
                                    [0, 0, 3, 4, 0], [0, 0, 6, 1, 2], [4, 0, 0, 0, 3],
                                    [30, 100, 200, 160, 40]])
@pytest.mark.parametrize("elos", [(0, 10), (-5, 5), (0, 40)])
def test_pentanomial_llr_equals_the_dual_maximization(counts, elos):
    s0, s1 = score_of(elos[0]), score_of(elos[1])
    expected = dual_max(counts, PAIRS, s1) - dual_max(counts, PAIRS, s0)
    assert Sprt(*elos).llr_pentanomial(counts) == pytest.approx(expected, abs=1e-6)


def test_the_dual_and_the_direct_maximization_agree_on_games_too():
    # the two independent references agree with each other (and so check each other)
    for wdl in [(60, 25, 15), (3, 2, 0), (12, 12, 0)]:
        for s in (0.5, score_of(20)):
            assert dual_max(wdl[::-1], [0, 0.5, 1], s) == pytest.approx(
                direct_trinomial_max(*wdl, s), abs=1e-6)


def test_no_games_give_zero_and_one_outcome_a_finite_llr():
    sprt = Sprt(0, 10)
    s0, s1 = score_of(0), score_of(10)
    assert sprt.llr_trinomial(0, 0, 0) == 0.0
    assert sprt.llr_pentanomial([0, 0, 0, 0, 0]) == 0.0
    # n straight wins: each hypothesis at its best has P(win) = its mean, the rest on a loss
    assert sprt.llr_trinomial(9, 0, 0) == pytest.approx(9 * math.log(s1 / s0), abs=1e-9)
    assert sprt.llr_trinomial(0, 0, 9) == pytest.approx(9 * math.log((1 - s1) / (1 - s0)), abs=1e-9)
    # only draws: H0 (mean 0.5) explains them fully, H1 needs some wins
    assert sprt.llr_trinomial(0, 9, 0) == pytest.approx(
        direct_trinomial_max(0, 9, 0, s1) - direct_trinomial_max(0, 9, 0, s0), abs=1e-6)
    assert sprt.llr_trinomial(0, 9, 0) < 0
    # every pair scoring 1: H0 explains them fully; H1 needs 2-point pairs, 2 s1 - 1 of them
    assert sprt.llr_pentanomial([0, 0, 7, 0, 0]) == pytest.approx(
        7 * math.log(1 - (2 * s1 - 1)), abs=1e-9)
    with pytest.raises(ValueError):
        sprt.llr_pentanomial([1, 2])


def test_signs_and_mirror_symmetry():
    sprt = Sprt(0, 10)
    assert score_of(10) < 0.53
    assert sprt.llr_trinomial(60, 26, 40) > 0  # 58.1% > L(10)
    assert sprt.llr_trinomial(40, 26, 60) < 0
    assert sprt.llr_pentanomial([2, 10, 20, 15, 5]) > 0
    # mirrored results against mirrored hypotheses: the opposite LLR
    assert Sprt(-10, 0).llr_trinomial(40, 26, 60) == pytest.approx(-sprt.llr_trinomial(60, 26, 40))
    assert Sprt(-10, 0).llr_pentanomial([5, 15, 20, 10, 2]) == pytest.approx(
        -sprt.llr_pentanomial([2, 10, 20, 15, 5]))


def moments(counts, scores):
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, scores)) / n
    return mean, sum(c * (x - mean) ** 2 for c, x in zip(counts, scores)) / n, n


@pytest.mark.parametrize("wdl", [(1300, 1500, 1200), (2100, 1000, 1900), (1250, 2600, 1150),
                                 (900, 2300, 800)])
def test_large_samples_agree_with_the_normal_approximation(wdl):
    sprt = Sprt(0, 10)
    mean, variance, n = moments(wdl[::-1], [0, 0.5, 1])
    approx = llr_normal_approx(mean, variance, n, 0, 10)
    assert abs(approx) > 1
    assert sprt.llr_trinomial(*wdl) == pytest.approx(approx, rel=0.03)


def test_large_pentanomial_samples_agree_with_the_normal_approximation():
    counts = [150, 600, 1100, 700, 170]
    mean, variance, n = moments(counts, PAIRS)
    approx = llr_normal_approx(mean, variance, n, -5, 5)
    assert approx > 1
    assert Sprt(-5, 5).llr_pentanomial(counts) == pytest.approx(approx, rel=0.03)


def first_decision(pattern, sprt, paired=False, limit=20000):
    """Play PATTERN over and over; the (game count, decision) of the first decision, from the
    test's own loop over the games (and the games at which the normal approximation decides)."""
    wins = draws = losses = 0
    pairs = [0] * 5
    approx_at = None
    points = []
    for game in range(1, limit + 1):
        point = pattern[(game - 1) % len(pattern)]
        points.append(point)
        wins, draws, losses = wins + (point == 1), draws + (point == 0.5), losses + (point == 0)
        if paired:
            if game % 2:
                continue
            pairs[int(2 * (points[-1] + points[-2]))] += 1
            llr = sprt.llr_pentanomial(pairs)
            mean, variance, n = moments(pairs, PAIRS)
        else:
            llr = sprt.llr_trinomial(wins, draws, losses)
            mean, variance, n = moments((losses, draws, wins), (0, 0.5, 1))
        if approx_at is None and variance > 0 and sprt.decide(
                llr_normal_approx(mean, variance, n, sprt.elo0, sprt.elo1)):
            approx_at = game
        decision = sprt.decide(llr)
        if decision:
            return game, decision, approx_at
    raise AssertionError("no decision")


def test_a_sixty_percent_candidate_is_accepted_stronger():
    sprt = Sprt(0, 20)
    game, decision, approx_at = first_decision([1, 0.5, 1, 0, 0.5], sprt)  # 60%
    assert decision == "H1"
    assert 30 < game < 400
    # the GSPRT and the normal approximation cross at about the same game
    assert approx_at is not None and abs(game - approx_at) <= 0.25 * game


def test_an_even_candidate_is_rejected():
    sprt = Sprt(0, 20)
    game, decision, approx_at = first_decision([1, 0, 0.5, 0.5], sprt)  # 50%
    assert decision == "H0"
    assert 100 < game < 4000
    assert approx_at is not None and abs(game - approx_at) <= 0.25 * game


def test_paired_games_decide_too():
    sprt = Sprt(0, 20)
    # each opening: the candidate wins one side and draws or wins the other, loses now and then
    game, decision, _ = first_decision([1, 0.5, 1, 1, 0, 0.5, 1, 0, 0.5, 0.5], sprt, paired=True)
    assert decision == "H1" and game % 2 == 0
    # every opening won by the same colour: every pair scores 1, an even match
    game, decision, _ = first_decision([1, 0, 0, 1], sprt, paired=True)
    assert decision == "H0" and game < 200


@pytest.mark.parametrize("counts, scores", [([15, 25, 60], [0, 0.5, 1]), ([0, 2, 3], [0, 0.5, 1]),
                                            ([4, 1, 0], [0, 0.5, 1]), ([0, 0, 3, 4, 0], PAIRS),
                                            ([0, 0, 7, 0, 0], PAIRS), ([1, 3, 10, 14, 6], PAIRS)])
@pytest.mark.parametrize("mean", [0.3, 0.5, score_of(20), 0.8])
def test_the_constrained_distribution_is_one_with_the_mean(counts, scores, mean):
    p = mle_distribution(counts, scores, mean)
    assert min(p) >= 0 and sum(p) == pytest.approx(1, abs=1e-12)
    assert sum(q * x for q, x in zip(p, scores)) == pytest.approx(mean, abs=1e-12)
    # and no distribution with that mean is more likely: small moves along the constraint
    base = loglik(counts, p)
    k = len(p)
    for i in range(k):
        for j in range(k):
            for m in range(k):
                if len({i, j, m}) < 3:
                    continue
                # move mass among three outcomes keeping the total and the mean
                xi, xj, xm = scores[i], scores[j], scores[m]
                step = 1e-4
                moved = list(p)
                moved[i] += step * (xm - xj)
                moved[j] += step * (xi - xm)
                moved[m] += step * (xj - xi)
                if min(moved) >= 0:
                    assert loglik(counts, moved) <= base + 1e-12

"""The heavy playout policy's answers to the last move, sampled straight from the C core."""
from engines.go import GoEngine
from engines.go._core import ffi, lib

HEAVY = 1
SAMPLES = 2000


def policy_shares(stones, last, color_to_move="b"):
    """Share of SAMPLES heavy-policy draws that pick each point, after `stones` ((color, point)
    pairs) and then `last` (the opponent's move that the policy answers)."""
    with GoEngine(size=9, seed=1) as e:
        for color, point in stones + [last]:
            e.play(color, point)
        assert e.to_move == color_to_move
        counts = ffi.new("int[]", 82)
        lib.go_game_policy_counts(e._game, HEAVY, SAMPLES, 7, counts)
        shares = {(i % 9, i // 9): counts[i] / SAMPLES for i in range(81) if counts[i]}
        assert sum(counts[i] for i in range(82)) == SAMPLES
        return shares


def test_ataris_a_two_liberty_chain_that_cannot_escape():
    # White's E5 between black D5 and F5, with black D4 and F4 under them: black above at E6
    # puts it in atari, and running to E4 leaves it one liberty. Black below at E4 would let
    # it out at E6 (three liberties), so only E6 is the race-winning atari.
    black = [("b", p) for p in [(3, 4), (5, 4), (3, 5), (5, 5)]]
    shares = policy_shares(black, ("w", (4, 4)))
    assert shares.get((4, 3), 0) > 0.8, shares
    assert shares.get((4, 5), 0) < 0.1, shares


def test_extends_an_own_chain_down_to_two_liberties():
    # Black's E5 between white D5 and F5 (just played): extending up or down gives it three
    # liberties or more.
    stones = [("b", (4, 4)), ("w", (3, 4))]
    shares = policy_shares(stones, ("w", (5, 4)))
    assert shares.get((4, 3), 0) + shares.get((4, 5), 0) > 0.8, shares

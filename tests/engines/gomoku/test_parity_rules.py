"""Parity: the C core and the readable rules (engines/gomoku/rules.py) agree on random games.

Every ply compares the legal moves, the forbidden points (renju), the result (winner, game
over, winning line), the side to move and the Zobrist hash; every few plies the whole board.
Undo is mixed in, and now and then an illegal move is tried on both and must be refused with
the same exception class and message. Moves are drawn near the stones already on the board
most of the time, so that fours, threes, overlines and forbidden points come up often and the
games end in a five well before the board fills; small boards are played too so that full-board
draws happen.
"""
import random

import pytest

from tests.engines.parity import scaled

from engines.gomoku import GomokuEngine, rules


def _compare(engine, game, board=False):
    assert engine.hash() == game.hash()
    assert engine.to_move == game.to_move
    assert engine.is_over == game.is_over
    assert engine.winner == game.winner
    assert engine.winning_line == game.winning_line
    assert engine.legal_moves() == game.legal_moves()
    assert engine.forbidden_points() == game.forbidden_points()
    if board:
        assert engine.board() == game.grid


def _near(game, rng, legal):
    """A legal move within two points of a random stone, or any legal move."""
    if game.history and rng.random() < 0.85:
        x, y = rng.choice(game.history)
        near = [p for p in legal if abs(p[0] - x) <= 2 and abs(p[1] - y) <= 2]
        if near:
            return rng.choice(near)
    return rng.choice(legal)


def _try_illegal(engine, game, rng):
    """An occupied, forbidden, off-board or after-the-end move: the same refusal from both."""
    candidates = list(game.history[-3:]) + game.forbidden_points()[:2] + [(-1, 3), (game.size, 0)]
    point = rng.choice(candidates)
    expected = game.why_illegal(point)
    got = engine.why_illegal(point)
    assert type(got) is type(expected) and str(got) == str(expected), point
    if expected is not None:
        with pytest.raises(type(expected), match=f"^{expected.reason}"):
            engine.play(point)


def _random_game(size, rule, seed):
    rng = random.Random(seed)
    engine, game = GomokuEngine(size, rule), rules.Game(size, rule)
    plies = 0
    while not game.is_over:
        legal = game.legal_moves()
        move = _near(game, rng, legal)
        engine.play(move)
        game.play(move)
        plies += 1
        if rng.random() < 0.05:
            assert engine.undo() == game.undo()
        if rng.random() < 0.1:
            _try_illegal(engine, game, rng)
        _compare(engine, game, board=plies % 10 == 0)
    _try_illegal(engine, game, rng)
    _compare(engine, game, board=True)
    assert engine.moves() == game.history
    engine.close()
    return plies, game.winner


# Games per (rule, size), about 10 s in all on one core; the reference's renju checks are the
# slow part. SOLOSHOP_PARITY_SCALE=10 multiplies them for a one-off longer run
# (tests/engines/parity.py).
GAMES = {"freestyle": {15: 200, 20: 80, 7: 250}, "standard": {15: 200, 20: 80, 7: 250},
         "renju": {15: 32, 20: 18, 7: 60}}


@pytest.mark.parametrize("rule", rules.RULES)
@pytest.mark.parametrize("size", [15, 20, 7])
def test_random_games_agree(rule, size):
    plies, outcomes, games = 0, set(), scaled(GAMES[rule][size])
    for i in range(games):
        n, winner = _random_game(size, rule, seed=f"{rule}-{size}-{i}")
        plies += n
        outcomes.add(winner)
    assert plies > games * 8               # the games really were played out
    assert {"b", "w"} <= outcomes          # both colours won some


def test_zobrist_keys_are_the_same_numbers():
    from engines.gomoku._core import lib
    for color in ("b", "w"):
        for x, y in [(0, 0), (19, 0), (0, 19), (19, 19), (7, 11)]:
            code = lib.GM_BLACK if color == "b" else lib.GM_WHITE
            assert lib.gm_zobrist_stone(code, x, y) == rules.zobrist_key(color, (x, y))
    assert lib.gm_zobrist_white_to_move() == rules.ZOBRIST_WHITE_TO_MOVE

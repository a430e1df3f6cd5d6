"""Parity: the C core and the readable rules (engines/go/rules.py) agree on random games.

Every ply compares the legal moves (all of them, or random probes in the larger share of
games to keep the suite fast), the captured points, the ko point, the Zobrist hash, capture
counts and the board; undo is mixed in; the final Tromp-Taylor score must match.
"""
import random

import pytest

from tests.engines.parity import scaled

from engines.go import GoEngine, IllegalMove, rules


def _compare(engine, game, board=True):
    pos = game.position
    assert engine.ko == pos.ko
    assert engine.hash() == pos.hash()
    assert engine.captures == pos.captures
    assert engine.to_move == pos.to_move
    if board:
        assert engine.board() == pos.grid


def _random_game(size, seed, superko, full_legal):
    rng = random.Random(seed)
    engine = GoEngine(size=size, komi=7.0, superko=superko, seed=seed)
    game = rules.Game(size, komi=7.0, superko=superko)
    plies = 0
    for _ in range(size * size * 2):
        color = game.position.to_move
        if rng.random() < 0.02:                 # sometimes out of turn, as GTP allows
            color = rules.other(color)
        legal = engine.legal_moves(color)
        if full_legal:
            assert legal == game.legal_moves(color), f"ply {plies}"
        else:
            probes = [(rng.randrange(size), rng.randrange(size)) for _ in range(4)]
            if game.position.ko:
                probes.append(game.position.ko)
            for p in probes:
                assert engine.is_legal(color, p) == (game.why_illegal(color, p) is None), p
            for p in probes:                      # the reasons agree too
                reason = game.why_illegal(color, p)
                if reason:
                    with pytest.raises(IllegalMove, match=f"^{reason}"):
                        engine.play(color, p)
                    break
        move = None if (not legal or rng.random() < 0.03) else rng.choice(legal)
        captured = engine.play(color, move)
        assert sorted(captured) == game.play(color, move)
        plies += 1
        if rng.random() < 0.03:
            assert engine.undo() == game.undo()
        _compare(engine, game, board=plies % 8 == 0)
        if game.over:
            break
    _compare(engine, game)
    assert engine.tromp_taylor_score() == game.tromp_taylor_score()
    assert len(engine.moves()) == len(game.history)
    engine.close()
    return plies


# 1,200 games on 9x9, 250 on 13x13 and 40 on 19x19, in chunks that run in parallel under
# `make check` (-n 2, half of each chunk: tests/engines/parity.py); game i of a size is the
# same game whichever chunk plays it.
CHUNKS = [(9, first, 300, 15) for first in (0, 300, 600, 900)] + \
    [(13, first, 125, 40) for first in (0, 125)] + [(19, 0, 40, 40)]


@pytest.mark.parametrize("size,first,games,full_every", CHUNKS)
def test_random_games_agree(size, first, games, full_every):
    plies, games = 0, scaled(games)
    for i in range(first, first + games):
        plies += _random_game(size, seed=1000 * size + i, superko=i % 3 == 0,
                              full_legal=i % full_every == 0)
    assert plies > games * size  # the games really were played out


def test_superko_refuses_a_repeated_position():
    """After a ko capture and two passes simple ko allows the retake; positional superko does
    not, because the retake recreates the position from before the capture."""
    moves = [("b", (1, 0)), ("w", (2, 0)), ("b", (0, 1)), ("w", (3, 1)), ("b", (1, 2)),
             ("w", (2, 2)), ("b", (2, 1)), ("w", (1, 1))]   # white captures the ko stone
    for superko in (False, True):
        engine = GoEngine(size=5, superko=superko)
        game = rules.Game(5, superko=superko)
        for color, point in moves:
            assert engine.play(color, point) == game.play(color, point)
        assert engine.ko == game.position.ko == (2, 1)
        with pytest.raises(IllegalMove, match="^ko"):
            engine.play("b", (2, 1))
        for color in ("b", "w"):                 # both pass: the ko is no longer active
            engine.play(color, None)
            game.play(color, None)
        assert engine.ko is None
        assert engine.is_legal("b", (2, 1)) is (not superko)
        assert (game.why_illegal("b", (2, 1)) is None) is (not superko)
        if superko:
            with pytest.raises(IllegalMove, match="^superko"):
                engine.play("b", (2, 1))
        else:
            assert engine.play("b", (2, 1)) == game.play("b", (2, 1)) == [(1, 1)]
        engine.close()

"""Parity: the C core (engine.py) and the readable rules (engines/quoridor/rules.py) agree on
random games with random walls, on 5x5, 7x7 and 9x9, with either edge-diagonal variant.

The suite plays 680 games in about 6 s of CPU (SOLOSHOP_PARITY_SCALE multiplies them: tests/engines/parity.py). Every ply compares the legal pawn moves, both path lengths and shortest paths, the Zobrist hash, the winner, the
walls left and the side to move; the full legal-wall list on every ply of the small boards
and on a share of 9x9 plies (random probes of every kind of wall otherwise); refusals of
random moves by exception class; undo is mixed in. The contact-point shortcut of the C
legality check is compared with the full path check, and its contact count with rules.py's.
"""
import random

import pytest

from tests.engines.parity import scaled

from engines.quoridor import QuoridorEngine, rules


def _compare(engine, game, full_walls, rng):
    assert engine.hash() == game.hash()
    assert engine.to_move == game.to_move and engine.walls_left == game.walls_left
    assert engine.pawns == game.pawns and engine.walls == game.walls
    assert engine.winner == game.winner
    assert engine.legal_pawn_moves() == game.legal_pawn_moves()
    for player in (0, 1):
        assert engine.path_length(player) == game.path_length(player)
        assert engine.shortest_path(player) == game.shortest_path(player)
    m = game.size - 1
    if full_walls:
        assert engine.legal_walls() == game.legal_walls()
        probes = [(x, y, o) for o in "hv" for y in range(m) for x in range(m)]
    else:
        probes = [(rng.randrange(m), rng.randrange(m), rng.choice("hv")) for _ in range(3)]
    for wall in probes:
        why = game.why_wall_illegal(wall)
        assert engine.why_illegal(wall) is why, wall
        assert engine.why_illegal_full(wall) is why, wall      # the shortcut changes nothing
        if full_walls and why in (None, rules.WallBlocksPath):
            assert engine.wall_contacts(wall) == game.wall_contacts(wall), wall


def _pick(engine, game, rng):
    """A random legal move, pawn steps mostly toward the goal so that games end."""
    walls = engine.legal_walls() if rng.random() < 0.35 else []
    if walls:
        return rng.choice(walls)
    pawn = engine.legal_pawn_moves()
    if not pawn:
        return None
    if rng.random() < 0.6:
        dist = engine.distances(game.to_move)
        best = min(dist[y][x] for x, y in pawn)
        pawn = [(x, y) for x, y in pawn if dist[y][x] == best]
    return rng.choice(pawn)


def _try_illegal(engine, game, rng):
    """A random move that may be illegal: both refuse it with the same exception, or both play."""
    n = game.size
    move = (rng.randrange(-1, n), rng.randrange(n)) if rng.random() < 0.5 else \
        (rng.randrange(n - 1), rng.randrange(n - 1), rng.choice("hv"))
    errors = []
    for side in (engine, game):
        try:
            side.play(move)
            errors.append(None)
        except rules.IllegalMove as exc:
            assert rules.move_name(move) in str(exc) or move[0] < 0
            errors.append(type(exc))
    assert errors[0] is errors[1], (move, errors)


def _random_game(size, seed, full_every):
    rng = random.Random(seed)
    walls = rng.choice([None, None, rules.default_walls(size) * 2, 1])
    edge = rng.random() < 0.5
    engine, game = QuoridorEngine(size, walls, edge), rules.Game(size, walls, edge)
    plies = 0
    for ply in range(200):
        _compare(engine, game, full_walls=ply % full_every == 0, rng=rng)
        if game.winner is not None:
            _try_illegal(engine, game, rng)
            break
        if rng.random() < 0.1:
            _try_illegal(engine, game, rng)
            continue
        move = _pick(engine, game, rng)
        if move is None:
            break
        engine.play(move)
        game.play(move)
        plies += 1
        if rng.random() < 0.05:
            assert engine.undo() == game.undo()
    assert engine.moves() == game.moves()
    while game.undo():                        # undo all the way back to the start
        assert engine.undo()
        assert engine.hash() == game.hash()
    assert not engine.undo()
    assert engine.hash() == rules.Game(size, walls, edge).hash()
    return plies


# A longer one-off run: SOLOSHOP_PARITY_SCALE=10 plays ten times the games.


@pytest.mark.parametrize("size,games,full_every", [(5, 600, 12), (7, 60, 12), (9, 20, 30)])
def test_random_games_agree(size, games, full_every):
    games = scaled(games)
    plies = sum(_random_game(size, seed=1000 * size + i, full_every=full_every)
                for i in range(games))
    assert plies > games * (size - 1)        # the games really were played out

"""Parity: the core's threat map (gm_board_threats, threats.c) and the readable classifier
(engines/web/gomoku/threats.py) agree on random positions of every rule and size, for both
colours and at a third of the plies and the final one (renju: black's forbidden points left out by both); the kind names
are the same list."""
import random

import pytest

from engines.gomoku import GomokuEngine
from engines.gomoku.engine import THREAT_KINDS
from engines.web.gomoku import threats as reference
from tests.engines.parity import scaled


def _near_move(engine, rng, played):
    legal = engine.legal_moves()
    if played and rng.random() < 0.85:
        x, y = rng.choice(played)
        near = [p for p in legal if abs(p[0] - x) <= 2 and abs(p[1] - y) <= 2]
        if near:
            return rng.choice(near)
    return rng.choice(legal)


def _expected(engine, rule, color):
    rows = ["".join(row) for row in engine.board()]
    excluded = engine.forbidden_points() if rule == "renju" and color == "b" else ()
    return reference.threats(rows, color, rule, excluded)


def test_the_kind_names_are_the_reference_list():
    assert THREAT_KINDS == reference.KINDS


def _random_games(rule, games, seen):
    for seed in range(games):
        rng = random.Random(f"{rule}-{seed}")
        size = rng.choice([15, 20, 9, 15])
        with GomokuEngine(size=size, rule=rule, tt_megabytes=1) as engine:
            played = []
            while not engine.is_over:
                for color in "bw" if rng.random() < 0.35 else "":
                    got = engine.threats(color)
                    assert got == _expected(engine, rule, color), (rule, seed, played, color)
                    seen.update(kind for _, kind in got)
                move = _near_move(engine, rng, played)
                engine.play(move)
                played.append(move)
            # The final position too (a five on the board: fives and overlines around it).
            for color in "bw":
                assert engine.threats(color) == _expected(engine, rule, color)


def test_random_positions_agree():
    seen = set()
    for rule in ("freestyle", "standard", "renju"):
        _random_games(rule, scaled(8), seen)
    assert seen == set(THREAT_KINDS), seen        # every kind came up


def test_a_bad_color_is_refused():
    with GomokuEngine(size=15) as engine, pytest.raises(ValueError, match="'b' or 'w'"):
        engine.threats("x")

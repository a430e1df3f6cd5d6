"""Pure parsing of records, budgets and SGF, with no engine."""
import pytest

from engines.web import DEFAULT_CONFIG
from engines.web.errors import ApiError
from engines.web.go.record import (RESIGN, Budget, GoGame, game_from_sgf, game_over, game_to_sgf,
                                   parse_budget, parse_game)


def test_moves_in_every_notation_become_points():
    game = parse_game({"size": 9, "moves": ["D4", "pass", [2, 2], None, "e5", "PASS", "resign"]}, 100)
    assert game.moves == ((3, 5), None, (2, 2), None, (4, 4), None, RESIGN)
    assert (game.komi, game.superko) == (7.0, False)
    assert game.to_json()["moves"] == ["D4", "pass", "C7", "pass", "E5", "pass", "resign"]


def test_colours_alternate_from_black():
    game = GoGame(9, 7.0, False, ((3, 3),))
    assert (game.color(0), game.color(1), game.to_move) == ("b", "w", "w")


@pytest.mark.parametrize("moves, over", [
    ((), False), ((None,), False), (((1, 1), None), False), ((None, None), True),
    (((1, 1), RESIGN), True), ((None, (1, 1), None), False),
])
def test_two_passes_or_a_resignation_end_the_game(moves, over):
    assert game_over(moves) is over


def test_budget_defaults_and_caps():
    assert parse_budget(None, DEFAULT_CONFIG) == Budget(DEFAULT_CONFIG["DEFAULT_PLAYOUTS"], 1.0)
    assert parse_budget({"seconds": 0.5}, DEFAULT_CONFIG) == Budget(playouts=20_000, seconds=0.5)
    assert parse_budget({"playouts": 20_000}, DEFAULT_CONFIG) == Budget(20_000, 1.0)
    with pytest.raises(ApiError, match="cap of 20000"):
        parse_budget({"playouts": 20_001}, DEFAULT_CONFIG)


def test_sgf_round_trip_keeps_moves_passes_komi_and_resignation():
    game = GoGame(13, 6.5, False, ((3, 3), None, (12, 0), (0, 12), RESIGN))
    text = game_to_sgf(game, "W+R")  # Black resigned at move 5
    assert "SZ[13]" in text and "KM[6.5]" in text and "RE[W+R]" in text
    assert game_from_sgf(text, 100) == game


def test_sgf_resignation_needs_the_loser_to_move():
    # White to move after one black move and W+R: the result does not describe a resignation
    # by the side to move, so no resign move is invented.
    assert game_from_sgf("(;GM[1]SZ[9]RE[W+R];B[cc])", 100).moves == ((2, 2),)

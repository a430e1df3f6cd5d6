"""Malformed requests get a 400 that names the bad field; budgets and sizes are capped.

None of these reach the engine: they are refused before a board exists."""
import pytest

GOOD_GAME = {"size": 9, "komi": 7.0, "moves": ["D4", "pass", [2, 2], None]}


@pytest.mark.parametrize("body, field, words", [
    ({}, "body", "'game' is a required property"),
    ({"game": {"moves": []}}, "game", "'size' is a required property"),
    ({"game": {"size": 29, "moves": []}}, "game.size", "maximum of 19"),
    ({"game": {"size": 4, "moves": []}}, "game.size", "minimum of 5"),
    ({"game": {"size": "9", "moves": []}}, "game.size", "not of type 'integer'"),
    ({"game": {"size": 9, "komi": 1000, "moves": []}}, "game.komi", "maximum"),
    ({"game": {"size": 9, "moves": "D4 E5"}}, "game.moves", "not of type 'array'"),
    ({"game": {"size": 9, "moves": ["D4", "Z99"]}}, "game.moves[1]", "GTP vertex"),
    ({"game": {"size": 9, "moves": ["D4", "I3"]}}, "game.moves[1]", "GTP vertex"),
    ({"game": {"size": 9, "moves": ["D4", "E5", "K1"]}}, "game.moves[2]", "off a 9x9 board"),
    ({"game": {"size": 9, "moves": ["D4", "E5", "A10"]}}, "game.moves[2]", "off a 9x9 board"),
    ({"game": {"size": 9, "moves": [[3, 9]]}}, "game.moves[0]", "off a 9x9 board"),
    ({"game": {"size": 9, "moves": [[3, 4, 5]]}}, "game.moves[0]", "is too long"),
    ({"game": {"size": 9, "moves": ["resign", "D4"]}}, "game.moves[0]", "must be the last move"),
    ({"game": {"size": 9, "moves": [], "colour": "b"}}, "game", "'colour' was unexpected"),
])
def test_malformed_game_names_the_field(client, body, field, words):
    response = client.post("/api/go/state", json=body)
    assert response.status_code == 400
    error = response.get_json()
    assert error["field"] == field
    assert words in error["error"]


def test_body_that_is_not_json(client):
    response = client.post("/api/go/state", data="moves=D4", content_type="text/plain")
    assert response.status_code == 400
    assert response.get_json()["field"] == "body"


def test_too_many_moves_is_capped(app):
    app.config["MAX_MOVES"] = 3
    response = app.test_client().post("/api/go/state", json={"game": {**GOOD_GAME, "moves": ["pass"] * 4}})
    assert response.status_code == 400
    assert response.get_json()["field"] == "game.moves"
    assert "cap of 3" in response.get_json()["error"]


@pytest.mark.parametrize("path", ["/api/go/genmove", "/api/go/analyze"])
@pytest.mark.parametrize("budget, field, words", [
    ({"playouts": 20_001}, "budget.playouts", "cap of 20000"),
    ({"seconds": 1.5}, "budget.seconds", "cap of 1.0"),
    ({"playouts": 0}, "budget.playouts", "minimum of 1"),
    ({"seconds": 0}, "budget.seconds", "less than or equal to the minimum"),
    ({"minutes": 3}, "budget", "'minutes' was unexpected"),
])
def test_oversized_or_bad_budget_is_refused(client, path, budget, field, words):
    response = client.post(path, json={"game": GOOD_GAME, "budget": budget})
    assert response.status_code == 400
    error = response.get_json()
    assert (error["field"], words in error["error"]) == (field, True), error


def test_play_needs_a_move(client):
    response = client.post("/api/go/play", json={"game": GOOD_GAME})
    assert response.status_code == 400
    assert "'move' is a required property" in response.get_json()["error"]


@pytest.mark.parametrize("sgf, words", [
    ("no tree here", "no game tree"),
    ("(;GM[1]SZ[9];B[cc];W[zz])", "off a 9x9 board"),
    ("(;GM[1]SZ[25];B[cc])", "outside the arcade's 5..19"),
    ("(;GM[1]SZ[9]AB[aa];B[cc])", "setup stones"),
    ("(;GM[1]SZ[9];B[cc];B[dd])", "out of turn"),
    ("(;GM[3]SZ[9];B[cc])", "not a Go game"),
])
def test_bad_sgf_names_the_problem(client, sgf, words):
    response = client.post("/api/go/sgf/import", json={"sgf": sgf})
    assert response.status_code == 400
    error = response.get_json()
    assert error["field"] == "sgf" and words in error["error"], error

"""The Quoridor API against the compiled engine: replay, legal pawn squares (jumps and
diagonals), refused walls with their reasons, paths, wins, search, records; every answer
checked against the OpenAPI document, every malformed request a 400 naming the field."""
import pytest

from engines.quoridor import rules
from tests.engines.web.spec import assert_conforms

FAST = {"nodes": 3000}
FACE_TO_FACE = ["e2", "e8", "e3", "e7", "e4", "e6", "e5"]      # player 2 to move, facing e5
WALL_BEHIND = ["e2", "e8", "e3", "e7", "e4", "e6", "e5", "e6h"]  # player 1 faces e6, wall behind
RACE_5X5 = ["c2", "b5", "c3", "b4", "c4", "a4", "c5"]           # player 1 reaches row 5


def post(client, path, body):
    response = client.post(path, json=body)
    return response, assert_conforms(response, path)


def game(moves, size=9, **extra):
    return {"size": size, "moves": moves, **extra}


def reference(moves, size=9):
    """The readable rules' view of the same record."""
    g = rules.Game(size)
    for move in moves:
        g.play(move)
    return g


def test_state_replays_pawns_walls_and_walls_left(client):
    _, state = post(client, "/api/quoridor/state", {"game": game(["e2", "e8", "e3v"])})
    last = state["positions"][-1]
    assert [p["pawns"] for p in state["positions"]][:2] == [["e1", "e9"], ["e2", "e9"]]
    assert last["walls"] == ["e3v"] and last["walls_left"] == [9, 10] and last["to_move"] == 1
    assert state["walls"] == 10 and state["edge_diagonal"] is True and not state["over"]


@pytest.mark.parametrize("moves", [FACE_TO_FACE, WALL_BEHIND, ["e2", "e8", "e3v", "e7h"]])
def test_legal_pawn_squares_are_the_rules_including_jumps_and_diagonals(client, moves):
    _, state = post(client, "/api/quoridor/state", {"game": game(moves)})
    expected = [rules.square_name(s) for s in reference(moves).legal_pawn_moves()]
    assert sorted(state["positions"][-1]["pawn_moves"]) == sorted(expected)


def test_a_jump_and_the_diagonals_beside_a_wall(client):
    _, jump = post(client, "/api/quoridor/state", {"game": game(FACE_TO_FACE)})
    assert "e4" in jump["positions"][-1]["pawn_moves"]               # straight over e5
    _, side = post(client, "/api/quoridor/state", {"game": game(WALL_BEHIND)})
    squares = side["positions"][-1]["pawn_moves"]
    assert {"d6", "f6"} <= set(squares) and "e7" not in squares


def test_an_unreachable_square_is_refused_with_the_reason(client):
    response, error = post(client, "/api/quoridor/play", {"game": game(["e2"]), "move": "e7"})
    assert response.status_code == 422
    assert error["error"] == "move 2 (e7) by player 2 is illegal: the pawn to move cannot reach it"


@pytest.mark.parametrize("moves, wall, reason", [
    (["e3v"], "e3h", "crosses a wall"),
    (["e3v"], "e4v", "overlaps a wall"),
    (["e3h"], "f3h", "overlaps a wall"),
])
def test_refused_walls_are_listed_and_refused_with_the_reason(client, moves, wall, reason):
    _, state = post(client, "/api/quoridor/state", {"game": game(moves)})
    assert state["positions"][-1]["illegal_walls"][wall] == reason
    response, error = post(client, "/api/quoridor/play", {"game": game(moves), "move": wall})
    assert response.status_code == 422 and error["reason"] == reason


def test_a_wall_that_blocks_every_path_is_refused(client):
    moves = ["a2h", "c2h"]            # player 1's column e remains, and d1v would close it
    _, state = post(client, "/api/quoridor/state", {"game": game(moves, size=5)})
    assert state["positions"][-1]["illegal_walls"]["d1v"] == "blocks every path of a pawn to its goal row"
    response, error = post(client, "/api/quoridor/play", {"game": game(moves, size=5), "move": "d1v"})
    assert response.status_code == 422 and "blocks every path" in error["error"]


def test_no_walls_left_refuses_every_wall(client):
    _, state = post(client, "/api/quoridor/state", {"game": game([], walls=0)})
    assert state["positions"][0]["walls_refused"] == "no walls left"
    response, error = post(client, "/api/quoridor/play", {"game": game([], walls=0), "move": "e3h"})
    assert response.status_code == 422 and error["reason"] == "no walls left"


def test_paths_are_shortest_paths_of_the_reference_length(client):
    moves = ["e2", "e8", "e3v", "d7h", "e5h"]
    _, state = post(client, "/api/quoridor/state", {"game": game(moves)})
    last, ref = state["positions"][-1], reference(moves)
    for player in (0, 1):
        path = last["paths"][player]
        assert len(path) == ref.path_length(player)
        goal = "9" if player == 0 else "1"
        assert path[-1].endswith(goal)


def test_reaching_the_far_row_wins_and_nothing_may_follow(client):
    _, state = post(client, "/api/quoridor/state", {"game": game(RACE_5X5, size=5)})
    assert state["over"] and state["result"]["winner"] == 0 and state["result"]["by"] == "goal"
    assert state["positions"][-1]["pawn_moves"] == []
    response, error = post(client, "/api/quoridor/play", {"game": game(RACE_5X5, size=5), "move": "a3"})
    assert response.status_code == 422 and "the game is over" in error["error"]


def test_resignation_ends_the_game(client):
    _, state = post(client, "/api/quoridor/play", {"game": game(["e2"]), "move": "resign"})
    assert state["result"]["winner"] == 0 and state["result"]["by"] == "resignation"


def test_genmove_and_analyze(client):
    _, answer = post(client, "/api/quoridor/genmove", {"game": game(["e2"]), "budget": FAST})
    assert answer["state"]["moves"] == ["e2", answer["move"]]
    _, analysis = post(client, "/api/quoridor/analyze", {"game": game(["e2", "e8"]), "budget": FAST})
    assert analysis["player"] == 0 and analysis["candidates"] and 0 < analysis["first_share"] < 1
    assert analysis["pv"][0] == analysis["candidates"][0]["move"] and analysis["memory"] > 0


def test_text_record_round_trip(client):
    moves = ["d2", "d6", "d3v", "c5h"]
    _, exported = post(client, "/api/quoridor/record/export", {"game": game(moves, size=7)})
    assert "moves d2 d6 d3v c5h" in exported["text"] and "size 7" in exported["text"]
    _, loaded = post(client, "/api/quoridor/record/import", {"text": exported["text"]})
    assert loaded["game"] == {"size": 7, "walls": 6, "edge_diagonal": True, "moves": moves}


@pytest.mark.parametrize("text, words", [
    ("size 8\nmoves e2", "the arcade plays 5, 7 or 9"),
    ("size 9\nwalls many", "walls 'many'"),
    ("size 9\nmoves e2 zz", "move 2"),
    ("size 9\nmoves e2 e8 e2", "text.moves[2]"),
    ("game gomoku\nsize 15", "this is a 'gomoku' record"),
])
def test_a_bad_record_is_refused_with_what_is_wrong(client, text, words):
    response = client.post("/api/quoridor/record/import", json={"text": text})
    assert response.status_code == 400 and words in response.get_json()["error"], response.get_json()


@pytest.mark.parametrize("body, field, words", [
    ({"game": {"size": 8, "moves": []}}, "game.size", "is not one of [5, 7, 9]"),
    ({"game": {"size": 9, "moves": ["e2x"]}}, "game.moves[0]", "is not valid"),
    ({"game": {"size": 5, "moves": ["e6"]}}, "game.moves[0]", "off a 5x5 board"),
    ({"game": {"size": 5, "moves": ["e1h"]}}, "game.moves[0]", "off a 5x5 board (up to d4v)"),
    ({"game": {"size": 9, "walls": 21, "moves": []}}, "game.walls", "maximum of 20"),
    ({"game": {"size": 9, "moves": ["resign", "e2"]}}, "game.moves[0]", "must be the last move"),
    ({"game": {"size": 9, "moves": ["e2", "e2"]}}, "game.moves[1]", "cannot reach it"),
])
def test_malformed_game_names_the_field(client, body, field, words):
    response = client.post("/api/quoridor/state", json=body)
    assert response.status_code == 400
    assert response.get_json()["field"] == field and words in response.get_json()["error"], response.get_json()

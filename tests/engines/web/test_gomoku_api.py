"""The Gomoku API against the compiled engine: replay, refusals with reasons (occupied, renju's
forbidden points), wins, search, proofs, threats, records; every answer checked against the
OpenAPI document, every malformed request a 400 naming the field."""
import pytest

from engines.web import activity
from tests.engines.web.spec import assert_conforms

FAST = {"nodes": 3000}
# Black f8 g8 h9 h10: h8 would make two threes (renju's double-three); white far away.
DOUBLE_THREE = ["f8", "a1", "g8", "a3", "h9", "a5", "h10", "a7"]
OPEN_THREE = ["h8", "a1", "i8", "a3", "j8", "a5"]         # black to move: a proven win
BLACK_FIVE = ["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7", "l8"]


def post(client, path, body):
    response = client.post(path, json=body)
    return response, assert_conforms(response, path)


def game(moves, rule="freestyle", size=15):
    return {"size": size, "rule": rule, "moves": moves}


def test_state_replays_every_position_from_the_bottom_left_names(client):
    _, state = post(client, "/api/gomoku/state", {"game": game(["h8", [0, 0]])})
    assert state["moves"] == ["h8", "a15"]
    assert [p["ply"] for p in state["positions"]] == [0, 1, 2]
    assert state["positions"][1]["board"][7][7] == "b"      # h8: the centre of 15x15
    assert state["positions"][2]["board"][0][0] == "w"      # [0, 0]: the top-left point, a15
    assert state["to_move"] == "b" and not state["over"] and state["result"] is None
    assert all(p["forbidden"] == [] for p in state["positions"])


def test_an_occupied_point_is_refused_with_the_reason(client):
    response, error = post(client, "/api/gomoku/play", {"game": game(["h8"]), "move": "h8"})
    assert response.status_code == 422
    assert error["reason"] == "occupied" and "move 2 (h8) by white is illegal: occupied" in error["error"]


def test_renju_marks_and_refuses_black_forbidden_points(client):
    _, state = post(client, "/api/gomoku/state", {"game": game(DOUBLE_THREE, "renju")})
    assert state["positions"][-1]["forbidden"] == [{"move": "h8", "reason": "double-three"}]
    response, error = post(client, "/api/gomoku/play", {"game": game(DOUBLE_THREE, "renju"), "move": "h8"})
    assert response.status_code == 422
    assert (error["reason"], error["rule"]) == ("forbidden", "double-three")
    assert "forbidden for black (double-three)" in error["error"]


@pytest.mark.parametrize("rule", ["freestyle", "standard"])
def test_the_same_point_is_legal_without_renju(client, rule):
    response, state = post(client, "/api/gomoku/play", {"game": game(DOUBLE_THREE, rule), "move": "h8"})
    assert response.status_code == 200 and state["moves"][-1] == "h8"
    assert state["positions"][-2]["forbidden"] == []


def test_a_five_wins_and_draws_the_line_and_nothing_may_follow(client):
    _, state = post(client, "/api/gomoku/state", {"game": game(BLACK_FIVE)})
    assert state["over"] and state["result"]["winner"] == "b" and state["result"]["by"] == "five"
    assert state["result"]["line"] == ["h8", "i8", "j8", "k8", "l8"]
    response, error = post(client, "/api/gomoku/play", {"game": game(BLACK_FIVE), "move": "b2"})
    assert response.status_code == 422 and error["reason"] == "game over"
    response = client.post("/api/gomoku/genmove", json={"game": game(BLACK_FIVE)})
    assert response.status_code == 400 and "game is over" in response.get_json()["error"]


def test_an_overline_wins_in_freestyle_only(client):
    six = ["h8", "a1", "i8", "a3", "j8", "a5", "l8", "a7", "m8", "a9", "k8"]
    _, free = post(client, "/api/gomoku/state", {"game": game(six)})
    _, standard = post(client, "/api/gomoku/state", {"game": game(six, "standard")})
    assert free["result"]["winner"] == "b" and len(free["result"]["line"]) == 6
    assert standard["result"] is None and not standard["over"]


def test_resignation_ends_the_game(client):
    _, state = post(client, "/api/gomoku/play", {"game": game(["h8"]), "move": "resign"})
    assert state["result"] == {"winner": "b", "by": "resignation", "text": "B+R", "line": []}


def test_genmove_plays_a_legal_move_and_reports_its_search(client):
    _, answer = post(client, "/api/gomoku/genmove", {"game": game(["h8"], "renju"), "budget": FAST})
    state = answer["state"]
    assert state["moves"][:1] == ["h8"] and state["moves"][1] == answer["move"] != "h8"
    assert answer["analysis"]["color"] == "w" and answer["analysis"]["nodes"] > 0
    assert activity.open_engines() == 0


def test_analysis_proves_a_win_with_the_winning_sequence(client):
    _, analysis = post(client, "/api/gomoku/analyze", {"game": game(OPEN_THREE), "budget": {"seconds": 1.0}})
    proven = analysis["proven"]
    assert proven and proven["winner"] == "b" and analysis["black_share"] == 1.0
    assert proven["text"] == f"black wins in {proven['moves']}"
    # The sequence really wins: replayed through the API it ends in black's five.
    moves = OPEN_THREE + proven["sequence"]
    _, state = post(client, "/api/gomoku/state", {"game": game(moves)})
    assert state["result"]["winner"] == "b"


def test_analysis_of_an_even_position_has_candidates_and_a_pv(client):
    _, analysis = post(client, "/api/gomoku/analyze", {"game": game(["h8", "i9"]), "budget": FAST})
    assert analysis["proven"] is None and 0 < analysis["black_share"] < 1
    assert analysis["candidates"] and analysis["pv"][0] == analysis["candidates"][0]["move"]


def test_threats_of_each_side(client):
    _, answer = post(client, "/api/gomoku/threats", {"game": game(OPEN_THREE)})
    black = {t["move"]: t["kind"] for t in answer["threats"]["b"]}
    assert black["g8"] == black["k8"] == "open-four"
    assert answer["threats"]["w"] == [] or all(t["kind"] != "five" for t in answer["threats"]["w"])
    _, renju = post(client, "/api/gomoku/threats", {"game": game(DOUBLE_THREE, "renju")})
    assert "h8" not in {t["move"] for t in renju["threats"]["b"]}   # forbidden, not a threat
    _, free = post(client, "/api/gomoku/threats", {"game": game(DOUBLE_THREE)})
    assert {t["move"]: t["kind"] for t in free["threats"]["b"]}["h8"] == "three-three"


def test_text_record_and_gomocup_strings_round_trip(client):
    _, exported = post(client, "/api/gomoku/record/export", {"game": game(BLACK_FIVE, "renju")})
    assert "rule renju" in exported["text"] and "result B+5" in exported["text"]
    assert exported["gomocup"]["pos"] == "h8a1i8a3j8a5k8a7l8"
    assert exported["gomocup"]["offsets"].startswith("0,0, -7,7, 1,0")
    _, loaded = post(client, "/api/gomoku/record/import", {"text": exported["text"]})
    assert loaded["game"] == game(BLACK_FIVE, "renju") and loaded["state"]["over"]
    for text in (exported["gomocup"]["pos"], exported["gomocup"]["offsets"]):
        _, loaded = post(client, "/api/gomoku/record/import", {"text": text})
        assert loaded["game"]["moves"] == BLACK_FIVE


@pytest.mark.parametrize("text, words", [
    ("size 17\nmoves h8", "the arcade plays 15 or 20"),
    ("size 15\nrule caro\nmoves h8", "rule 'caro'"),
    ("size 15\ncolour black", "line 2: unknown key 'colour'"),
    ("game go\nsize 9", "line 1: this is a 'go' record"),
    ("size 15\nmoves h8 h8", "text.moves[1]"),
    ("0,0, 9,0", "offset 9,0 is off a 15x15 board"),
    ("hello there", "not a record"),
])
def test_a_bad_record_is_refused_with_what_is_wrong(client, text, words):
    response = client.post("/api/gomoku/record/import", json={"text": text})
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["field"].startswith("text") and words in response.get_json()["error"]


@pytest.mark.parametrize("body, field, words", [
    ({}, "body", "'game' is a required property"),
    ({"game": {"size": 17, "moves": []}}, "game.size", "is not one of [15, 20]"),
    ({"game": {"size": 15, "rule": "caro", "moves": []}}, "game.rule", "is not one of"),
    ({"game": {"size": 15, "moves": ["z9"]}}, "game.moves[0]", "is not valid"),
    ({"game": {"size": 15, "moves": ["h16"]}}, "game.moves[0]", "off a 15x15 board"),
    ({"game": {"size": 15, "moves": [[15, 0]]}}, "game.moves[0]", "off a 15x15 board"),
    ({"game": {"size": 15, "moves": ["resign", "h8"]}}, "game.moves[0]", "must be the last move"),
    ({"game": {"size": 15, "moves": [], "komi": 5}}, "game", "'komi' was unexpected"),
])
def test_malformed_game_names_the_field(client, body, field, words):
    response = client.post("/api/gomoku/state", json=body)
    assert response.status_code == 400
    assert response.get_json()["field"] == field and words in response.get_json()["error"], response.get_json()


def test_an_illegal_record_is_a_400_naming_the_move(client):
    response = client.post("/api/gomoku/state", json={"game": game(DOUBLE_THREE + ["h8"], "renju")})
    error = response.get_json()
    assert response.status_code == 400 and error["field"] == "game.moves[8]"
    assert "forbidden for black (double-three)" in error["error"]


@pytest.mark.parametrize("budget, field, words", [
    ({"seconds": 1.5}, "budget.seconds", "cap of 1.0"),
    ({"depth": 41}, "budget.depth", "cap of 40"),
    ({"nodes": 0}, "budget.nodes", "minimum of 1"),
    ({"playouts": 5}, "budget", "'playouts' was unexpected"),
])
def test_a_bad_budget_is_refused(client, budget, field, words):
    response = client.post("/api/gomoku/genmove", json={"game": game([]), "budget": budget})
    assert response.status_code == 400
    assert (response.get_json()["field"], words in response.get_json()["error"]) == (field, True)

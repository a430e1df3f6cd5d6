"""The Go API against the real engine: replay, captures, illegal moves, search, scoring, SGF.
Every answer is also checked against the OpenAPI document."""
from tests.engines.web.spec import assert_conforms, assert_lines_conform

TINY = {"playouts": 50}

# A ko on the top-left edge: Black's last move (C8) captures at B8; White may not retake at once.
KO_MOVES = [[1, 0], [2, 0], [0, 1], [1, 1], [1, 2], [3, 1], [6, 6], [2, 2], [2, 1]]

# Black walls off columns A-D, White columns E-J; White's stone at B5 is dead; then two passes.
WALLS = [m for row in range(9, 0, -1) for m in (f"D{row}", f"E{row}")]
SPLIT_GAME = WALLS + ["pass", "B5", "pass", "pass"]


def post(client, path, body):
    response = client.post(path, json=body)
    return response, assert_conforms(response, path)


def game(moves, size=9, **extra):
    return {"game": {"size": size, "komi": 7.0, "moves": moves, **extra}}


def test_state_replays_every_position(client):
    _, state = post(client, "/api/go/state", game(["D4", [4, 4]]))
    assert state["moves"] == ["D4", "E5"]
    assert [p["ply"] for p in state["positions"]] == [0, 1, 2]
    assert state["positions"][0]["board"] == ["." * 9] * 9
    assert state["positions"][1]["board"][5][3] == "b"  # D4: column D, fourth row from the bottom
    assert state["positions"][2]["board"][4][4] == "w"
    assert state["to_move"] == "b" and not state["over"] and state["result"] is None
    assert "pass" in state["legal"] and "D4" not in state["legal"] and "C3" in state["legal"]
    assert len(state["legal"]) == 81 - 2 + 1


def test_a_capture_is_counted_and_removed(client):
    _, state = post(client, "/api/go/state", game(["A1", "B1", "J9", "A2"]))
    last = state["positions"][-1]
    assert last["board"][8][0] == "."
    assert last["captures"] == {"b": 0, "w": 1}


def test_occupied_point_is_refused_with_the_reason(client):
    response, error = post(client, "/api/go/play", {**game(["E5"]), "move": "E5"})
    assert response.status_code == 422
    assert error["field"] == "move" and error["move_number"] == 2
    assert "move 2 (E5) by white is illegal" in error["error"]


def test_an_illegal_move_inside_a_record_names_its_number(client):
    response, error = post(client, "/api/go/state", game(["C3", "D4", "C3"]))
    assert response.status_code == 400
    assert error["field"] == "game.moves[2]"
    assert "move 3 (C3) by black is illegal" in error["error"]


def test_ko_retake_is_refused_and_the_ko_point_reported(client):
    _, state = post(client, "/api/go/state", game(KO_MOVES))
    assert state["positions"][-1]["ko"] == "B8"
    assert "B8" not in state["legal"]
    response, error = post(client, "/api/go/play", {**game(KO_MOVES), "move": "B8"})
    assert response.status_code == 422 and "ko" in error["reason"].lower()


def test_superko_flag_reaches_the_engine(client):
    _, state = post(client, "/api/go/state", game(KO_MOVES, superko=True))
    assert state["superko"] is True and state["moves"][-1] == "C8"


def test_suicide_is_refused(client):
    response, error = post(client, "/api/go/play", {**game(["E5", "B9", "F5", "A8"]), "move": "A9"})
    assert response.status_code == 422 and "A9" in error["error"]


def test_genmove_plays_a_legal_move_and_returns_the_new_state(client):
    _, before = post(client, "/api/go/state", game(["E5"]))
    _, answer = post(client, "/api/go/genmove", {**game(["E5"]), "budget": TINY})
    assert answer["move"] in before["legal"] or answer["move"] == "resign"
    assert answer["state"]["moves"] == ["E5", answer["move"]]
    assert len(answer["state"]["positions"]) == 3
    # The search that chose the move comes with it, for the position before the move.
    analysis = answer["analysis"]
    assert analysis["color"] == "w" and analysis["playouts"] > 0
    best = max(analysis["candidates"], key=lambda c: c["visits"])
    assert answer["move"] == best["move"] == analysis["pv"][0]


def test_analysis_has_candidates_pv_and_ownership(client):
    _, analysis = post(client, "/api/go/analyze", {**game(["E5", "C3"]), "budget": {"playouts": 400}})
    assert analysis["color"] == "b" and 0 <= analysis["winrate"] <= 1
    assert analysis["playouts"] > 0 and analysis["candidates"]
    visits = [c["visits"] for c in analysis["candidates"]]
    assert sum(visits) <= analysis["playouts"] + 1
    assert all(0 <= c["prior"] <= 1 for c in analysis["candidates"])
    assert len(analysis["ownership"]) == 9 and all(len(row) == 9 for row in analysis["ownership"])
    assert analysis["pv"] and analysis["pv"][0] in {c["move"] for c in analysis["candidates"]}


def test_the_arcade_searches_with_the_learned_network(client):
    """The server's engine uses the network's priors (as `engines gtp go` and the in-page
    engine do): its analysis is GoEngine(value=True)'s with the same seed, not the shapes'."""
    from engines.go import GoEngine
    from engines.go.coords import from_gtp, to_gtp

    moves = ["E5", "C3", "G4", "D7"]
    _, analysis = post(client, "/api/go/analyze", {**game(moves), "budget": {"playouts": 600}, "seed": 5})

    def engine_prior(value):
        with GoEngine(size=9, komi=7.0, seed=5, threads=1, value=value) as e:
            for m in moves:
                e.play(e.to_move, from_gtp(m, 9))
            raw = e.analyze(e.to_move, playouts=600)
        return [(to_gtp(c["move"], 9), c["visits"]) for c in raw["candidates"]]

    served = [(c["move"], c["visits"]) for c in analysis["candidates"]]
    assert served == engine_prior(True) and served != engine_prior(False)


def test_a_time_budget_works(client):
    _, analysis = post(client, "/api/go/analyze", {**game([]), "budget": {"seconds": 0.05}})
    assert analysis["playouts"] > 0


def test_two_passes_end_the_game_and_dead_stones_are_judged(client):
    _, state = post(client, "/api/go/state", game(SPLIT_GAME))
    assert state["over"] and state["legal"] == []
    # Area: Black 36 (the dead stone's point included), White 45 + 7 komi.
    assert state["result"] == {"winner": "w", "margin": 16.0, "text": "W+16", "by": "score",
                               "dead": ["B5"]}


def test_nothing_may_follow_the_end_of_a_game(client):
    response, error = post(client, "/api/go/play", {**game(SPLIT_GAME), "move": "A1"})
    assert response.status_code == 422 and "ended" in error["error"]
    response, _ = post(client, "/api/go/genmove", game(SPLIT_GAME))
    assert response.status_code == 400


def test_resignation_ends_the_game(client):
    _, state = post(client, "/api/go/play", {**game(["E5"]), "move": "resign"})
    assert state["over"] and state["result"]["text"] == "B+R"
    assert state["positions"][-1]["move"] == "resign"


def test_sgf_export_then_import_round_trip(client):
    _, exported = post(client, "/api/go/sgf/export", game(SPLIT_GAME))
    assert "RE[W+16]" in exported["sgf"] and exported["filename"].endswith(".sgf")
    _, imported = post(client, "/api/go/sgf/import", {"sgf": exported["sgf"]})
    assert imported["game"]["moves"] == SPLIT_GAME
    assert imported["state"]["result"]["text"] == "W+16"


def test_sgf_with_an_illegal_move_names_it(client):
    response, error = post(client, "/api/go/sgf/import", {"sgf": "(;GM[1]SZ[9];B[cc];W[dd];B[cc])"})
    assert response.status_code == 400
    assert error["field"] == "sgf.moves[2]" and "move 3" in error["error"]


def test_13x13_and_19x19_boards(client):
    for size in (13, 19):
        _, state = post(client, "/api/go/state", game(["D4"], size=size))
        assert len(state["positions"][-1]["board"]) == size


def test_streamed_analysis_continues_one_search_step_by_step(client):
    response = client.post("/api/go/analyze/stream", json={**game(["E5"]), "budget": {"playouts": 800}})
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    lines = assert_lines_conform(response, "/api/go/analyze/stream")
    assert [line["step"] for line in lines] == list(range(1, 9))
    assert [line["playouts"] for line in lines] == [100 * i for i in range(1, 9)]
    # The tree is kept between steps: the visits at the root only grow.
    totals = [sum(c["visits"] for c in line["candidates"]) for line in lines]
    assert totals == sorted(totals) and totals[-1] > totals[0]
    assert client.get("/healthz").get_json()["open_engines"] == 0


def test_streamed_analysis_refuses_a_bad_record_before_streaming(client):
    response = client.post("/api/go/analyze/stream", json=game(["E5", "E5"]))
    assert response.status_code == 400 and response.get_json()["field"] == "game.moves[1]"
    assert client.get("/healthz").get_json()["open_engines"] == 0

"""The in-page Go API (engines/web/static/engine/go_local.js on the WebAssembly core) answers
as the server does: for the same requests — random games replayed, moves played and refused,
finished games scored with dead stones, engine moves and analyses with a fixed seed (an
engine pass that ends the game judged too), streamed analyses step by step, SGF records
written and read (or refused) — the documents are equal field for field (only the measured
elapsed_ms differs), and so are the status codes and error documents of refused requests."""
import random

import pytest

from engines.go import GoEngine
from engines.go.coords import to_gtp
from tests.engines.wasm.support import HERE, answers_both_ways, run_node, without_elapsed

pytestmark = pytest.mark.wasm


def _random_record(rng, size, plies, finish):
    """A legal random game of PLIES moves; FINISH appends two passes or a resignation."""
    engine = GoEngine(size=size, komi=7.0, seed=rng.randrange(1000))
    moves = []
    for _ in range(plies):
        legal = engine.legal_moves(engine.to_move)
        point = rng.choice(legal) if legal and rng.random() > 0.03 else None
        engine.play(engine.to_move, point)
        moves.append(to_gtp(point, size) if rng.random() < 0.7 or point is None else list(point))
    engine.close()
    if finish == "passes":
        moves += ["pass", "pass"]
    elif finish == "resign":
        moves.append("resign")
    return {"size": size, "komi": 7.0 if size > 5 else 0.5, "superko": rng.random() < 0.5,
            "moves": moves}


def _calls(rng):
    calls = []
    for i in range(24):
        size = rng.choice([5, 7, 9, 9, 13])
        finish = rng.choice(["passes", "resign", None, None])
        game = _random_record(rng, size, rng.randrange(0, 3 * size), finish)
        calls.append({"endpoint": "state", "body": {"game": game}})
        if finish is None:
            occupied = [m for m in game["moves"] if m not in ("pass", None)]
            move = rng.choice(occupied) if occupied and rng.random() < 0.5 else "pass"
            calls.append({"endpoint": "play", "body": {"game": game, "move": move}})
    for i in range(6):
        game = _random_record(rng, 9, rng.randrange(0, 30), None)
        budget = {"playouts": 300 + 100 * i}
        calls.append({"endpoint": "genmove", "body": {"game": game, "budget": budget, "seed": i}})
        calls.append({"endpoint": "analyze", "body": {"game": game, "budget": budget, "seed": 7}})
    # An engine pass that ends the game, in a position whose dead stones the judging playouts
    # see differently on different streams (searched from seed 11, judged from seed 0 it marks
    # two): the verdict must not depend on the stream the search used.
    ending = {"size": 7, "komi": 0.5, "superko": False,
              "moves": ["E2", "A4", "E1", "G1", "C7", "F5", "D5", "pass", "A3", "E6", "D6", "pass"]}
    calls.append({"endpoint": "genmove", "body": {"game": ending, "budget": {"playouts": 200},
                                                  "seed": 11}})
    # Streamed analyses (the server's /analyze/stream): every step, the tree kept between them.
    for i in range(3):
        game = _random_record(rng, rng.choice([7, 9]), rng.randrange(0, 20), None)
        calls.append({"endpoint": "analyze", "stream": True,
                      "body": {"game": game, "budget": {"playouts": 200 + 150 * i}, "seed": i}})
    # SGF records: written from random games (finished ones with their result), read back, and
    # malformed or unsupported files refused with the same words.
    for i in range(6):
        game = _random_record(rng, rng.choice([5, 9, 13]), rng.randrange(0, 30), rng.choice(["passes", "resign", None]))
        calls.append({"endpoint": "sgf/export", "body": {"game": game}})
    calls += [{"endpoint": "sgf/import", "body": {"sgf": text}} for text in SGF_FILES]
    # Refused: an illegal move inside the record, a move after the end, over the caps.
    game = _random_record(rng, 9, 10, None)
    calls.append({"endpoint": "state", "body": {"game": {**game, "moves": game["moves"] + [game["moves"][-1]]}}})
    calls.append({"endpoint": "play", "body": {"game": {**game, "moves": game["moves"] + ["pass", "pass"]}, "move": "E5"}})
    calls.append({"endpoint": "genmove", "body": {"game": game, "budget": {"playouts": 50000}}})
    calls.append({"endpoint": "analyze", "body": {"game": {**game, "moves": ["resign", "E5"]}}})
    calls.append({"endpoint": "analyze", "stream": True,
                  "body": {"game": {**game, "moves": game["moves"] + ["resign"]}}})
    return calls


SGF_FILES = [
    "(;GM[1]FF[4]SZ[9]KM[6.5]RE[W+R];B[ee];W[cc];B[];W[dd])",
    "(;FF[4]SZ[9]KM[7]\n;B[ee]\n(;W[ec];B[ce])(;W[gg]))",        # variations: the main line
    "(;GaMe[1]SiZe[7]KM[0.5];B[dd];W[tt];B[cc]C[a \\] comment])",   # FF[3] names, tt pass
    "(;SZ[9];B[ee];W[ee])",                  # an illegal move: occupied
    "(;SZ[9];B[ee];B[cc])",                  # out of turn
    "(;SZ[9]AB[aa:bb];B[ee])",               # setup stones
    "(;SZ[25];B[aa])", "(;SZ[9:7])", "(;SZ[x])", "(;GM[2])", "(;KM[abc])",
    "(;SZ[9];B[zz])", "(;SZ[9];B[e])", "(;SZ[9];B[ee]", "(;SZ[9];B[ee", "(;B[ee];AB[cc])",
    "(;SZ[9](;B[ee]);W[cc])", "()", "no tree", "(;SZ[9];B[ee]x)", "(;SZ[9];B)",
]


def test_the_in_page_api_answers_as_the_server_does(wasm_dir):
    calls = _calls(random.Random(3))
    server, local = answers_both_ways("go", calls, wasm_dir)
    statuses = {a["status"] for a in server}
    assert {200, 400, 422} <= statuses, statuses   # the sample covers refusals too
    assert any(isinstance(a["body"], dict) and a["body"].get("result") and a["body"]["result"]["dead"]
               for a in server)
    ended = [a["body"] for c, a in zip(calls, server) if c["body"].get("seed") == 11]
    assert ended[0]["move"] == "pass" and len(ended[0]["state"]["result"]["dead"]) == 2
    steps = [a["body"] for c, a in zip(calls, server) if c.get("stream") and a["status"] == 200]
    assert len(steps) == 3 and all(len(s) == 8 for s in steps)  # the streams' steps are compared
    assert steps[0][-1]["playouts"] == 200 and steps[0][0]["playouts"] < 200
    for call, s, w in zip(calls, server, local):
        assert w["status"] == s["status"], (call, w, s)
        assert without_elapsed(w["body"]) == without_elapsed(s["body"]), call["endpoint"]


def test_a_malformed_move_is_refused_naming_it(wasm_dir):
    """The server's JSON schema words shape errors its own way; the in-page API names the same
    field with the status the server gives."""
    calls = [{"endpoint": "state", "body": {"game": {"size": 9, "moves": ["E5", "Z9"]}}},
             {"endpoint": "play", "body": {"game": {"size": 9, "moves": []}, "move": [9, 0]}}]
    answers = run_node(HERE / "local_api.mjs", {"game": "go", "calls": calls}, wasm_dir)["answers"]
    assert answers[0] == {"status": 400, "body": {
        "error": "game.moves[1]: 'Z9' is not a vertex (expected e.g. D4 or pass)",
        "field": "game.moves[1]"}}
    assert answers[1]["status"] == 400 and answers[1]["body"]["field"] == "move"
    assert "off a 9x9 board" in answers[1]["body"]["error"]

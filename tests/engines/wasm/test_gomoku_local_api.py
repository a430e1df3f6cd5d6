"""The in-page Gomoku API (engines/web/static/engine/gomoku_local.js on the WebAssembly core)
answers as the server does: for the same requests — random records of every rule and size
replayed, moves played and refused (occupied, renju's forbidden points, after a five or a
resignation), threats, records written and read back (text and Gomocup strings), engine moves
and analyses with node and depth budgets — the documents are equal field for field (only the
measured elapsed_ms differs), and so are the status codes and error documents of refused
requests."""
import random

import pytest

from engines.gomoku import GomokuEngine
from engines.web.gomoku.record import point_name
from tests.engines.wasm.support import answers_both_ways, without_elapsed

pytestmark = pytest.mark.wasm
DOUBLE_THREE = ["f8", "a1", "g8", "a3", "h9", "a5", "h10", "a7"]  # renju: h8 is forbidden


def _random_record(rng, size, rule, plies):
    """A legal random record of up to PLIES moves (near the stones, so fives and renju's
    forbidden points come up), names or [x, y] points; it may end in a five."""
    moves, played = [], []
    with GomokuEngine(size=size, rule=rule, tt_megabytes=1) as engine:
        while len(moves) < plies and not engine.is_over:
            legal = engine.legal_moves()
            near = [p for p in legal if played and min(abs(p[0] - x) + abs(p[1] - y) for x, y in played[-6:]) <= 2]
            point = rng.choice(near or legal)
            engine.play(point)
            played.append(point)
            moves.append(point_name(point, size) if rng.random() < 0.7 else list(point))
        over = engine.is_over
    return {"size": size, "rule": rule, "moves": moves}, over


def _records(rng):
    out = []
    for i in range(30):
        rule = ("freestyle", "standard", "renju")[i % 3]
        out.append(_random_record(rng, rng.choice([15, 15, 20]), rule, rng.choice([0, 5, 20, 60, 200])))
    return out


def _calls(rng):
    calls = []
    for game, over in _records(rng):
        calls.append({"endpoint": "state", "body": {"game": game}})
        calls.append({"endpoint": "threats", "body": {"game": game}})
        calls.append({"endpoint": "recordExport", "body": {"game": game}})
        occupied = [m for m in game["moves"]]
        move = rng.choice(occupied) if occupied and rng.random() < 0.4 else rng.choice(["h8", "a1", [3, 4], "o15"])
        calls.append({"endpoint": "play", "body": {"game": game, "move": move}})
        if not over and rng.random() < 0.3:
            calls.append({"endpoint": "play", "body": {"game": game, "move": "resign"}})
            calls.append({"endpoint": "state", "body": {"game": {**game, "moves": game["moves"] + ["resign"]}}})
        if over:
            calls.append({"endpoint": "play", "body": {"game": game, "move": "resign"}})
            calls.append({"endpoint": "genmove", "body": {"game": game}})
    for i in range(9):
        rule = ("freestyle", "standard", "renju")[i % 3]
        game, over = _random_record(rng, 15, rule, rng.choice([1, 6, 12, 18]))
        if over:
            continue
        budget = {"nodes": 2000 + 2000 * i} if i % 4 else {"depth": 3}
        calls.append({"endpoint": "genmove", "body": {"game": game, "budget": budget}})
        calls.append({"endpoint": "analyze", "body": {"game": game, "budget": budget}})
    # A proven win: black's open four (the search proves it and names the sequence).
    four = {"size": 15, "rule": "freestyle", "moves": ["h8", "a1", "i8", "a3", "j8", "a5"]}
    calls.append({"endpoint": "analyze", "body": {"game": four, "budget": {"nodes": 5000}}})
    calls.append({"endpoint": "genmove", "body": {"game": four, "budget": {"nodes": 5000}}})
    # Renju: the forbidden point is marked and refused with its rule; white may play there.
    renju = {"size": 15, "rule": "renju", "moves": DOUBLE_THREE}
    calls.append({"endpoint": "play", "body": {"game": renju, "move": "h8"}})
    calls.append({"endpoint": "state", "body": {"game": {**renju, "moves": DOUBLE_THREE + ["h8"]}}})
    calls.append({"endpoint": "threats", "body": {"game": renju}})
    # Refused by the records: off the board, a resignation inside, over the caps.
    calls += [
        {"endpoint": "state", "body": {"game": {"size": 15, "moves": ["h8", "p16"]}}},
        {"endpoint": "play", "body": {"game": {"size": 15, "moves": []}, "move": [15, 0]}},
        {"endpoint": "state", "body": {"game": {"size": 20, "moves": ["resign", "h8"]}}},
        {"endpoint": "state", "body": {"game": {"size": 15, "moves": ["h8"] * 1001}}},
        {"endpoint": "analyze", "body": {"game": {"size": 15, "moves": ["h8"]}, "budget": {"seconds": 1.5}}},
        {"endpoint": "analyze", "body": {"game": {"size": 15, "moves": ["h8"]}, "budget": {"nodes": 60_000_000}}},
        {"endpoint": "genmove", "body": {"game": {"size": 15, "moves": ["h8"]}, "budget": {"depth": 41}}},
        {"endpoint": "analyze", "body": {"game": {"size": 15, "moves": ["h8", "resign"]}}},
    ]
    # Records read back: the arcade's text format, Gomocup strings, and what is refused.
    texts = ["# soloshop gomoku record\ngame gomoku\nsize 20\nrule renju\nmoves h8 h9\nmoves i9 resign\nresult W+R\n",
             "size 15\nmoves h8 H8", "0,0, 1,-1, 2,-2", "h8i7j9", "0,0, 9,9", "game go\nmoves h8",
             "size 19\nmoves h8", "rule pente\n", "colour b\n", "moves h8 zz", "moves t20",
             "moves h8 resign i9", "hello there", "", "size 15\r\nrule standard\r\nmoves h8 i9 # note\n"]
    calls += [{"endpoint": "recordImport", "body": {"text": t}} for t in texts]
    return calls


URLS = {"recordExport": "record/export", "recordImport": "record/import"}


def test_the_in_page_api_answers_as_the_server_does(wasm_dir):
    calls = _calls(random.Random(5))
    server, local = answers_both_ways("gomoku", calls, wasm_dir, URLS)
    assert {200, 400, 422} <= {a["status"] for a in server}   # the sample covers refusals too
    bodies = [a["body"] for a in server if a["status"] == 200]
    results = {b["result"]["by"] for b in bodies if b.get("result")}
    assert {"five", "resignation"} <= results, results
    assert any(p["forbidden"] for b in bodies for p in b.get("positions", []))
    assert any(b.get("proven") for b in bodies) and any(b.get("threats", {}).get("w") for b in bodies)
    assert any(a["body"].get("rule") == "double-three" for a in server)
    for call, s, w in zip(calls, server, local):
        assert w["status"] == s["status"], (call, w, s)
        assert without_elapsed(w["body"]) == without_elapsed(s["body"]), call


def test_a_malformed_request_is_refused_naming_the_field(wasm_dir):
    """The server's JSON schema words shape errors its own way; the in-page API names the same
    field with the status the server gives."""
    calls = [{"endpoint": "state", "body": {"game": {"size": 15, "moves": ["h8", "z9"]}}},
             {"endpoint": "state", "body": {"game": {"size": 13, "moves": []}}},
             {"endpoint": "state", "body": {"game": {"size": 15, "rule": "pente", "moves": []}}},
             {"endpoint": "analyze", "body": {"game": {"size": 15, "moves": []}, "budget": {"nodes": 0}}}]
    server, local = answers_both_ways("gomoku", calls, wasm_dir)
    for s, w in zip(server, local):
        assert (w["status"], w["body"]["field"]) == (s["status"], s["body"]["field"]) == (400, w["body"]["field"])
    assert [w["body"]["field"] for w in local] == ["game.moves[1]", "game.size", "game.rule", "budget.nodes"]

"""The in-page Quoridor API (engines/web/static/engine/quoridor_local.js on the WebAssembly core)
answers as the server does: for the same requests — random games with walls replayed on every
size and variant, moves played and refused (unreachable squares, overlapping, crossing and
path-blocking walls, no walls left, after a win or a resignation), engine moves and analyses
with node and depth budgets, forced wins proven, text records written and read (and refused)
— the documents are equal field for field
(only the measured elapsed_ms differs, and `memory`, see below), and so are the status codes
and error documents of refused requests."""
import random

import pytest

from engines.quoridor import QuoridorEngine, rules
from engines.web import create_app
from tests.engines.wasm.support import HERE, run_node

pytestmark = pytest.mark.wasm


def _random_record(rng, size, plies, edge, walls=None):
    """A legal random game of at most PLIES moves (it stops at a win), pawns mostly racing."""
    engine = QuoridorEngine(size=size, walls=walls, edge_diagonal=edge)
    moves = []
    while len(moves) < plies and engine.winner is None:
        legal_walls = engine.legal_walls() if rng.random() < 0.3 else []
        if legal_walls:
            move = rng.choice(legal_walls)
        else:
            pawn = engine.legal_pawn_moves()
            dist = engine.distances(engine.to_move)
            best = min(dist[y][x] for x, y in pawn)
            closer = [(x, y) for x, y in pawn if dist[y][x] == best]
            move = rng.choice(closer if rng.random() < 0.8 else pawn)
        engine.play(move)
        name = rules.move_name(move)
        moves.append(name.upper() if rng.random() < 0.1 else name)   # the API takes any case
    return {"size": size, "edge_diagonal": edge, "moves": moves,
            **({"walls": walls} if walls is not None else {})}, engine


def _refused_moves(engine):
    """Moves the side to move may not play here: an unreachable square, a wall of each kind."""
    n, by_reason = engine.size, {}
    pawns = set(engine.legal_pawn_moves())
    far = [(x, y) for y in range(n) for x in range(n) if (x, y) not in pawns]
    for wall in [(x, y, o) for o in "hv" for y in range(n - 1) for x in range(n - 1)]:
        why = engine.why_illegal(wall)
        if why is not None:
            by_reason.setdefault(why, rules.wall_name(wall))
    return [rules.move_name(far[len(far) // 2]), *by_reason.values()]


def _calls(rng):
    calls = []
    for i in range(30):
        size, edge = rng.choice([5, 7, 9, 9]), rng.random() < 0.6
        walls = rng.choice([None, None, 0, 1, 20])
        game, engine = _random_record(rng, size, rng.randrange(0, 8 * size), edge, walls)
        if engine.winner is None and rng.random() < 0.2:
            game["moves"].append("resign")
        calls.append({"endpoint": "state", "body": {"game": game}})
        if engine.winner is None and game["moves"][-1:] != ["resign"]:
            legal = engine.legal_pawn_moves() + engine.legal_walls()[:3]
            move = rules.move_name(rng.choice(legal))
            calls.append({"endpoint": "play", "body": {"game": game, "move": move}})
            for bad in _refused_moves(engine)[:2 + i % 3]:
                calls.append({"endpoint": "play", "body": {"game": game, "move": bad}})
        else:
            calls.append({"endpoint": "play", "body": {"game": game, "move": "a1"}})
    for i in range(8):
        size = [5, 7, 9][i % 3]
        game, engine = _random_record(rng, size, rng.randrange(0, 4 * size), i % 2 == 0)
        if engine.winner is not None:
            game["moves"].pop()
        budget = [{"nodes": 1500 + 500 * i}, {"depth": 2 + i % 3}, {"nodes": 4000, "depth": 3}][i % 3]
        calls.append({"endpoint": "genmove", "body": {"game": game, "budget": budget}})
        calls.append({"endpoint": "analyze", "body": {"game": game, "budget": budget}})
    # An endgame without walls: the search proves the race.
    game, _ = _random_record(random.Random(5), 5, 3, True, walls=0)
    calls.append({"endpoint": "analyze", "body": {"game": game, "budget": {"depth": 9}}})
    calls.append({"endpoint": "genmove", "body": {"game": game, "budget": {"depth": 9}}})
    calls += _refusals(rng)
    calls += _records(rng)
    return calls


def _records(rng):
    """Text records out and in: exported games read back, and records the reader refuses."""
    calls = []
    for i in range(4):
        game, _ = _random_record(rng, [5, 7, 9, 9][i], 10 * (i + 1), i % 2 == 1)
        calls.append({"endpoint": "recordExport", "body": {"game": game}})
    texts = [
        "# a game\ngame quoridor\nsize 7\nwalls 4\nedge_diagonal no\nmoves d2 d6 c3h\nmoves D3\n",
        "size 5\r\nmoves c2 c4 c3 c5 resign",
        "game gomoku\nsize 15\n", "size 8\n", "walls x\n", "walls 21\n", "edge_diagonal maybe\n",
        "colour red\n", "moves e2 zz\n", "moves e0\n", "moves e10\n", "moves e2 resign e8\n",
        "size 5\nmoves c2 c4 c3 c3\n", "moves " + "e2 e8 e1 e9 " * 251,
    ]
    calls += [{"endpoint": "recordImport", "body": {"text": t}} for t in texts]
    return calls


def _refusals(rng):
    """Records and budgets the server refuses, each for one reason."""
    game, _ = _random_record(rng, 9, 12, True)
    won, engine = _random_record(random.Random(2), 5, 100, True, walls=0)
    assert engine.winner is not None
    bodies = [
        ("state", {"game": {**game, "moves": game["moves"] + [game["moves"][-1]]}}),  # a repeat
        ("state", {"game": {**game, "moves": ["resign", "e2"]}}),
        ("state", {"game": {"size": 5, "moves": ["i9"]}}),
        ("state", {"game": {"size": 5, "moves": ["e2", "d4h", "d1v"]}}),
        ("state", {"game": {"size": 5, "moves": ["c2", "e4h"]}}),
        ("state", {"game": {"size": 9, "moves": ["e2"] * 1001}}),
        ("state", {"game": {**won, "moves": won["moves"] + ["resign"]}}),
        ("play", {"game": won, "move": "c3"}),
        ("play", {"game": won, "move": "resign"}),
        ("play", {"game": {**game, "moves": game["moves"] + ["resign"]}, "move": "e5"}),
        ("play", {"game": {"size": 5, "walls": 0, "moves": []}, "move": "b2h"}),
        ("genmove", {"game": game, "budget": {"nodes": 60_000_000}}),
        ("genmove", {"game": game, "budget": {"seconds": 2}}),
        ("analyze", {"game": game, "budget": {"depth": 49}}),
        ("analyze", {"game": won}),
        ("genmove", {"game": {**game, "moves": game["moves"] + ["resign"]}, "budget": {"nodes": 10}}),
    ]
    return [{"endpoint": e, "body": b} for e, b in bodies]


def _url(endpoint):
    """The server's URL of an endpoint by the page's name of it ("recordExport")."""
    return "/api/quoridor/" + {"recordExport": "record/export",
                               "recordImport": "record/import"}.get(endpoint, endpoint)


def _comparable(doc):
    """The document less what is measured (elapsed_ms) and `memory`: the bytes the search
    holds, its table plus the struct, whose pointers and longs are 4 bytes on wasm32."""
    if isinstance(doc, dict):
        return {k: _comparable(v) for k, v in doc.items() if k not in ("elapsed_ms", "memory")}
    if isinstance(doc, list):
        return [_comparable(v) for v in doc]
    return doc


def _memories(doc):
    if isinstance(doc, dict):
        return [doc["memory"]] if "memory" in doc else [m for v in doc.values() for m in _memories(v)]
    return []


def test_the_in_page_api_answers_as_the_server_does(wasm_dir):
    calls = _calls(random.Random(17))
    client = create_app({"TESTING": True}).test_client()
    server = []
    for call in calls:
        answer = client.post(_url(call["endpoint"]), json=call["body"])
        server.append({"status": answer.status_code, "body": answer.get_json()})
    local = run_node(HERE / "local_api.mjs", {"game": "quoridor", "calls": calls}, wasm_dir)["answers"]
    assert {a["status"] for a in server} == {200, 400, 422}   # the sample covers refusals too
    reasons = {a["body"].get("reason") for a in server}
    assert {"overlaps a wall", "crosses a wall", "the pawn to move cannot reach it",
            "no walls left", "the game is over"} <= reasons, reasons
    refused_walls = {why for a in server if "positions" in a["body"]
                     for p in a["body"]["positions"] for why in p["illegal_walls"].values()}
    assert "blocks every path of a pawn to its goal row" in refused_walls
    assert any(a["body"].get("proven") for a in server)
    assert any(a["body"].get("result") and a["body"]["result"]["by"] == "goal" for a in server)
    for call, s, w in zip(calls, server, local):
        assert w["status"] == s["status"], (call, w, s)
        assert _comparable(w["body"]) == _comparable(s["body"]), call
        for native, page in zip(_memories(s["body"]), _memories(w["body"])):
            assert 0 < native - page < 4096 and page > 8 << 19, (native, page)


def test_a_malformed_request_is_refused_as_the_schema_words_it(wasm_dir):
    """The server checks shapes with its JSON schema; the in-page API checks the same shapes
    and, for these common mistakes, words them the same (jsonschema's messages, the move's
    description), with the same field and status."""
    calls = [{"endpoint": "state", "body": {"game": {"size": 9, "moves": ["e2", "z9"]}}},
             {"endpoint": "state", "body": {"game": {"size": 8, "moves": []}}},
             {"endpoint": "state", "body": {"game": {"size": 9, "walls": 21, "moves": []}}},
             {"endpoint": "state", "body": {"game": {"size": 9, "moves": [], "edge_diagonal": "yes"}}},
             {"endpoint": "play", "body": {"game": {"size": 9, "moves": []}}},
             {"endpoint": "play", "body": {"game": {"size": 9, "moves": []}, "move": 7}},
             {"endpoint": "genmove", "body": {"game": {"size": 9, "moves": []}, "budget": {"seconds": 0}}},
             {"endpoint": "genmove", "body": {"game": {"size": 9, "moves": []}, "budget": {"nodes": 1.5}}},
             {"endpoint": "analyze", "body": {"game": {"size": 9, "moves": []}, "budget": {"playouts": 5}}},
             {"endpoint": "state", "body": {"game": {"size": 9, "moves": []}, "extra": 1}},
             {"endpoint": "recordImport", "body": {"text": 5}},
             {"endpoint": "recordImport", "body": {}}]
    client = create_app({"TESTING": True}).test_client()
    local = run_node(HERE / "local_api.mjs", {"game": "quoridor", "calls": calls}, wasm_dir)["answers"]
    for call, w in zip(calls, local):
        s = client.post(_url(call["endpoint"]), json=call["body"])
        assert w == {"status": s.status_code, "body": s.get_json()}, call
        assert w["status"] == 400

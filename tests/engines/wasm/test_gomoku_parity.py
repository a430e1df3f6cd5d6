"""Parity, native against WebAssembly, for the Gomoku core: random games of every rule and size
(hash, side to move, legal moves, renju forbidden points, both colours' threat maps, a legality
probe, play and undo, the result and the winning line) and node-budget searches (move, score, depth, nodes, PV, candidates,
proven wins) agree call for call between the native build and the wasm build run in Node."""
import random

import pytest

from engines.gomoku._core import ffi, lib
from tests.engines.parity import scaled
from tests.engines.wasm.support import HERE, run_node

pytestmark = pytest.mark.wasm
UNDO = -9


def _cells(n, buf):
    return [buf[i] for i in range(n)]


def _native_game(size, rule, seed):
    rng = random.Random(seed)
    b = lib.gm_board_new(size, rule)
    buf, kinds = ffi.new("int[]", 400), ffi.new("int[]", 400)
    moves, probes, plies = [], [], []
    while lib.gm_board_result(b) == 0 and len(moves) < size * size + 20:
        seen = {"hash": f"{lib.gm_board_hash(b):016x}", "toMove": lib.gm_board_to_move(b)}
        seen["legal"] = _cells(lib.gm_board_legal_moves(b, buf), buf)
        seen["forbidden"] = _cells(lib.gm_board_forbidden_points(b, buf), buf)
        for color in (1, 2):
            n = lib.gm_board_threats(b, color, buf, kinds)
            seen[f"threats{color}"] = [_cells(n, buf), _cells(n, kinds)]
        probe = [rng.randrange(-1, size + 1), rng.randrange(-1, size + 1)]
        seen["probe"] = lib.gm_board_check(b, *probe)
        if rng.random() < 0.05 and moves:
            move = [UNDO, UNDO]
            seen["played"] = lib.gm_board_undo(b)
        else:
            # Mostly near the centre, so fives and renju's forbidden shapes come up.
            legal = [c for c in seen["legal"]]
            near = [c for c in legal if abs(c % 20 - size // 2) < 5 and abs(c // 20 - size // 2) < 5]
            cell = rng.choice(near or legal)
            move = [cell % 20, cell // 20]
            seen["played"] = lib.gm_board_play(b, *move)
        seen["result"] = lib.gm_board_result(b)
        moves.append(move)
        probes.append(probe)
        plies.append(seen)
    line = _cells(lib.gm_board_win_line(b, buf), buf)
    end = {"hash": f"{lib.gm_board_hash(b):016x}", "result": lib.gm_board_result(b), "line": line,
           "plies": plies}
    lib.gm_board_free(b)
    return {"size": size, "rule": rule, "moves": moves, "probes": probes}, end


def _native_search(size, rule, moves, nodes):
    b = lib.gm_board_new(size, rule)
    for x, y in moves:
        lib.gm_board_play(b, x, y)
    s = lib.gm_search_new(16)
    opts, res = ffi.new("gm_search_opts*"), ffi.new("gm_search_result*")
    opts.nodes = nodes
    code = lib.gm_search_run(s, b, opts, res)
    out = {"code": code, "move": res.move, "score": res.score, "depth": res.depth, "nodes": res.nodes,
           "pv": [res.pv[i] for i in range(res.pv_len)], "cand": [res.cand[i] for i in range(res.ncand)],
           "proven": res.proven_win_in}
    lib.gm_search_free(s)
    lib.gm_board_free(b)
    return out


@pytest.mark.parametrize("rule", [0, 1, 2])
def test_random_games_agree_ply_by_ply(wasm_dir, rule):
    requests, expected = [], []
    for seed in range(scaled(12)):
        size = (15, 20, 15)[seed % 3]
        request, seen = _native_game(size, rule, 100 * rule + seed)
        requests.append(request)
        expected.append(seen)
    got = run_node(HERE / "gomoku_replay.mjs", {"games": requests, "searches": []}, wasm_dir)
    assert any(g["result"] in (1, 2) for g in expected)          # games reach a five
    if rule == 2:
        assert any(p["forbidden"] for g in expected for p in g["plies"])
    assert any(p["threats1"][0] and p["threats2"][0] for g in expected for p in g["plies"])
    for seed, (w, n) in enumerate(zip(got["games"], expected)):
        for ply, (wp, np_) in enumerate(zip(w["plies"], n["plies"])):
            assert wp == np_, f"rule {rule} game {seed} ply {ply}: wasm {wp} != native {np_}"
        assert w == n


def test_node_budget_searches_agree(wasm_dir):
    searches, expected = [], []
    for i in range(6):
        rule = i % 3
        request, _ = _native_game(15, rule, 900 + i)
        moves = [m for m in request["moves"] if m[0] != UNDO][:8 + i]
        search = {"size": 15, "rule": rule, "moves": moves, "nodes": 20000}
        searches.append(search)
        expected.append(_native_search(15, rule, moves, 20000))
    assert any(n["nodes"] > 1000 for n in expected) and any(n["pv"] for n in expected)
    got = run_node(HERE / "gomoku_replay.mjs", {"games": [], "searches": searches}, wasm_dir)
    for i, (w, n) in enumerate(zip(got["searches"], expected)):
        assert w == n, f"search {i}: wasm {w} != native {n}"

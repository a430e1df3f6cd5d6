"""Parity, native against WebAssembly, for the Quoridor core: random games with random walls on
every size (hash, side to move, every legal move, both path lengths, a legality probe, play and
undo, the winner) and searches with fixed budgets (the alpha-beta by nodes, both MCTS styles by
playouts and seed) agree call for call between the native build and the wasm build in Node."""
import random

import pytest

from engines.quoridor._core import ffi, lib
from tests.engines.parity import scaled
from tests.engines.wasm.support import HERE, run_node

pytestmark = pytest.mark.wasm
UNDO = -9


def _native_game(size, edge, seed):
    rng = random.Random(seed)
    g = lib.qr_game_new(size, -1, edge)
    buf = ffi.new("int[]", 1024)
    moves, probes, plies = [], [], []
    while lib.qr_board_winner(lib.qr_game_board(g)) < 0 and len(moves) < 12 * size:
        b = lib.qr_game_board(g)
        n = lib.qr_board_legal_moves(b, buf)
        legal = [buf[i] for i in range(n)]
        probe = rng.randrange(-5, 2 * 64 + 200)
        seen = {"hash": f"{b.hash:016x}", "toMove": b.to_move, "legal": legal,
                "paths": [lib.qr_board_path_length(b, 0), lib.qr_board_path_length(b, 1)],
                "probe": lib.qr_board_check(b, probe)}
        if rng.random() < 0.05 and moves:
            move = UNDO
            seen["played"] = lib.qr_game_undo(g)
        else:
            pawns = lib.qr_board_pawn_moves(b, buf)
            # Pawn steps half the time (so games end), else any legal move, walls included.
            move = buf[rng.randrange(pawns)] if pawns and rng.random() < 0.5 else rng.choice(legal)
            seen["played"] = lib.qr_game_play(g, move)
        seen["winner"] = lib.qr_board_winner(lib.qr_game_board(g))
        moves.append(move)
        probes.append(probe)
        plies.append(seen)
    end = {"hash": f"{lib.qr_game_board(g).hash:016x}", "nmoves": lib.qr_game_nmoves(g), "plies": plies}
    lib.qr_game_free(g)
    return {"size": size, "edge": edge, "moves": moves, "probes": probes}, end


def _native_search(size, moves, kind, budget, seed):
    g = lib.qr_game_new(size, -1, 0)
    for m in moves:
        lib.qr_game_play(g, m)
    b = lib.qr_game_board(g)
    if kind == "alphabeta":
        s = lib.qr_search_new(8)
        opts, res = ffi.new("qr_search_opts*"), ffi.new("qr_search_result*")
        opts.nodes = budget
        code = lib.qr_search_run(s, b, opts, res)
        out = {"code": code, "move": res.move, "score": res.score, "depth": res.depth,
               "nodes": res.nodes, "pv": [res.pv[i] for i in range(res.pv_len)]}
        lib.qr_search_free(s)
    else:
        t = lib.qr_mcts_new(16)
        opts, res = ffi.new("qr_mcts_opts*"), ffi.new("qr_mcts_result*")
        opts.playouts, opts.style, opts.seed = budget, 1 if kind == "reference" else 0, seed
        code = lib.qr_mcts_run(t, b, opts, res)
        out = {"code": code, "move": res.move, "winrate": res.winrate, "playouts": res.playouts,
               "nodes": res.nodes, "pv": [res.pv[i] for i in range(res.pv_len)]}
        lib.qr_mcts_free(t)
    lib.qr_game_free(g)
    return out


@pytest.mark.parametrize("size", [5, 7, 9])
def test_random_games_agree_ply_by_ply(wasm_dir, size):
    requests, expected = [], []
    for seed in range(scaled(20)):
        request, seen = _native_game(size, seed % 2, 10 * size + seed)
        requests.append(request)
        expected.append(seen)
    assert any(p["winner"] >= 0 for g in expected for p in g["plies"])
    got = run_node(HERE / "quoridor_replay.mjs", {"games": requests, "searches": []}, wasm_dir)
    for seed, (w, n) in enumerate(zip(got["games"], expected)):
        for ply, (wp, np_) in enumerate(zip(w["plies"], n["plies"])):
            assert wp == np_, f"{size}x{size} game {seed} ply {ply}: wasm {wp} != native {np_}"
        assert w == n


def test_searches_with_fixed_budgets_agree(wasm_dir):
    searches, expected = [], []
    for i, kind in enumerate(["alphabeta", "own", "reference"] * 2):
        request, _ = _native_game(9, 0, 700 + i)
        moves = [m for m in request["moves"] if m != UNDO][:6 + 2 * i]
        budget = 20000 if kind == "alphabeta" else 3000
        searches.append({"size": 9, "moves": moves, "kind": kind, "budget": budget, "seed": 5 + i})
        expected.append(_native_search(9, moves, kind, budget, 5 + i))
    assert all(n["code"] == 0 and n["move"] >= 0 for n in expected), expected
    got = run_node(HERE / "quoridor_replay.mjs", {"games": [], "searches": searches}, wasm_dir)
    for i, (w, n) in enumerate(zip(got["searches"], expected)):
        assert w == n, f"{searches[i]['kind']} search {i}: wasm {w} != native {n}"

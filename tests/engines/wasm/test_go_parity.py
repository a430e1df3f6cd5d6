"""Parity, native against WebAssembly: the Go core built by engines/wasm.py and run in Node
agrees with the native build call for call — on random games (hash, side to move, every legal
move, a random legality probe, captures, undo, and at the end the board, the score and the
learned value and policy, bit for bit) and on searches with a fixed seed and playout budget,
with and without the network (the chosen move, win rate, candidates and PV)."""
import random

import pytest

from engines.go._core import ffi, lib
from tests.engines.parity import scaled
from tests.engines.wasm.support import HERE, run_node

pytestmark = pytest.mark.wasm
UNDO = -9


def _mask(game, size, color, buf):
    n = lib.go_game_legal_moves(game, color, buf)
    mask = ["0"] * (size * size)
    for i in range(n):
        mask[buf[2 * i + 1] * size + buf[2 * i]] = "1"
    return "".join(mask), [(buf[2 * i], buf[2 * i + 1]) for i in range(n)]


def _native_game(size, seed, superko):
    """A random game played natively: the moves and probes for Node, and what was seen."""
    rng = random.Random(seed)
    komi = 7.0 if size > 7 else 0.5
    game = lib.go_game_new(size, komi, 1 if superko else 0)
    buf, cap, ncap = ffi.new("int[]", 2 * 19 * 19), ffi.new("int[]", 2 * 19 * 19), ffi.new("int*")
    moves, probes, plies = [], [], []
    for _ in range(2 * size * size):
        color = lib.go_game_to_move(game)
        if rng.random() < 0.03:
            color = 3 - color                      # out of turn, as GTP allows
        mask, legal = _mask(game, size, color, buf)
        probe = (rng.randrange(-1, size + 1), rng.randrange(-1, size + 1))
        seen = {"hash": f"{lib.go_game_hash(game):016x}", "toMove": lib.go_game_to_move(game),
                "legal": mask, "probe": lib.go_game_check(game, color, *probe)}
        roll = rng.random()
        if roll < 0.04 and lib.go_game_nmoves(game):
            move = (color, UNDO, UNDO)
            seen["undo"] = bool(lib.go_game_undo(game))
        else:
            x, y = rng.choice(legal) if legal and roll < 0.97 else (-1, -1)
            move = (color, x, y)
            assert lib.go_game_play(game, color, x, y, cap, ncap) == 0
            seen["captured"] = ncap[0]
        seen["captures"] = [lib.go_game_captures(game, 1), lib.go_game_captures(game, 2)]
        moves.append(move)
        probes.append(probe)
        plies.append(seen)
    chars = ffi.new("char[]", size * size)
    lib.go_game_board_chars(game, chars)
    policy = ffi.new("float[]", size * size + 1)
    end = {"hash": f"{lib.go_game_hash(game):016x}", "board": ffi.string(chars, size * size).decode(),
           "score": lib.go_game_tromp_taylor(game), "value": lib.go_game_value(game, ffi.NULL),
           "policy_value": lib.go_game_value_policy(game, ffi.NULL, policy),
           "policy": list(policy), "plies": plies}
    lib.go_game_free(game)
    request = {"size": size, "komi": komi, "superko": superko, "moves": moves, "probes": probes}
    return request, end


def _native_search(size, moves, color, seed, playouts, value):
    game = lib.go_game_new(size, 7.0, 1)
    cap, ncap = ffi.new("int[]", 2 * 19 * 19), ffi.new("int*")
    for c, x, y in moves:
        assert lib.go_game_play(game, c, x, y, cap, ncap) == 0
    search = lib.go_search_new(seed)
    opts, res = ffi.new("go_search_opts*"), ffi.new("go_search_result*")
    opts.playouts, opts.threads, opts.reuse, opts.value = playouts, 1, 1, int(value)
    assert lib.go_search_run(search, game, color, opts, res) == 0
    seen = {"move": [res.move_x, res.move_y], "winrate": res.winrate, "playouts": res.playouts,
            "valued": res.valued,
            "candidates": [[res.cand_x[i], res.cand_y[i], res.cand_visits[i]]
                           for i in range(res.ncandidates)],
            "pv": [[res.pv_x[i], res.pv_y[i]] for i in range(res.npv)]}
    lib.go_search_free(search)
    lib.go_game_free(game)
    return seen


@pytest.mark.parametrize("size,games", [(9, 60), (13, 16), (19, 6), (5, 60)])
def test_random_games_agree_ply_by_ply(wasm_dir, size, games):
    requests, expected = [], []
    for seed in range(scaled(games)):
        request, seen = _native_game(size, 1000 * size + seed, superko=seed % 2 == 0)
        requests.append(request)
        expected.append(seen)
    got = run_node(HERE / "go_replay.mjs", {"games": requests, "searches": []}, wasm_dir)
    assert len(got["games"]) == len(expected)
    for seed, (wasm_game, native) in enumerate(zip(got["games"], expected)):
        for ply, (w, n) in enumerate(zip(wasm_game["plies"], native["plies"])):
            assert w == n, f"{size}x{size} game {seed}, ply {ply}: wasm {w} != native {n}"
        assert wasm_game == native, f"{size}x{size} game {seed}: the end differs"


def test_searches_with_a_fixed_seed_choose_the_same_move(wasm_dir):
    rng = random.Random(7)
    requests, expected = [], []
    for i in range(8):
        size = (9, 9, 13, 9)[i % 4]
        request, _ = _native_game(size, 500 + i, superko=True)
        moves = [m for m in request["moves"][:rng.randrange(0, 30)] if m[1] != UNDO]
        moves = _replayable(size, moves)
        color = 1 if len(moves) % 2 == 0 else 2
        search = {"size": size, "komi": 7.0, "moves": moves, "color": color, "seed": 11 + i,
                  "playouts": 1500, "value": i >= 4}     # the network's priors: 9x9 only
        requests.append(search)
        expected.append(_native_search(size, moves, color, search["seed"], search["playouts"],
                                       search["value"]))
    got = run_node(HERE / "go_replay.mjs", {"games": [], "searches": requests}, wasm_dir)
    for i, (w, n) in enumerate(zip(got["searches"], expected)):
        assert w["playouts"] == n["playouts"] == 1500
        assert (n["valued"] > 0) == (requests[i]["value"] and requests[i]["size"] == 9)
        assert w == n, f"search {i}: wasm chose {w['move']} ({w['winrate']:.4f}), native {n['move']} ({n['winrate']:.4f})"


def _replayable(size, moves):
    """The prefix of MOVES that plays legally in turn order from an empty board."""
    game = lib.go_game_new(size, 7.0, 1)
    cap, ncap = ffi.new("int[]", 2 * 19 * 19), ffi.new("int*")
    kept = []
    for _, x, y in moves:
        color = lib.go_game_to_move(game)
        if lib.go_game_play(game, color, x, y, cap, ncap) != 0:
            break
        kept.append([color, x, y])
    lib.go_game_free(game)
    return kept

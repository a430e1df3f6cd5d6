"""Speed figures of the Quoridor core on one thread (issue 16's targets: at least 100,000
shortest-path-guided rollouts a second from the opening; legal-wall generation with path
checks well under a microsecond a wall), the alpha-beta search's nodes a second, and the tree
searches' playouts a second with their tree's size; our MCTS on two threads too, with its
scaling over one in the same run.

    python -m engines.quoridor.bench [size] [rollouts]
"""
from __future__ import annotations

import random
import sys
import time

from engines.quoridor._core import ffi, lib


def rollouts_per_second(size: int = 9, rollouts: int = 200_000, seed: int = 1) -> dict:
    """Rollouts from the start position (C loop, one thread) and what they looked like."""
    t0 = time.perf_counter()
    wins = lib.qr_bench_rollouts(size, rollouts, seed)
    seconds = time.perf_counter() - t0
    plies = walls = 0
    start, board, rng = ffi.new("qr_board *"), ffi.new("qr_board *"), ffi.new("qr_rng *")
    lib.qr_board_init(start, size, -1, 1)
    lib.qr_rng_seed(rng, seed)
    sample = 2000
    for _ in range(sample):
        board[0] = start[0]
        lib.qr_rollout(board, rng, 1000)
        plies += board.ply
        walls += 2 * start.walls_left[0] - board.walls_left[0] - board.walls_left[1]
    return {"size": size, "rollouts": rollouts, "seconds": seconds,
            "per_second": rollouts / seconds, "first_player_wins": wins / rollouts,
            "mean_plies": plies / sample, "mean_walls": walls / sample}


def wall_generation(size: int = 9, positions: int = 200, seed: int = 1) -> dict:
    """Full legal-wall lists (with path checks) on mid-game positions reached by rollouts."""
    rng_py = random.Random(seed)
    boards = []
    board, rng, u = ffi.new("qr_board *"), ffi.new("qr_rng *"), ffi.new("qr_undo *")
    lib.qr_rng_seed(rng, seed)
    while len(boards) < positions:
        lib.qr_board_init(board, size, -1, 1)
        for _ in range(rng_py.randrange(4, 24)):
            move = lib.qr_rollout_move(board, rng)
            if move < 0 or lib.qr_board_winner(board) >= 0:
                break
            lib.qr_board_play(board, move, u)
        if lib.qr_board_winner(board) < 0:
            boards.append(ffi.new("qr_board *", board[0]))
    out = ffi.new("int[]", lib.QR_MAX_MOVES)
    walls, t0 = 0, time.perf_counter()
    for _ in range(20):
        for b in boards:
            walls += lib.qr_board_legal_walls(b, out)
    seconds = time.perf_counter() - t0
    return {"lists": 20 * positions, "walls": walls, "ns_per_wall": 1e9 * seconds / walls}


def search_nodes_per_second(size: int = 9, nodes: int = 200_000) -> dict:
    """Alpha-beta nodes a second: one search of the start position (one thread, a fresh 16 MB
    table), node budget NODES. A node is any position the search visits, leaves included."""
    r = ffi.new("qr_search_result *")
    t0 = time.perf_counter()
    visited = lib.qr_bench_search(size, nodes, r)
    seconds = time.perf_counter() - t0
    return {"size": size, "nodes": visited, "seconds": seconds, "per_second": visited / seconds,
            "depth": r.depth, "score": r.score}


def mcts_playouts_per_second(size: int = 9, playouts: int = 100_000, style: str = "mcts",
                             threads: int = 1) -> dict:
    """One tree search after each pawn's first step (a fresh 64 MB tree): playouts a second,
    tree nodes used, bytes held. STYLE 'mcts' (leaf = the learned value, core/value.c; on THREADS
    threads sharing the tree) or 'reference-ai' (leaf = one rollout; one thread)."""
    from engines.quoridor.engine import QuoridorEngine

    eng = QuoridorEngine(size, mcts_megabytes=64, threads=threads)
    centre = "abcdefghi"[size // 2]
    eng.play(f"{centre}2")
    eng.play(f"{centre}{size - 1}")
    r = eng.search(playouts=playouts, engine=style)
    return {"size": size, "style": style, "playouts": r["playouts"], "seconds": r["seconds"],
            "per_second": r["playouts"] / r["seconds"], "tree_nodes": r["nodes"],
            "tree_bytes": r["memory"], "tree_full": r["tree_full"], "threads": r["threads"]}


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
    print(rollouts_per_second(size, n))
    print(wall_generation(size))
    print(search_nodes_per_second(size))
    one = mcts_playouts_per_second(size, style="mcts")
    print(one)
    two = mcts_playouts_per_second(size, style="mcts", threads=2)
    print(two, {"scaling_2_threads": round(two["per_second"] / one["per_second"], 2)})
    print(mcts_playouts_per_second(size, style="reference-ai"))

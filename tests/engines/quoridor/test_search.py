"""The alpha-beta search (core/search.c through QuoridorEngine.search/genmove): it wins won
races, blocks a pawn one step from its goal, never answers an illegal move (checked against
rules.py), and leaves the caller's game exactly as it was."""
import random

import pytest

from engines.quoridor import rules
from engines.quoridor.engine import QuoridorEngine


def _both(size, pawns, walls, walls_left, to_move):
    eng, ref = QuoridorEngine(size), rules.Game(size)
    eng.set_position(pawns, walls, walls_left, to_move)
    ref.set_position(pawns, walls, walls_left, to_move)
    return eng, ref


@pytest.mark.parametrize("budget", [{"depth": 1}, {"depth": 4}, {"nodes": 3000}])
def test_a_won_race_is_run_along_the_shortest_path(budget):
    """Out of walls, shorter path: every move steps along a shortest path, and it wins."""
    rng = random.Random(7)
    for _ in range(6):
        walls = {(rng.randrange(8), rng.randrange(1, 7), "h")}
        eng, ref = _both(9, [(1, rng.randrange(3, 6)), (7, 8)], walls, [0, 0], 0)
        while ref.winner is None:
            mover, before = ref.to_move, ref.path_length(ref.to_move)
            move = eng.search(engine="alphabeta", **budget)["move"]
            ref.play(move)
            eng.play(move)
            if mover == 0:
                assert ref.path_length(0) == before - 1, move
            else:   # the loser may do what it likes, but only legal things
                assert ref.path_length(1) is not None
        assert ref.winner == 0


@pytest.mark.parametrize("size,pawns,walls", [
    (9, [(0, 4), (4, 1)], set()),
    (9, [(8, 4), (2, 1)], {(0, 0, "h")}),
    (7, [(0, 3), (3, 1)], {(2, 1, "v")}),
    (5, [(0, 1), (4, 1)], set()),
])
def test_a_pawn_one_step_from_its_goal_is_walled_off(size, pawns, walls):
    eng, ref = _both(size, pawns, walls, [2, 2], 0)
    assert ref.path_length(1) == 1 and ref.path_length(0) > 2
    r = eng.search(engine="alphabeta", depth=2)
    ref.play(r["move"])
    assert len(rules.parse_move(r["move"])) == 3, r
    assert all(y != 0 for x, y in ref.legal_pawn_moves()), r   # no winning step left
    assert r["path"][1] == 1 and ref.path_length(1) > 1   # paths reported are the root's


def _random_position(rng, size):
    ref = rules.Game(size)
    for _ in range(rng.randrange(0, 30)):
        moves = ref.legal_pawn_moves() + (ref.legal_walls() if rng.random() < 0.4 else [])
        if not moves or ref.winner is not None:
            break
        ref.play(rng.choice(moves))
        if ref.winner is not None:
            ref.undo()
            break
    return ref


def test_random_positions_get_legal_moves_and_stay_unchanged():
    rng = random.Random(16)
    for i in range(40):
        size = rng.choice([5, 7, 9])
        ref = _random_position(rng, size)
        eng = QuoridorEngine(size)
        for m in ref.moves():
            eng.play(m)
        before = (eng.hash(), eng.moves(), eng.pawns, eng.walls, eng.walls_left, eng.to_move)
        r = eng.search(engine="alphabeta", **rng.choice([{"nodes": 1 + rng.randrange(400)}, {"depth": 2},
                                     {"seconds": 0.01}]))
        assert (eng.hash(), eng.moves(), eng.pawns, eng.walls, eng.walls_left, eng.to_move) == before
        legal = {rules.move_name(m) for m in ref.legal_pawn_moves() + ref.legal_walls()}
        assert r["move"] in legal, (ref.moves(), r)
        assert all(c in legal for c, _ in r["candidates"])
        assert r["path"] == [ref.path_length(0), ref.path_length(1)]
        assert r["pv"][0] == r["move"] and r["depth"] >= 1
        _pv_is_playable(ref, r["pv"])


def _pv_is_playable(ref, pv):
    played = 0
    for m in pv:
        if ref.winner is not None:
            break
        ref.play(m)        # raises if the PV holds an illegal move
        played += 1
    for _ in range(played):
        ref.undo()


def test_game_over_gives_no_move_and_genmove_plays_the_search_move():
    eng = QuoridorEngine(5)
    r = eng.genmove(engine="alphabeta", depth=3)
    assert eng.moves() == [r["move"]]
    eng.set_position([(2, 4), (0, 0)], set(), [0, 0], 1)
    assert eng.winner == 0
    r = eng.genmove(engine="alphabeta", nodes=100)
    assert r["move"] is None and eng.moves() == []


def test_a_forced_win_is_reported_as_one_and_the_budget_holds():
    eng, _ = _both(9, [(4, 7), (0, 8)], set(), [0, 0], 0)
    r = eng.search(engine="alphabeta", depth=6)
    assert r["move"] == "e9" and r["score"] > r["win_threshold"] and r["depth"] == 1
    r = QuoridorEngine(9).search(engine="alphabeta", nodes=5000)
    assert r["nodes"] <= 5000 + 200 and r["memory"] > 16 * 2**20 - 1


def test_the_search_releases_the_gil_and_engines_share_nothing():
    """Two engines search in two threads while this thread keeps running Python; each gets
    what it gets alone (fixed node budget, fresh tables)."""
    import threading

    alone = [QuoridorEngine(9).search(engine="alphabeta", nodes=60_000) for _ in range(2)]
    engines = [QuoridorEngine(9) for _ in range(2)]
    out = [None, None]

    def work(i):
        out[i] = engines[i].search(engine="alphabeta", nodes=60_000)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    spins = 0
    while any(t.is_alive() for t in threads):
        spins += 1
    for t in threads:
        t.join()
    assert spins > 1000          # held, the GIL would have stopped this loop for the search
    for a, b in zip(alone, out):
        assert (a["move"], a["score"], a["depth"], a["nodes"], a["pv"]) == \
               (b["move"], b["score"], b["depth"], b["nodes"], b["pv"])


def test_a_time_budget_ends_the_search():
    r = QuoridorEngine(9).search(engine="alphabeta", seconds=0.05)
    assert r["depth"] >= 1 and 0 < r["seconds"] < 1.0      # loose: a shared machine
    assert len(r["pv"]) <= r["depth"] and r["pv"][0] == r["move"]


@pytest.mark.parametrize("size", [5, 7, 9])
def test_it_beats_the_rollout_policy_with_both_colours(size):
    """A smoke test of strength, not a figure: 2000 nodes a move against the rollout's own
    move choice (0.7 shortest-path step, else a random probable wall), ten short games."""
    wins = 0
    for seed in range(10):
        eng, me = QuoridorEngine(size), seed % 2
        for ply in range(300):
            if eng.winner is not None:
                break
            if eng.to_move == me:
                eng.genmove(engine="alphabeta", nodes=2000)
            else:
                eng.play(eng.rollout_move(seed * 1000 + ply))
        wins += eng.winner == me
    assert wins >= 9


def test_the_positions_that_may_come_again_reach_back_to_the_last_wall():
    from engines.quoridor._core import ffi, lib

    eng = QuoridorEngine(9)
    start = eng.hash()
    for move in ["e2", "e8", "e1", "e9"]:
        eng.play(move)
    buf = ffi.new("uint64_t[]", 8)
    assert eng.hash() == start
    assert lib.qr_game_recent_hashes(eng._game, buf, 8) == 4 and buf[3] == start
    assert lib.qr_game_recent_hashes(eng._game, buf, 2) == 2
    eng.play("a3h")
    eng.play("e8")
    assert lib.qr_game_recent_hashes(eng._game, buf, 8) == 1   # nothing before the wall
    result = eng.search(engine="alphabeta", depth=3)                               # the search reads them
    assert result["move"] is not None

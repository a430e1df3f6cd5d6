"""The search reads the caller's game and never changes it; its tree is its own object.

Checked through the engine and through the C API directly: the record (hash, moves, board,
ko, captures, side to move) is the same before and after a search, with and without tree reuse
and on the path that judges the position after a pass; a tree is reused only along one game's
line, never for another game that happens to have the same moves.
"""
import random

from engines.go._core import ffi, lib
from engines.go.engine import GoEngine


def _state(e: GoEngine):
    return (e.hash(), e.moves(), e.board(), e.ko, e.captures, e.to_move, e.tromp_taylor_score())


def _random_game(e: GoEngine, n: int, seed: int):
    rs = random.Random(seed)
    for _ in range(n):
        moves = e.legal_moves()
        e.play(e.to_move, rs.choice(moves) if moves else None)


def test_analyze_leaves_the_game_unchanged_with_reuse():
    with GoEngine(size=9, seed=3) as e:
        _random_game(e, 20, 1)
        for _ in range(3):                       # the second and third runs reuse the tree
            before = _state(e)
            info = e.analyze(e.to_move, playouts=300)
            assert _state(e) == before
        assert info["root_visits"] > info["playouts"]
        e.play(e.to_move, info["candidates"][0]["move"])
        before = _state(e)
        info = e.analyze(e.to_move, playouts=300)   # reuse down the played move
        assert _state(e) == before and info["root_visits"] > info["playouts"]


def test_the_pass_decision_judges_a_copy_not_the_game():
    with GoEngine(size=7, seed=5) as e:
        _random_game(e, 40, 2)
        e.play(e.to_move, None)                  # after the opponent's pass the search scores
        before = _state(e)                       # the position after its own pass too
        e.analyze(e.to_move, playouts=200)
        e.analyze("w" if e.to_move == "b" else "b", playouts=200)   # the other side
        assert _state(e) == before


def test_scoring_leaves_the_game_unchanged():
    with GoEngine(size=9, seed=4) as e:
        _random_game(e, 50, 3)
        before = _state(e)
        e.dead_stones(50)
        e.final_score(50)
        e.pass_alive()
        assert _state(e) == before


def _c_game(moves):
    g = ffi.gc(lib.go_game_new(9, 7.0, 0), lib.go_game_free)
    for x, y in moves:
        assert lib.go_game_play(g, lib.go_game_to_move(g), x, y, ffi.NULL, ffi.NULL) == 0
    return g


def _c_search(s, g, playouts=200):
    opts = ffi.new("go_search_opts *", {"playouts": playouts, "threads": 1, "reuse": 1})
    res = ffi.new("go_search_result *")
    n, h = lib.go_game_nmoves(g), lib.go_game_hash(g)
    chars_before = ffi.new("char[]", 81)
    lib.go_game_board_chars(g, chars_before)
    assert lib.go_search_run(s, g, lib.go_game_to_move(g), opts, res) == 0
    chars_after = ffi.new("char[]", 81)
    lib.go_game_board_chars(g, chars_after)
    assert (lib.go_game_nmoves(g), lib.go_game_hash(g)) == (n, h)
    assert ffi.unpack(chars_before, 81) == ffi.unpack(chars_after, 81)
    return res


def test_a_tree_is_reused_along_one_line_only():
    s = ffi.gc(lib.go_search_new(1), lib.go_search_free)
    moves = [(4, 4), (2, 2), (6, 6)]
    a, b = _c_game(moves), _c_game(moves)
    first = _c_search(s, a)
    assert first.tree_playouts == first.playouts
    again = _c_search(s, a)                                  # same game, same line: reused
    assert again.tree_playouts > again.playouts
    other = _c_search(s, b)                                  # same moves, another game: fresh
    assert other.tree_playouts == other.playouts
    lib.go_game_set_komi(b, 6.5)                             # a komi change starts a new line
    komi = _c_search(s, b)
    assert komi.tree_playouts == komi.playouts
    lib.go_search_reset(s)
    reset = _c_search(s, b)
    assert reset.tree_playouts == reset.playouts

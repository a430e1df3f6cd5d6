"""Named rule cases as ASCII boards, each checked on the C core (engine.py) and on rules.py;
the notation, the QTP wall translation and the Zobrist keys.

A board is drawn top row first. Square rows hold '.', '1' (player 0's pawn) or '2', with '|'
between two squares for a vertical wall segment; the lines between them hold '-' under a
square for a horizontal wall segment. Segments pair into walls from the a1 side.
"""
import pytest

from engines.quoridor import QuoridorEngine, rules
from engines.quoridor._core import lib

SIDES = {"engine": QuoridorEngine, "rules": rules.Game}


def board(text, to_move=0, walls_left=(3, 3), side="rules", edge_diagonal=True):
    lines = [line for line in text.strip("\n").splitlines()]
    n = (len(lines) + 1) // 2
    pawns, hseg, vseg = [None, None], set(), set()
    for i, line in enumerate(lines):
        line = line.ljust(2 * n - 1)
        y = n - 1 - (i + 1) // 2            # a groove line belongs to the square row below
        for x in range(n):
            if i % 2 == 0 and line[2 * x] in "12":
                pawns[int(line[2 * x]) - 1] = (x, y)
            if i % 2 == 0 and x < n - 1 and line[2 * x + 1] == "|":
                vseg.add((x, y))
            if i % 2 == 1 and line[2 * x] == "-":
                hseg.add((x, y))             # north of square (x, y)
    walls = _pair(hseg, lambda x, y: (x + 1, y), "h") | _pair(vseg, lambda x, y: (x, y + 1), "v")
    game = SIDES[side](n, edge_diagonal=edge_diagonal)
    game.set_position(pawns, walls, list(walls_left), to_move)
    return game


def _pair(segments, next_of, orient):
    walls, left = set(), set(segments)
    for x, y in sorted(segments, key=lambda s: (s[1], s[0]) if orient == "h" else s):
        if (x, y) in left:
            assert next_of(x, y) in left, f"half a wall at {(x, y)}"
            left -= {(x, y), next_of(x, y)}
            walls.add((x, y, orient))
    return walls


def names(squares):
    return sorted(rules.square_name(s) for s in squares)


@pytest.fixture(params=sorted(SIDES))
def side(request):
    return request.param


def test_straight_jump(side):
    g = board("""
. . . . .

. . . . .

. . 2 . .

. . 1 . .

. . . . .
""", side=side)
    assert names(g.legal_pawn_moves()) == ["b2", "c1", "c4", "d2"]


def test_diagonal_when_a_wall_is_behind(side):
    g = board("""
. . . . .

. . . . .
    ---
. . 2 . .

. . 1 . .

. . . . .
""", side=side)
    assert g.walls == {(2, 2, "h")}
    assert names(g.legal_pawn_moves()) == ["b2", "b3", "c1", "d2", "d3"]


def test_a_wall_beside_the_opponent_blocks_that_diagonal(side):
    g = board("""
. . . . .

. .|. . .
    ---
. .|2 . .

. . 1 . .

. . . . .
""", side=side)
    assert (1, 2, "v") in g.walls
    assert names(g.legal_pawn_moves()) == ["b2", "c1", "d2", "d3"]


@pytest.mark.parametrize("edge_diagonal,expected", [(True, ["b4", "b5", "c3", "d4", "d5"]),
                                                     (False, ["b4", "c3", "d4"])])
def test_diagonal_at_the_board_edge_follows_the_flag(side, edge_diagonal, expected):
    g = board("""
. . 2 . .

. . 1 . .

. . . . .

. . . . .

. . . . .
""", side=side, edge_diagonal=edge_diagonal)
    assert names(g.legal_pawn_moves()) == expected


def test_a_wall_that_would_cut_the_last_path_is_refused(side):
    g = board("""
. . 2 . .

. . . . .

. . . . .

. . . . .
-------
. . 1 . .
""", side=side)
    assert g.walls == {(0, 0, "h"), (2, 0, "h")}
    cut = (3, 0, "v")                          # d1v closes the e1-e2 way out
    with pytest.raises(rules.WallBlocksPath, match="^wall d1v: "):
        g.play(cut)
    assert g.path_length(0) == 6               # c1 d1 e1 e2 e3 e4 e5
    assert g.wall_contacts(cut) == 2           # the edge and c1h's end: so the path is checked
    if side == "engine":
        assert g.why_illegal_full(cut) is rules.WallBlocksPath
    g.play((3, 1, "v"))                        # d2v leaves the e-file way: legal
    assert g.path_length(0) == 6


def test_crossing_and_overlapping_walls_are_refused(side):
    g = board("""
. . 2 . .

. . . . .
    ---
. . . . .

. . . . .

. . 1 . .
""", side=side)
    with pytest.raises(rules.WallCrosses, match="^wall c3v: "):
        g.play("c3v")
    for name in ("b3h", "c3h", "d3h"):
        with pytest.raises(rules.WallOverlaps, match=f"^wall {name}: "):
            g.play(name)
    with pytest.raises(rules.OffBoard):
        g.play("e3h")
    g.play("a3h")                              # end to end with c3h: legal
    g.play("c2v")                              # ends under c3h's middle: legal
    with pytest.raises(rules.WallOverlaps, match="^wall c1v: "):
        g.play("c1v")


def test_no_walls_left_and_game_over(side):
    g = SIDES[side](5, walls=1)
    g.play("a1h")
    g.play("a3h")
    with pytest.raises(rules.NoWallsLeft, match="^wall b3v: "):
        g.play("b3v")
    for move in ("c2", "b5", "d2", "a5", "d3", "a4", "d4", "b4", "d5"):
        g.play(move)
    assert g.winner == 0
    with pytest.raises(rules.GameOver, match="^pawn move e2: "):
        g.play("e2")
    with pytest.raises(rules.GameOver):
        g.play("d1h")
    assert g.legal_pawn_moves() == [] and g.legal_walls() == []


def test_pawn_refusal_names_the_move(side):
    g = SIDES[side](9)
    with pytest.raises(rules.IllegalPawnMove, match="^pawn move e3: "):
        g.play("e3")
    with pytest.raises(rules.OffBoard):
        g.play("z9")


def test_default_wall_counts():
    assert [rules.default_walls(n) for n in (5, 7, 9)] == [3, 6, 10]
    assert [lib.qr_default_walls(n) for n in (3, 5, 7, 9)] == [rules.default_walls(n) for n in (3, 5, 7, 9)]
    assert lib.qr_default_walls(8) == -1 and lib.qr_default_walls(11) == -1
    assert QuoridorEngine(7).walls_left == [6, 6]


def test_notation_round_trips():
    assert rules.parse_move("e1") == (4, 0) and rules.square_name((8, 8)) == "i9"
    assert rules.parse_move("e3v") == (4, 2, "v") and rules.wall_name((4, 2, "v")) == "e3v"
    for x in range(9):
        for y in range(9):
            assert rules.parse_move(rules.square_name((x, y))) == (x, y)
    for x in range(8):
        for y in range(8):
            for o in "hv":
                name = rules.wall_name((x, y, o))
                assert rules.parse_move(name) == (x, y, o)
                assert rules.qtp_to_wall(rules.wall_to_qtp(name)) == name
    for bad in ("", "e", "j3", "e3x", "33", "eh"):
        with pytest.raises(rules.IllegalMove):
            rules.parse_move(bad)


def test_qtp_translation_both_ways():
    assert rules.qtp_to_wall("e3h") == "e2h" and rules.wall_to_qtp("e2h") == "e3h"
    assert rules.qtp_to_wall("e4v") == "e3v" and rules.wall_to_qtp("e3v") == "e4v"
    assert rules.wall_to_qtp("a1h") == "a2h" and rules.qtp_to_wall("h9v") == "h8v"
    # QTP's own spellings: upper case, the orientation as a second word, in full
    assert rules.qtp_to_wall("E3 h") == rules.qtp_to_wall("e3 horizontal") == "e2h"
    assert rules.qtp_to_wall("C6 vertical") == "c5v"
    assert rules.qtp_to_wall("d5h", size=5) == "d4h" and rules.wall_to_qtp("d4v", size=5) == "d5v"
    for bad in ("e1h", "i5v", "e3", "e3 x", "e3h v", "j4h"):
        with pytest.raises(rules.OffBoard):
            rules.qtp_to_wall(bad)
    for bad in ("e9h", "i1v", "e3"):
        with pytest.raises(rules.OffBoard):
            rules.wall_to_qtp(bad)


def test_qtp_walls_close_the_steps_the_qtp_board_shows():
    """QTP's board has row 9 on top; a horizontal wall at square S lies under S and the square
    east of it, a vertical wall at S right of S and the square under it (south). Both close
    exactly those steps once translated."""
    for qtp, closed, open_ in [
        ("c6h", [((2, 5), (2, 4)), ((3, 5), (3, 4))], [((2, 6), (2, 5)), ((4, 5), (4, 4))]),
        ("h4v", [((7, 3), (8, 3)), ((7, 2), (8, 2))], [((7, 4), (8, 4)), ((7, 1), (8, 1))]),
    ]:
        g = rules.Game(9)
        g.play(rules.qtp_to_wall(qtp))
        assert all(g.wall_between(a, b) for a, b in closed), qtp
        assert not any(g.wall_between(a, b) for a, b in open_), qtp


def test_e3v_is_between_e_and_f_beside_rows_3_and_4():
    g = rules.Game(9)
    g.play("e3v")
    assert g.neighbours((4, 2)) == [(3, 2), (4, 3), (4, 1)]      # no f3
    assert (5, 3) not in g.neighbours((4, 3)) and (5, 4) in g.neighbours((4, 4))


def test_zobrist_keys_are_the_c_core_keys():
    for p in (0, 1):
        for y in range(9):
            for x in range(9):
                assert lib.qr_zobrist_pawn(p, x, y) == rules.ZOBRIST_PAWN[p][y * 9 + x]
        for k in range(rules.MAX_WALLS + 1):
            assert lib.qr_zobrist_walls_left(p, k) == rules.ZOBRIST_WALLS_LEFT[p][k]
    for v, o in ((0, "h"), (1, "v")):
        for y in range(8):
            for x in range(8):
                assert lib.qr_zobrist_wall(v, x, y) == rules.ZOBRIST_WALL[o][y * 8 + x]
    assert lib.qr_zobrist_to_move() == rules.ZOBRIST_TO_MOVE
    assert len({*rules.ZOBRIST_PAWN[0], *rules.ZOBRIST_PAWN[1], *rules.ZOBRIST_WALL["h"]}) == 226


def test_transposed_move_orders_hash_alike():
    a, b = QuoridorEngine(9), QuoridorEngine(9)
    for m in ("e2", "e8", "a1h", "c5v"):
        a.play(m)
    for m in ("a1h", "c5v", "e2", "e8"):
        b.play(m)
    assert a.hash() == b.hash() and a.hash() != QuoridorEngine(9).hash()

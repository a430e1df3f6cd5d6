"""The threat view's classifier on boards written out by hand (pure: no engine)."""
from engines.web.gomoku.threats import threats


def board(*rows, size=9):
    """Rows from the top, padded with empty points to size x size."""
    rows = [r.ljust(size, ".") for r in rows]
    return rows + ["." * size] * (size - len(rows))


def kinds(rows, color, rule="freestyle", excluded=()):
    return {(x, y): kind for (x, y), kind in threats(rows, color, rule, excluded)}


def test_an_open_three_gives_two_open_four_points_and_two_fours():
    rows = board("", "", "", "..bbb")
    found = kinds(rows, "b")
    assert found[(1, 3)] == found[(5, 3)] == "open-four"
    assert found[(0, 3)] == found[(6, 3)] == "four"


def test_a_four_gives_a_five_point_first():
    rows = board("", "", "", ".wbbbb")
    assert threats(rows, "b", "freestyle")[0] == ((6, 3), "five")


def test_an_overline_is_a_five_in_freestyle_but_not_in_standard():
    rows = board("", "", "", "bbb.bb")
    assert kinds(rows, "b", "freestyle")[(3, 3)] == "five"
    assert kinds(rows, "b", "standard").get((3, 3)) != "five"
    assert kinds(rows, "w", "renju") == {}                     # no white stones, no threats


def test_renju_white_wins_with_an_overline_black_does_not():
    rows = board("", "", "", "bbb.bb", "www.ww")
    assert kinds(rows, "w", "renju")[(3, 4)] == "five"
    assert kinds(rows, "b", "renju").get((3, 3)) != "five"


def test_two_crossing_twos_make_a_three_three_point_and_excluded_points_are_left_out():
    rows = board("", "", "...b", "...b", ".bb.", "", "", "", "")
    assert kinds(rows, "b")[(3, 4)] == "three-three"
    assert (3, 4) not in kinds(rows, "b", "renju", excluded=[(3, 4)])


def test_a_blocked_line_is_no_threat():
    rows = board("", "", "", "wbbw")
    assert kinds(rows, "b") == {}

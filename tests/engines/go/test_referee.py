"""The referee: pure Tromp-Taylor counting, and judging real positions with a real GNU Go."""
import pytest

from engines.go.referee import Ending, Referee, area_score, remove_stones
from engines.go.sgf import GameRecord

# A 9x9 board split by two walls: black owns columns A-D, white owns G-J.
BLACK_WALL = [(4, y) for y in range(9)]
WHITE_WALL = [(5, y) for y in range(9)]
TWO_PASSES = [("b", None), ("w", None)]


def walls(extra_white=(), extra_black=()):
    return GameRecord(size=9, komi=7, setup_black=BLACK_WALL + list(extra_black),
                      setup_white=WHITE_WALL + list(extra_white), moves=list(TWO_PASSES))


def test_area_score_counts_stones_and_single_colour_regions():
    rows = ["..b.w", "..b.w", "bbb.w", "....w", "wwwww"]
    # Black: 5 stones + the 4-point corner; white: 9 stones; the middle region touches both.
    assert area_score(rows, komi=0) == (5 + 4) - 9
    assert area_score(rows, komi=7.5) == (5 + 4) - 9 - 7.5
    assert area_score(["..", ".."], komi=0) == 0  # an empty board is nobody's


def test_remove_stones_empties_the_points():
    assert remove_stones(["bw", ".."], [(1, 0)]) == [["b", "."], [".", "."]]


@pytest.fixture(scope="module")
def referee():
    return Referee()  # level 10: at level 1 GNU Go misjudges two invaders as alive


@pytest.mark.gnugo
def test_clean_board_is_counted_as_tromp_taylor_counts_it(referee):
    verdict = referee.judge(walls(), Ending("passes"))
    # Black 9 stones + 36 territory = 45, white 9 + 27 = 36, komi 7.
    assert verdict.result == "B+2" and verdict.winner == "b"
    assert verdict.dead == [] and verdict.raw_score == verdict.score == 2
    assert not verdict.disputed


@pytest.mark.gnugo
def test_dead_stones_are_removed_where_tromp_taylor_disagrees(referee):
    verdict = referee.judge(walls(extra_white=[(1, 4), (2, 2)]), Ending("passes"))
    assert sorted(verdict.dead) == [(1, 4), (2, 2)]
    assert verdict.result == "B+2"
    # Counted as they stand, the two dead stones turn black's area into nobody's.
    assert verdict.raw_score == 9 - (11 + 27) - 7
    assert "Tromp-Taylor without removal would give W+36" in verdict.reason
    assert verdict.playout_score == 2 and "play-out agrees" in verdict.reason


def test_resign_and_forfeit_need_no_counting(referee):
    record = walls()
    assert referee.judge(record, Ending("resign", loser="b")).result == "W+R"
    forfeit = referee.judge(record, Ending("forfeit", loser="w", detail="timed out"))
    assert (forfeit.result, forfeit.reason) == ("B+F", "white forfeited: timed out")
    with pytest.raises(ValueError, match="needs the loser"):
        referee.judge(record, Ending("resign"))


@pytest.mark.gnugo
def test_an_illegal_move_in_the_record_forfeits(referee):
    record = GameRecord(size=9, komi=7, moves=[("b", (4, 4)), ("w", (4, 4))])
    verdict = referee.judge(record, Ending("passes"))
    assert verdict.result == "B+F"
    assert verdict.reason == "white played an illegal move E5 (move 2)"

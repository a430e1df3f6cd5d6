"""The balanced openings kept in the repo (engines/gomoku/openings/) and their generator."""
import itertools

import pytest

from engines.gomoku import openings, rules


@pytest.mark.parametrize("rule", rules.RULES)
def test_each_rule_keeps_100_distinct_legal_openings(rule):
    kept = openings.load_balanced(rule)
    assert len(kept) == 100
    assert len({openings.canonical(o.moves) for o in kept}) == 100   # no mirror images
    for opening in kept:
        assert 3 <= len(opening.moves) <= 5
        assert all(4 <= v <= 10 for p in opening.moves for v in p)


@pytest.mark.parametrize("rule", rules.RULES)
def test_the_files_openings_are_the_generators_seeded_candidates_in_order(rule):
    """Kept openings are a subsequence of the seeded candidates (the balance filter is the
    search's, which later search changes may move: it is not re-judged here)."""
    kept = [o.moves for o in openings.load_balanced(rule)[:5]]
    stream = (tuple(m) for m in itertools.islice(openings.candidates(rule), 60))
    assert all(any(c == moves for c in stream) for moves in kept)


def test_the_balance_filter_keeps_near_zero_scores_without_a_proof():
    for moves, score, tried in itertools.islice(openings.generate_balanced("freestyle", 2,
                                                                           depth=3), 2):
        assert abs(score) <= openings.BALANCE_MARGIN and tried >= 1
        assert openings.evaluate(moves, "freestyle", 3)["score"] == score


def test_offsets_round_trip_and_load_on_a_20x20_board(tmp_path):
    path = tmp_path / "o.txt"
    path.write_text("0,0, 1,-1, -1,1\n\n2,2, 0,0\n")
    kept = openings.load(path, 20, "freestyle")
    assert [o.id for o in kept] == ["o.txt:1", "o.txt:3"]
    assert kept[0].placed(20) == ((10, 10), (11, 9), (9, 11))
    assert kept[0].offsets() == "0,0, 1,-1, -1,1"


@pytest.mark.parametrize("text, words", [
    ("0,0, 1\n", "o.txt:1: '0,0, 1' is not X,Y pairs"),
    ("0,0, 9,9\n", "o.txt:1: move 2 (16, 16): off board"),
    ("0,0, 1,1, 1,0, 2,2, 2,0, 3,3, 3,0, 4,4, 4,0\n", "o.txt:1: move 9 (11, 7) ends the game"),
    ("\n", "o.txt: no opening in this file"),
])
def test_a_bad_opening_file_names_the_line_and_the_fault(tmp_path, text, words):
    path = tmp_path / "o.txt"
    path.write_text(text)
    with pytest.raises(openings.OpeningError) as error:
        openings.load(path, 15, "freestyle")
    assert words in str(error.value)

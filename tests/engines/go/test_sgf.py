"""SGF save/load: property-based round trips and hand-written files from other programs."""
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.go import sgf
from engines.go.sgf import GameRecord, SgfError

# Text without surrogates (they cannot be written as UTF-8), but with the SGF specials.
texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)


@st.composite
def records(draw):
    size = draw(st.integers(min_value=1, max_value=25))
    point = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))
    moves = draw(st.lists(st.tuples(st.sampled_from("bw"), st.none() | point), max_size=60))
    return GameRecord(
        size=size,
        komi=draw(st.integers(-200, 200)) / 2,
        rules=draw(texts),
        black=draw(texts),
        white=draw(texts),
        result=draw(texts),
        comment=draw(texts),
        setup_black=draw(st.lists(point, max_size=5)),
        setup_white=draw(st.lists(point, max_size=5)),
        moves=moves,
    )


@settings(max_examples=150, deadline=None)
@given(records())
def test_dumps_then_loads_is_identity(record):
    assert sgf.loads(sgf.dumps(record)) == record


@given(texts)
def test_escaping_keeps_brackets_and_backslashes(text):
    record = GameRecord(size=9, black=text + "]\\", moves=[("b", (4, 4))])
    assert sgf.loads(sgf.dumps(record)).black == text + "]\\"


def test_save_is_atomic_and_loads_back(tmp_path):
    record = GameRecord(size=9, komi=7, black="soloshop", white="GNU Go", result="B+3",
                        moves=[("b", (4, 4)), ("w", (2, 2)), ("b", None), ("w", None)])
    path = tmp_path / "game.sgf"
    sgf.save(path, record)
    assert [p.name for p in tmp_path.iterdir()] == ["game.sgf"]
    text = path.read_text(encoding="utf-8")
    assert text.startswith("(;FF[4]GM[1]") and "SZ[9]KM[7]" in text and ";B[]" in text
    assert sgf.load(path) == record


def test_reads_a_file_from_another_program():
    # Variations (only the first is the main line), tt-passes, compressed AB, FF[3] long names,
    # soft line breaks and comments on moves.
    text = """(;GM[1]FF[3]
      SZ[9]KoMi[6.5]PB[Alice]PW[Bob \\] jr]RE[W+R]GC[two\\
lines]AB[aa:bb][ee]AW[ii]
      ;B[cc]C[good move];W[tt]
      (;B[dd];W[ff])
      (;B[gg]))"""
    record = sgf.loads(text)
    assert record.size == 9 and record.komi == 6.5
    assert (record.black, record.white, record.result) == ("Alice", "Bob ] jr", "W+R")
    assert record.comment == "twolines"
    assert record.setup_black == [(0, 0), (1, 0), (0, 1), (1, 1), (4, 4)]
    assert record.setup_white == [(8, 8)]
    assert record.moves == [("b", (2, 2)), ("w", None), ("b", (3, 3)), ("w", (5, 5))]


@pytest.mark.parametrize("text, message", [
    ("", "no game tree"),
    ("(;GM[2]SZ[8])", "not a Go game"),
    ("(;SZ[9:13])", "not a square"),
    ("(;SZ[9];B[zz])", "off a 9x9"),
    ("(;SZ[9];B[dd]", "missing ')'"),
    ("(;SZ[9];B[dd)", "missing ']'"),
    ("(;SZ[nine])", "not a number"),
    ("(;SZ[9];B[dd];AB[aa])", "only the root"),
])
def test_malformed_files_raise_named_errors(text, message):
    with pytest.raises(SgfError, match=re.escape(message)):
        sgf.loads(text)


def test_writing_rejects_points_off_the_board():
    with pytest.raises(SgfError, match="off a 9x9"):
        sgf.dumps(GameRecord(size=9, moves=[("b", (9, 0))]))

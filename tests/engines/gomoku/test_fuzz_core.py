"""Fuzz the Gomoku core's C API under AddressSanitizer + UBSan.

The harness (test_fuzz_core_harness.c) makes random calls, legal and not, recomputes the
board's bookkeeping from the cells after each one, and requires every read-only call to leave
the board byte-identical; any memory error, undefined behaviour or broken invariant makes it
exit non-zero. Building and running it: tests/engines/fuzzing.py.
"""
from pathlib import Path

import pytest

from tests.engines import fuzzing

pytestmark = pytest.mark.asan

HARNESS = Path(__file__).resolve().parent / "test_fuzz_core_harness.c"


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    return fuzzing.build(fuzzing.core_dir("gomoku"), HARNESS,
                         tmp_path_factory.mktemp("fuzz") / "gomoku_fuzz")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_api_sequences_are_clean_under_sanitizers(harness, seed):
    run = fuzzing.run(harness, seed, 20000, timeout=120)
    assert run.returncode == 0, run.stderr[-4000:]
    words = run.stdout.split()
    assert words[0] == "ok", run.stdout
    assert int(words[1]) > 3000            # it really played moves
    assert int(words[3]) > 0               # and met renju forbidden points
    assert int(words[5]) > 100             # and searched (tiny budgets)
    assert int(words[7]) > 10000           # comparing the incremental codes with a rebuild


@pytest.mark.parametrize("line,broken", [
    ("b->hash ^= gm_zobrist[color][cell];\n    b->moves", "if (cell % 7) "),   # hash of a move
    ("b->moves[b->nmoves] = 0;", "if (0) "),                                  # undo leaves a trace
])
def test_harness_catches_a_broken_invariant(tmp_path, line, broken):
    """The oracle can fail: a core whose hash misses some stones, or whose undo does not give
    back every byte, is caught (the move and its undo are internal.h's inline functions)."""
    fuzzing.assert_planted_bug_is_caught("gomoku", HARNESS, tmp_path, "internal.h", line,
                                         broken, 20000)


@pytest.mark.parametrize("file,line,broken", [
    ("patterns.c", "memcpy(kp + 5, &after, sizeof after);", "if (p != 3) "),  # a key update missed
    ("patterns.c", "line_set(k, d, gm_line_of[d][cell], five[d], three[d]);", "if (d) "),  # a
                                                                   # put's flags lost
    ("patterns.c", "k->lines[1][d] = (k->lines[1][d] & ~bit) | (three ? bit : 0);",
     "if (l % 5) "),                                               # a line's summary not kept
    ("patterns.c", "line_set(k, d, l, u->mask[d][0], u->mask[d][1]);", "if (d != 2) "),  # a
                                                                   # lift's flags not given back
    ("patterns.c", "memcpy(kp + 5, &u->key[d][1], sizeof u->key[d][1]);", "if (d) "),  # nor keys
    ("patterns.c", "line_set(k, d, gm_line_of[d][cell], u->mask[d][0], u->mask[d][1]);",
     "if (d != 1) "),                                              # nor a VCF move's flags
    ("internal.h", "f3 |= f3 << 2 | f3 << 3;", "if (bl & 1) "),    # gm_line_masks off the
                                                                   # definition
    ("search.c", "*(color == GM_BLACK ? &bl : &wh) |= 1u << p;", "if (d) "),  # a VCF four's
                                                                   # win points read wrong
    ("search.c", "if (nk == 2 && v[1] > v[0]) {", "if (0) "),      # killers tried before the
                                                                   # list in the wrong order
    ("search.c", "if (nk == 2 && v[1] == v[0])", "if (0) "),       # or in a tie's
    ("search.c", "if (!((set[c >> 6] >> (c & 63)) & 1))", "if (0) "),  # quiet late moves
                                                                   # tried
])
def test_harness_catches_broken_incremental_codes(tmp_path, file, line, broken):
    """The search's incremental line-pattern codes are compared with a rebuild after every
    move inside a search: a patterns.c that misses one update is caught, and so is a
    bit-parallel gm_line_masks that differs from the line tables' definition (the rebuild
    reads the flags from the tables), and a VCF whose last four's win points, read without
    the move, differ from those of the move made. The move ordering's shortcuts are checked
    against the list's own order: killers tried before the list is made in another order
    than the list's, and quiet moves among the late ones."""
    fuzzing.assert_planted_bug_is_caught("gomoku", HARNESS, tmp_path, file, line, broken,
                                         20000)


def test_harness_compiles_and_calls_the_inspect_helpers(harness):
    """Test-only helpers live in core/inspect.c, so the sanitized harness builds them too."""
    fuzzing.assert_calls_every_inspect_helper("gomoku", "gm_", HARNESS, harness, at_least=5)

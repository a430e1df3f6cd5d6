"""Fuzz the Go core's C API under AddressSanitizer + UBSan.

The harness (test_fuzz_core_harness.c) makes random calls, legal and not, and recomputes the
board's invariants after each one; any memory error, undefined behaviour or broken invariant
makes it exit non-zero. Building and running it: tests/engines/fuzzing.py.
"""
from pathlib import Path

import pytest

from tests.engines import fuzzing

pytestmark = pytest.mark.asan

HARNESS = Path(__file__).resolve().parent / "test_fuzz_core_harness.c"


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    return fuzzing.build(fuzzing.core_dir("go"), HARNESS, tmp_path_factory.mktemp("fuzz") / "go_fuzz")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_api_sequences_are_clean_under_sanitizers(harness, seed):
    run = fuzzing.run(harness, seed, 3000)
    assert run.returncode == 0, run.stderr[-4000:]
    assert run.stdout.startswith("ok "), run.stdout
    assert int(run.stdout.split()[1]) > 500      # it really played moves


def test_harness_catches_a_broken_invariant(tmp_path):
    """The oracle can fail: a core whose incremental hash misses some stones is caught."""
    fuzzing.assert_planted_bug_is_caught(
        "go", HARNESS, tmp_path, "board.c", "b->pos_hash ^= b->zob[color * GO_MAX_POINTS + point];",
        "if (point % 5) ", 3000)


def test_harness_compiles_and_calls_the_inspect_helpers(harness):
    """Test-only helpers live in core/inspect.c, so the sanitized harness builds them too."""
    fuzzing.assert_calls_every_inspect_helper("go", "go_", HARNESS, harness, at_least=4)

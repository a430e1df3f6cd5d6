"""Fuzz the Quoridor core's C API under AddressSanitizer + UBSan.

The harness (test_fuzz_core_harness.c) makes random calls, legal and not, and recomputes the
board's bookkeeping after each one; any memory error, undefined behaviour or broken invariant
makes it exit non-zero. Building and running it: tests/engines/fuzzing.py.
"""
from pathlib import Path

import pytest

from tests.engines import fuzzing

pytestmark = pytest.mark.asan

HARNESS = Path(__file__).resolve().parent / "test_fuzz_core_harness.c"


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    return fuzzing.build(fuzzing.core_dir("quoridor"), HARNESS,
                         tmp_path_factory.mktemp("fuzz") / "quoridor_fuzz")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_api_sequences_are_clean_under_sanitizers(harness, seed):
    run = fuzzing.run(harness, seed, 20000, timeout=120)
    assert run.returncode == 0, run.stderr[-4000:]
    assert run.stdout.startswith("ok "), run.stdout
    assert int(run.stdout.split()[1]) > 3000      # it really played moves


def test_harness_catches_a_broken_hash(tmp_path):
    """The oracle can fail: a core whose incremental hash misses some walls is caught."""
    fuzzing.assert_planted_bug_is_caught("quoridor", HARNESS, tmp_path, "board.c",
                                         "b->hash ^= g->zwall[vertical][slot];", "if (slot % 5) ",
                                         20000)


def test_harness_compiles_and_calls_the_inspect_helpers(harness):
    """Test-only helpers live in core/inspect.c, so the sanitized harness builds them too."""
    fuzzing.assert_calls_every_inspect_helper("quoridor", "qr_", HARNESS, harness, at_least=3)

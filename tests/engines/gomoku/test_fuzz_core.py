"""Fuzz the Gomoku core's C API under AddressSanitizer + UBSan.

The harness (test_fuzz_core_harness.c) makes random calls, legal and not, recomputes the
board's bookkeeping from the cells after each one, and requires every read-only call to leave
the board byte-identical; any memory error, undefined behaviour or broken invariant makes it
exit non-zero.
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.asan

HERE = Path(__file__).resolve().parent
CORE = HERE.parents[2] / "engines" / "gomoku" / "core"
HARNESS = HERE / "test_fuzz_core_harness.c"


def _compile(core: Path, out: Path, sanitize: bool):
    gcc = shutil.which("gcc")
    assert gcc, "gcc is needed (Debian package gcc)"
    flags = ["-g", "-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
             "-fno-omit-frame-pointer"] if sanitize else ["-O1"]
    subprocess.run([gcc, *flags, f"-I{core}", str(HARNESS), *sorted(str(p) for p in core.glob("*.c")),
                    "-o", str(out), "-pthread"], check=True, capture_output=True, text=True)
    return out


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    return _compile(CORE, tmp_path_factory.mktemp("fuzz") / "gomoku_fuzz", sanitize=True)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_api_sequences_are_clean_under_sanitizers(harness, seed):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1")
    run = subprocess.run([str(harness), str(seed), "20000"], capture_output=True, text=True,
                         env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-4000:]
    words = run.stdout.split()
    assert words[0] == "ok", run.stdout
    assert int(words[1]) > 3000            # it really played moves
    assert int(words[3]) > 0               # and met renju forbidden points


@pytest.mark.parametrize("line,broken", [
    ("b->hash ^= gm_zobrist[color][cell];\n    b->moves", "if (cell % 7) "),   # hash of a move
    ("b->moves[b->nmoves] = 0;", "if (0) "),                                  # undo leaves a trace
])
def test_harness_catches_a_broken_invariant(tmp_path, line, broken):
    """The oracle can fail: a core whose hash misses some stones, or whose undo does not give
    back every byte, is caught."""
    core = tmp_path / "core"
    shutil.copytree(CORE, core)
    board_c = core / "board.c"
    text = board_c.read_text()
    assert text.count(line) == 1
    board_c.write_text(text.replace(line, broken + line))
    exe = _compile(core, tmp_path / "broken", sanitize=False)
    run = subprocess.run([str(exe), "1", "20000"], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "check failed" in run.stderr


def test_harness_compiles_and_calls_the_inspect_helpers(harness):
    """Test-only helpers live in core/inspect.c, so the sanitized harness builds them too."""
    helpers = re.findall(r"^\w[\w \*]*?\b(gm_\w+)\(", (CORE / "inspect.c").read_text(), re.M)
    assert len(helpers) >= 5
    calls = HARNESS.read_text()
    assert [h for h in helpers if h + "(" not in calls] == []
    symbols = subprocess.run(["nm", str(harness)], capture_output=True, text=True, check=True).stdout
    assert all(re.search(rf"\bT {h}$", symbols, re.M) for h in helpers)

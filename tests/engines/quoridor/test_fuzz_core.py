"""Fuzz the Quoridor core's C API under AddressSanitizer + UBSan.

The harness (test_fuzz_core_harness.c) makes random calls, legal and not, and recomputes the
board's bookkeeping after each one; any memory error, undefined behaviour or broken invariant
makes it exit non-zero.
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.asan

HERE = Path(__file__).resolve().parent
CORE = HERE.parents[2] / "engines" / "quoridor" / "core"
SANITIZE = ["-g", "-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer"]


def _build(core: Path, out: Path, flags):
    gcc = shutil.which("gcc")
    assert gcc, "gcc is needed (Debian package gcc)"
    cmd = [gcc, *flags, f"-I{core}", str(HERE / "test_fuzz_core_harness.c"),
           *sorted(str(p) for p in core.glob("*.c")), "-o", str(out), "-pthread"]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return out


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    return _build(CORE, tmp_path_factory.mktemp("fuzz") / "quoridor_fuzz", SANITIZE)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_api_sequences_are_clean_under_sanitizers(harness, seed):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1")
    run = subprocess.run([str(harness), str(seed), "20000"], capture_output=True, text=True,
                         env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-4000:]
    assert run.stdout.startswith("ok "), run.stdout
    assert int(run.stdout.split()[1]) > 3000      # it really played moves


def test_harness_catches_a_broken_hash(tmp_path):
    """The oracle can fail: a core whose incremental hash misses some walls is caught."""
    core = tmp_path / "core"
    shutil.copytree(CORE, core)
    board_c = core / "board.c"
    text = board_c.read_text()
    line = "b->hash ^= g->zwall[vertical][slot];"
    broken = text.replace(line, "if (slot % 5) " + line)
    assert broken != text
    board_c.write_text(broken)
    exe = _build(core, tmp_path / "broken", ["-O1"])
    run = subprocess.run([str(exe), "1", "20000"], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "check failed" in run.stderr


def test_harness_compiles_and_calls_the_inspect_helpers(harness):
    """Test-only helpers live in core/inspect.c, so the sanitized harness builds them too."""
    helpers = re.findall(r"^\w[\w \*]*?\b(qr_\w+)\(", (CORE / "inspect.c").read_text(), re.M)
    assert len(helpers) >= 3
    calls = (HERE / "test_fuzz_core_harness.c").read_text()
    assert [h for h in helpers if h + "(" not in calls] == []
    symbols = subprocess.run(["nm", str(harness)], capture_output=True, text=True, check=True).stdout
    assert all(re.search(rf"\bT {h}$", symbols, re.M) for h in helpers)

"""What every C core's fuzz test shares: building its harness from the core's sources (under
AddressSanitizer + UBSan, or plain for a planted-bug run), running it, planting a bug in a copy
of the core to prove the harness's checks can fail, and checking that the harness calls every
test-only helper of core/inspect.c. Each harness includes fuzz_harness.h (its random numbers
and CHECK) from this folder."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENGINES = HERE.parents[1] / "engines"
PLATFORM = ENGINES / "platform"  # core_platform.h, included by every core
SANITIZE = ("-g", "-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer")


def core_dir(game: str) -> Path:
    return ENGINES / game / "core"


def build(core: Path, harness: Path, out: Path, *, sanitize: bool = True,
          defines: tuple[str, ...] = ()) -> Path:
    """HARNESS compiled with every core/*.c of CORE into OUT (DEFINES: -D arguments)."""
    gcc = shutil.which("gcc")
    assert gcc, "gcc is needed (Debian package gcc)"
    flags = SANITIZE if sanitize else ("-O1",)
    subprocess.run([gcc, *flags, *defines, f"-I{core}", f"-I{PLATFORM}", f"-I{HERE}", str(harness),
                    *sorted(str(p) for p in core.glob("*.c")), "-o", str(out), "-lm", "-pthread"],
                   check=True, capture_output=True, text=True)
    return out


def run(exe: Path, seed: int, calls: int, timeout: float = 300) -> subprocess.CompletedProcess:
    """The harness's run of CALLS random calls from SEED (sanitizer reports on stderr)."""
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1")
    return subprocess.run([str(exe), str(seed), str(calls)], capture_output=True, text=True,
                          env=env, timeout=timeout)


def assert_planted_bug_is_caught(game: str, harness: Path, tmp_path: Path, file: str,
                                 line: str, prefix: str, calls: int) -> None:
    """Put PREFIX before LINE (found once) in FILE of a copy of GAME's core: the harness,
    built from that copy, must fail one of its checks."""
    core = tmp_path / "core"
    shutil.copytree(core_dir(game), core)
    source = core / file
    text = source.read_text()
    assert text.count(line) == 1, f"{line!r} is not once in {file}"
    source.write_text(text.replace(line, prefix + line))
    result = run(build(core, harness, tmp_path / "broken", sanitize=False), 1, calls)
    assert result.returncode != 0
    assert "check failed" in result.stderr


def assert_calls_every_inspect_helper(game: str, prefix: str, harness: Path, exe: Path,
                                      at_least: int) -> None:
    """Every function of core/inspect.c is called by HARNESS and linked into EXE."""
    inspect_c = (core_dir(game) / "inspect.c").read_text()
    helpers = re.findall(rf"^\w[\w \*]*?\b({prefix}\w+)\(", inspect_c, re.M)
    assert len(helpers) >= at_least
    calls = harness.read_text()
    assert [h for h in helpers if h + "(" not in calls] == []
    symbols = subprocess.run(["nm", str(exe)], capture_output=True, text=True, check=True).stdout
    assert all(re.search(rf"\bT {h}$", symbols, re.M) for h in helpers)

"""The Go core declares its API once, in go.h; the cffi binding takes it from there.

build_go.py hands go.h's binding section to cdef() (each #define reduced to its value); these
tests check that every function of that section is in the built module, that nothing is
declared a second time (in internal.h or in the build script), and that the reduction refuses
what it cannot read instead of guessing.
"""
import importlib.util
import re
from pathlib import Path

import pytest

from engines.go._core import ffi, lib

GO = Path(__file__).resolve().parents[3] / "engines" / "go"
CORE = GO / "core"
PROTO = re.compile(r"^[A-Za-z_][\w \t\*]*?\b(go_\w+)\s*\(", re.M)


def _build_go():
    spec = importlib.util.spec_from_file_location("build_go_under_test", GO / "build_go.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _uncomment(text: str) -> str:
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def _prototypes(text: str) -> set:
    return {m.group(1) for m in PROTO.finditer(_uncomment(text))
            if not m.group(0).lstrip().startswith("static")}


def test_every_function_of_the_binding_section_is_in_the_module():
    names = _prototypes(_build_go().binding_section())
    assert len(names) > 40
    missing = [n for n in sorted(names) if not hasattr(lib, n)]
    assert missing == []


def test_go_h_declares_its_functions_inside_the_binding_section_only():
    text = (CORE / "go.h").read_text()
    section = _build_go().binding_section()
    outside = text.replace(section, "")
    assert _prototypes(outside) == set()          # only static inline helpers live outside


def test_no_function_is_declared_twice():
    public = _prototypes((CORE / "go.h").read_text())
    internal = _prototypes((CORE / "internal.h").read_text())
    assert public & internal == set()


def test_build_script_declares_nothing_itself():
    src = (GO / "build_go.py").read_text()
    assert not re.search(r"\[\d+\]", src)          # no literal array sizes
    assert "typedef" not in src
    assert _prototypes(src) == set()


def test_constants_and_layouts_come_from_the_header():
    assert lib.GO_MAX_SIZE == 19 and lib.GO_MAX_POINTS == 21 * 21
    assert lib.GO_MAX_CANDIDATES == 19 * 19 + 1 and lib.GO_MAX_PV == 32
    res = ffi.new("go_search_result *")
    assert len(res.cand_x) == lib.GO_MAX_CANDIDATES
    assert len(res.ownership) == lib.GO_MAX_SIZE * lib.GO_MAX_SIZE
    assert len(res.pv_x) == lib.GO_MAX_PV


def test_defines_are_reduced_to_values_from_earlier_names(tmp_path):
    header = tmp_path / "h.h"
    header.write_text("#define X 1\n/* ==== binding: begin */\n#define A 4\n#define B (A * A + 2)\n"
                      "int f(int a[B]);\n/* ==== binding: end */\n")
    assert _build_go().cdef_from_header(header) == "#define A 4\n#define B 18\nint f(int a[B]);\n"


@pytest.mark.parametrize("line", ["#define C (X + 1)", "#define C sizeof(int)", "#include <x.h>",
                                  "#ifdef FOO"])
def test_what_cdef_cannot_take_is_refused(tmp_path, line):
    header = tmp_path / "h.h"
    header.write_text(f"/* ==== binding: begin */\n{line}\n/* ==== binding: end */\n")
    with pytest.raises(ValueError):
        _build_go().cdef_from_header(header)

"""Every C core declares its API once, in its public header; the cffi binding takes it from
there (engines/cbuild.py hands the header's binding section to cdef(), each #define reduced to
its value). For each core: every function of that section is in the built module, nothing is
declared a second time (in internal.h or in the build script), and the reduction refuses what
it cannot read instead of guessing. Each core's own constants and layouts are checked in its
folder (test_binding_layout.py)."""
import importlib
import re
from pathlib import Path

import pytest

from engines import cbuild

ENGINES = Path(__file__).resolve().parents[2] / "engines"
# (game, public header, function prefix, functions the section has at least)
CORES = [("go", "go.h", "go_", 40), ("gomoku", "gomoku.h", "gm_", 20),
         ("quoridor", "quoridor.h", "qr_", 20)]


def _uncomment(text: str) -> str:
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def _prototypes(text: str, prefix: str) -> set:
    proto = re.compile(rf"^[A-Za-z_][\w \t\*]*?\b({prefix}\w+)\s*\(", re.M)
    return {m.group(1) for m in proto.finditer(_uncomment(text))
            if not m.group(0).lstrip().startswith("static")}


@pytest.mark.parametrize("game,header,prefix,at_least", CORES)
def test_every_function_of_the_binding_section_is_in_the_module(game, header, prefix, at_least):
    lib = importlib.import_module(f"engines.{game}._core").lib
    names = _prototypes(cbuild.binding_section(ENGINES / game / "core" / header), prefix)
    assert len(names) >= at_least
    assert [n for n in sorted(names) if not hasattr(lib, n)] == []


@pytest.mark.parametrize("game,header,prefix,at_least", CORES)
def test_the_header_declares_its_functions_inside_the_binding_section_only(game, header, prefix,
                                                                          at_least):
    path = ENGINES / game / "core" / header
    outside = path.read_text().replace(cbuild.binding_section(path), "")
    assert _prototypes(outside, prefix) == set()  # only static inline helpers live outside


@pytest.mark.parametrize("game,header,prefix,at_least", CORES)
def test_no_function_is_declared_twice(game, header, prefix, at_least):
    core = ENGINES / game / "core"
    public = _prototypes((core / header).read_text(), prefix)
    assert public & _prototypes((core / "internal.h").read_text(), prefix) == set()


@pytest.mark.parametrize("game,header,prefix,at_least", CORES)
def test_the_build_script_declares_nothing_itself(game, header, prefix, at_least):
    src = (ENGINES / game / f"build_{game}.py").read_text()
    assert not re.search(r"\[\d+\]", src)  # no literal array sizes
    assert "typedef" not in src and _prototypes(src, prefix) == set()
    assert f'core_ffi("{game}", "{header}"' in src  # the one shared builder


def test_defines_are_reduced_to_values_from_earlier_names(tmp_path):
    header = tmp_path / "h.h"
    header.write_text("#define X 1\n/* ==== binding: begin */\n#define A 4\n#define B (A * A + 2)\n"
                      "int f(int a[B]);\n/* ==== binding: end */\n")
    assert cbuild.cdef_from_header(header) == "#define A 4\n#define B 18\nint f(int a[B]);\n"


@pytest.mark.parametrize("line", ["#define C (X + 1)", "#define C sizeof(int)", "#include <x.h>",
                                  "#ifdef FOO"])
def test_what_cdef_cannot_take_is_refused(tmp_path, line):
    header = tmp_path / "h.h"
    header.write_text(f"/* ==== binding: begin */\n{line}\n/* ==== binding: end */\n")
    with pytest.raises(ValueError):
        cbuild.cdef_from_header(header)


def test_a_header_without_a_binding_section_is_refused(tmp_path):
    header = tmp_path / "h.h"
    header.write_text("int f(void);\n")
    with pytest.raises(ValueError, match="no binding section"):
        cbuild.binding_section(header)

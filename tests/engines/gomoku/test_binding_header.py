"""The Gomoku core declares its API once, in gomoku.h; the cffi binding takes it from there.

build_gomoku.py hands gomoku.h's binding section to cdef() through engines/cbuild.py (the
reader the Go build uses too); these tests check that every function of that section is in the
built module, and that nothing is declared a second time (in internal.h or the build script).
"""
import re
from pathlib import Path

from engines import cbuild
from engines.gomoku._core import ffi, lib

GOMOKU = Path(__file__).resolve().parents[3] / "engines" / "gomoku"
CORE = GOMOKU / "core"
HEADER = CORE / "gomoku.h"
PROTO = re.compile(r"^[A-Za-z_][\w \t\*]*?\b(gm_\w+)\s*\(", re.M)


def _prototypes(text: str) -> set:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return {m.group(1) for m in PROTO.finditer(text) if not m.group(0).lstrip().startswith("static")}


def test_every_function_of_the_binding_section_is_in_the_module():
    names = _prototypes(cbuild.binding_section(HEADER))
    assert len(names) > 20
    assert [n for n in sorted(names) if not hasattr(lib, n)] == []


def test_the_header_declares_its_functions_inside_the_binding_section_only():
    outside = HEADER.read_text().replace(cbuild.binding_section(HEADER), "")
    assert _prototypes(outside) == set()          # only static inline helpers live outside


def test_no_function_is_declared_twice():
    internal = _prototypes((CORE / "internal.h").read_text())
    assert _prototypes(HEADER.read_text()) & internal == set()


def test_build_script_declares_nothing_itself():
    src = (GOMOKU / "build_gomoku.py").read_text()
    assert not re.search(r"\[\d+\]", src)          # no literal array sizes
    assert "typedef" not in src and "cdef(" in src and "cdef_from_header(HEADER)" in src
    assert _prototypes(src) == set()


def test_constants_and_layouts_come_from_the_header():
    assert lib.GM_MAX_SIZE == 20 and lib.GM_MAX_CELLS == 400 and lib.GM_MAX_LINES == 39
    board = ffi.new("gm_board *")
    assert len(board.cell) == lib.GM_MAX_CELLS and len(board.moves) == lib.GM_MAX_CELLS
    assert len(board.line) == 2 and len(board.line[0]) == lib.GM_NDIRS
    assert len(board.line[0][0]) == lib.GM_MAX_LINES

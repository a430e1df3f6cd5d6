"""The Quoridor core declares its API once, in quoridor.h; the cffi binding takes it from there.

build_quoridor.py hands quoridor.h's binding section to cdef() through build_go.py's
cdef_from_header; these tests check that every function of that section is in the built
module, that nothing is declared a second time (in internal.h or in the build script) and that
the build script reuses the Go core's header reader rather than a copy of it.
"""
import importlib.util
import re
from pathlib import Path

from engines.quoridor._core import ffi, lib

QR = Path(__file__).resolve().parents[3] / "engines" / "quoridor"
CORE = QR / "core"
PROTO = re.compile(r"^[A-Za-z_][\w \t\*]*?\b(qr_\w+)\s*\(", re.M)


def _build():
    spec = importlib.util.spec_from_file_location("build_quoridor_under_test", QR / "build_quoridor.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _prototypes(text: str) -> set:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return {m.group(1) for m in PROTO.finditer(text) if not m.group(0).lstrip().startswith("static")}


def test_every_function_of_the_binding_section_is_in_the_module():
    names = _prototypes(_build().binding_section(CORE / "quoridor.h"))
    assert len(names) > 30
    assert [n for n in sorted(names) if not hasattr(lib, n)] == []


def test_quoridor_h_declares_its_functions_inside_the_binding_section_only():
    text = (CORE / "quoridor.h").read_text()
    outside = text.replace(_build().binding_section(CORE / "quoridor.h"), "")
    assert _prototypes(outside) == set()


def test_no_function_is_declared_twice():
    public = _prototypes((CORE / "quoridor.h").read_text())
    assert public & _prototypes((CORE / "internal.h").read_text()) == set()


def test_build_script_declares_nothing_and_reuses_the_go_reader():
    src = (QR / "build_quoridor.py").read_text()
    assert not re.search(r"\[\d+\]", src) and "typedef" not in src and _prototypes(src) == set()
    assert "def cdef_from_header" not in src and "build_go.py" in src


def test_constants_and_layouts_come_from_the_header():
    assert lib.QR_MAX_SIZE == 9 and lib.QR_MAX_CELLS == 81 and lib.QR_MAX_SLOTS == 64
    assert lib.QR_WALL_V == lib.QR_WALL_H + 64 and lib.QR_MAX_MOVES == 5 + 128
    b = ffi.new("qr_board *")
    assert len(b.pawn) == 2 and len(b.open_e.w) == 2
    assert lib.qr_board_init(b, 9, -1, 1) == 0 and b.walls_left[1] == 10
    assert lib.qr_board_init(b, 8, -1, 1) == lib.QR_ERR_SIZE

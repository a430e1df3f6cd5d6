"""Shared by the cffi build scripts (engines/<game>/build_<game>.py): the cdef comes from the
core's public header.

A header has a section between the "binding: begin" and "binding: end" markers. That text is
given to cdef() as it stands, except that each `#define NAME expression` becomes `#define NAME
value` (cdef only takes integer literals), the value computed from the section's own earlier
defines. Any other preprocessor line in the section is an error. See engines/HACKING.md.

This file imports nothing outside the standard library, so a build script can load it before
the package is installed.
"""
import ast
import operator
import re
from pathlib import Path

BEGIN = "/* ==== binding: begin"
END = "/* ==== binding: end"

_DEFINE = re.compile(r"^#define\s+(\w+)\s+(.+?)\s*$")
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv, ast.LShift: operator.lshift}


def _value(expr: str, known: dict, header: Path) -> int:
    """An integer expression of literals and earlier names (+ - * // <<, parentheses)."""
    def ev(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name) and node.id in known:
            return known[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        raise ValueError(f"{header.name} binding section: cannot evaluate {expr!r}")
    return ev(ast.parse(expr.replace("/", "//"), mode="eval").body)


def binding_section(header: Path) -> str:
    """The text between the binding markers of a header."""
    text = Path(header).read_text()
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < begin:
        raise ValueError(f"{header}: no binding section")
    return text[text.index("\n", begin) + 1:end]


def cdef_from_header(header: Path) -> str:
    """The binding section with every #define reduced to an integer literal, for cdef()."""
    header = Path(header)
    known, lines = {}, []
    for line in binding_section(header).splitlines():
        m = _DEFINE.match(line)
        if m:
            known[m.group(1)] = _value(m.group(2), known, header)
            line = f"#define {m.group(1)} {known[m.group(1)]}"
        elif line.lstrip().startswith("#"):
            raise ValueError(f"{header}: preprocessor line in the binding section: {line!r}")
        lines.append(line)
    return "\n".join(lines) + "\n"


ROOT = Path(__file__).resolve().parent.parent  # the repository (paths relative to it, as setup.py runs there)
# core_platform.h, the one seam between a core's native and WebAssembly builds.
PLATFORM = ROOT / "engines" / "platform"


def c_float(v: float, digits: int = 4) -> str:
    """V as a C float literal with DIGITS significant digits (generated weight tables)."""
    text = f"{v:.{digits}g}"
    return (text if any(ch in text for ch in ".en") else text + ".0") + "f"


def core_sources(game: str) -> list[Path]:
    """Every C source of engines/GAME/core: the one list both builds compile."""
    return sorted((ROOT / "engines" / game / "core").glob("*.c"))


def core_ffi(game: str, header_name: str, libraries: tuple[str, ...] = ()):
    """The cffi builder of engines/GAME/core: every .c file there, compiled -O3 in API mode
    into engines.GAME._core, its cdef the binding section of HEADER_NAME."""
    from cffi import FFI  # a build requirement; the helpers above need only the stdlib

    core = ROOT / "engines" / game / "core"
    ffi = FFI()
    ffi.cdef(cdef_from_header(core / header_name))
    ffi.set_source(
        f"engines.{game}._core",
        f'#include "{header_name}"\n',
        sources=[str(p.relative_to(ROOT)) for p in core_sources(game)],
        include_dirs=[str(core.relative_to(ROOT)), str(PLATFORM.relative_to(ROOT))],
        extra_compile_args=["-O3", "-pthread", "-std=gnu11"],
        extra_link_args=["-pthread"],
        libraries=list(libraries),
    )
    return ffi

"""cffi build script for the Go core: compiles engines/go/core/*.c into engines.go._core.

Run by `pip install -e .` through setup.py's cffi_modules (API mode: the C compiler checks the
declarations against go.h, and cffi releases the GIL around every call).

The declarations are not written here: they are the part of core/go.h between the
"binding: begin" and "binding: end" markers, given to cdef() as they stand except that each
`#define NAME expression` becomes `#define NAME value` (cdef only takes integer literals), the
value computed from the header's own earlier defines. See engines/HACKING.md.
"""
import ast
import operator
import re
from pathlib import Path

from cffi import FFI

CORE = Path(__file__).resolve().parent / "core"
HEADER = CORE / "go.h"
BEGIN = "/* ==== binding: begin"
END = "/* ==== binding: end"

_DEFINE = re.compile(r"^#define\s+(\w+)\s+(.+?)\s*$")
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv, ast.LShift: operator.lshift}


def _value(expr: str, known: dict) -> int:
    """An integer expression of literals and earlier names (+ - * // <<, parentheses)."""
    def ev(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name) and node.id in known:
            return known[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        raise ValueError(f"go.h binding section: cannot evaluate {expr!r}")
    return ev(ast.parse(expr.replace("/", "//"), mode="eval").body)


def binding_section(header: Path = HEADER) -> str:
    """The text between the binding markers of a header."""
    text = header.read_text()
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < begin:
        raise ValueError(f"{header}: no binding section")
    return text[text.index("\n", begin) + 1:end]


def cdef_from_header(header: Path = HEADER) -> str:
    """The binding section with every #define reduced to an integer literal, for cdef()."""
    known, lines = {}, []
    for line in binding_section(header).splitlines():
        m = _DEFINE.match(line)
        if m:
            known[m.group(1)] = _value(m.group(2), known)
            line = f"#define {m.group(1)} {known[m.group(1)]}"
        elif line.lstrip().startswith("#"):
            raise ValueError(f"{header}: preprocessor line in the binding section: {line!r}")
        lines.append(line)
    return "\n".join(lines) + "\n"


ffibuilder = FFI()
ffibuilder.cdef(cdef_from_header())
ffibuilder.set_source(
    "engines.go._core",
    '#include "go.h"\n',
    sources=[str(p.relative_to(CORE.parent.parent.parent)) for p in sorted(CORE.glob("*.c"))],
    include_dirs=[str(CORE.relative_to(CORE.parent.parent.parent))],
    extra_compile_args=["-O3", "-pthread", "-std=gnu11"],
    extra_link_args=["-pthread"],
    libraries=["m"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)

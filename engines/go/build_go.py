"""cffi build script for the Go core: compiles engines/go/core/*.c into engines.go._core.

Run by `pip install -e .` through setup.py's cffi_modules (API mode: the C compiler checks the
declarations against go.h, and cffi releases the GIL around every call).

The declarations are not written here: they are the part of core/go.h between the
"binding: begin" and "binding: end" markers, given to cdef() as they stand except that each
`#define NAME expression` becomes `#define NAME value` (cdef only takes integer literals), the
value computed from the header's own earlier defines; engines/cbuild.py does that for every
core. See engines/HACKING.md.
"""
import sys
from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
from engines import cbuild  # noqa: E402  (the shared header reader, stdlib only)

CORE = Path(__file__).resolve().parent / "core"
HEADER = CORE / "go.h"


def binding_section(header: Path = HEADER) -> str:
    """The text between the binding markers of a header (engines/cbuild.py)."""
    return cbuild.binding_section(header)


def cdef_from_header(header: Path = HEADER) -> str:
    """The binding section with every #define reduced to an integer literal (engines/cbuild.py)."""
    return cbuild.cdef_from_header(header)


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

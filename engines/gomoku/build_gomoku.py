"""cffi build script for the Gomoku core: compiles engines/gomoku/core/*.c into
engines.gomoku._core.

Run by `pip install -e .` through setup.py's cffi_modules (API mode: the C compiler checks the
declarations against gomoku.h, and cffi releases the GIL around every call). The declarations
are gomoku.h's binding section, read by engines/cbuild.py's cdef_from_header (the helper the Go
build uses too). See engines/HACKING.md.
"""
import sys
from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
from engines.cbuild import cdef_from_header  # noqa: E402

CORE = Path(__file__).resolve().parent / "core"
HEADER = CORE / "gomoku.h"

ffibuilder = FFI()
ffibuilder.cdef(cdef_from_header(HEADER))
ffibuilder.set_source(
    "engines.gomoku._core",
    '#include "gomoku.h"\n',
    sources=[str(p.relative_to(ROOT)) for p in sorted(CORE.glob("*.c"))],
    include_dirs=[str(CORE.relative_to(ROOT))],
    extra_compile_args=["-O3", "-pthread", "-std=gnu11"],
    extra_link_args=["-pthread"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)

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

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
from engines import cbuild  # noqa: E402  (the shared header reader, stdlib only)

ffibuilder = cbuild.core_ffi("go", "go.h", libraries=("m",))

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)

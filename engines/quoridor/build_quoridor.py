"""cffi build script for the Quoridor core: compiles engines/quoridor/core/*.c into
engines.quoridor._core.

Run by `pip install -e .` through setup.py's cffi_modules (API mode: the C compiler checks the
declarations against quoridor.h, and cffi releases the GIL around every call).

The declarations are not written here: they are the part of core/quoridor.h between the
"binding: begin" and "binding: end" markers, read by engines/cbuild.py (shared by every core). See
engines/HACKING.md.
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
from engines.cbuild import core_ffi  # noqa: E402  (the shared header reader, stdlib only)

ffibuilder = core_ffi("quoridor", "quoridor.h")

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)

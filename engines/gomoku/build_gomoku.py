"""cffi build script for the Gomoku core: compiles engines/gomoku/core/*.c into
engines.gomoku._core.

Run by `pip install -e .` through setup.py's cffi_modules (API mode: the C compiler checks the
declarations against gomoku.h, and cffi releases the GIL around every call). The declarations
are gomoku.h's binding section, read by engines/cbuild.py's cdef_from_header (the helper the Go
build uses too). See engines/HACKING.md.
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
from engines.cbuild import core_ffi  # noqa: E402

ffibuilder = core_ffi("gomoku", "gomoku.h")

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)

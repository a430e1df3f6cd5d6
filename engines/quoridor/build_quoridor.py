"""cffi build script for the Quoridor core: compiles engines/quoridor/core/*.c into
engines.quoridor._core.

Run by `pip install -e .` through setup.py's cffi_modules (API mode: the C compiler checks the
declarations against quoridor.h, and cffi releases the GIL around every call).

The declarations are not written here: they are the part of core/quoridor.h between the
"binding: begin" and "binding: end" markers, read by engines/go/build_go.py's
cdef_from_header (loaded by path, so this script needs nothing on sys.path). See
engines/HACKING.md.
"""
import importlib.util
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
CORE = HERE / "core"
HEADER = CORE / "quoridor.h"
ROOT = HERE.parent.parent


def _go_build():
    """engines/go/build_go.py as a module: its header reader is shared by every core."""
    spec = importlib.util.spec_from_file_location("_build_go_for_quoridor",
                                                  HERE.parent / "go" / "build_go.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_go = _go_build()
binding_section = _go.binding_section
cdef_from_header = _go.cdef_from_header

ffibuilder = FFI()
ffibuilder.cdef(cdef_from_header(HEADER))
ffibuilder.set_source(
    "engines.quoridor._core",
    '#include "quoridor.h"\n',
    sources=[str(p.relative_to(ROOT)) for p in sorted(CORE.glob("*.c"))],
    include_dirs=[str(CORE.relative_to(ROOT))],
    extra_compile_args=["-O3", "-pthread", "-std=gnu11"],
    extra_link_args=["-pthread"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)

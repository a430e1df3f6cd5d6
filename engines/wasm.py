"""A C core for the browser: engines/GAME/core/*.c compiled to engines/web/static/wasm/GAME.wasm.

The sources are the native build's (every core/*.c, as `engines.cbuild.core_sources` lists them), compiled by clang for
wasm32-wasi with SIMD (-msimd128: value.c's network multiplies 16-bit integers with
i32x4.dot_i16x8_s, the same integer sums as the native build's kernels, and its float arithmetic
is the same IEEE arithmetic with no fused multiply-add, so results stay bit for bit the native
build's);
the one difference between the two builds is engines/platform/core_platform.h. The
module exports every function of the core's binding section (the same list cffi binds), malloc
and free, and `soloshop_layout`: the sizes and field offsets of the section's structs as this
target lays them out (a `long` is 4 bytes here), which the page's loader reads by name from
GAME.layout.json so no offset is written by hand on the JavaScript side.

The module may import only what `ALLOWED_IMPORTS` lists (the host's clock). A build that needs
anything else (a stray printf pulls in WASI's fd_write) is refused with the import named. The
artefacts are built by `make`, not committed.

    python -m engines.wasm [GAME ...]      build (default: every core)
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from engines.cbuild import PLATFORM, ROOT, cdef_from_header
from plumbing.errors import NamedError
from plumbing.files import atomic_write

OUT = ROOT / "engines" / "web" / "static" / "wasm"  # the arcade serves it at static/wasm/
# The cores built for the browser: those whose platform calls go through core_platform.h.
HEADERS = {"go": "go.h", "gomoku": "gomoku.h", "quoridor": "quoridor.h"}
ALLOWED_IMPORTS = {("env", "now_seconds")}  # core_platform.h's host clock
EXTRA_EXPORTS = ("malloc", "free")
STACK_BYTES = 1 << 20  # the cores keep boards and results on the stack (wasm-ld's default: 64 KB)
CLANG_FLAGS = ("--target=wasm32-wasi", "-O3", "-msimd128", "-std=gnu11", "-DNDEBUG", "-nostartfiles",
               "-Wl,--no-entry", "-Wl,--strip-all", f"-Wl,-z,stack-size={STACK_BYTES}")
TOOLCHAIN_HINT = "install clang lld wasi-libc libclang-rt-dev-wasm32 (Debian), or run `make`"

# C type -> the loader's accessor (wasm32: int, long and pointers are 4 bytes).
_KINDS = {"int": "i32", "long": "i32", "int32_t": "i32", "unsigned": "u32", "uint32_t": "u32",
          "unsigned int": "u32", "double": "f64", "float": "f32", "uint64_t": "u64",
          "int64_t": "i64", "uint8_t": "u8", "char": "i8", "int8_t": "i8", "uint16_t": "u16",
          "int16_t": "i16", "size_t": "u32"}


class WasmBuildError(NamedError):
    """The WebAssembly build cannot run or produced a module it must not ship."""


def binding_api(game: str, core: Path) -> tuple[list[str], dict[str, list[tuple[str, str, int]]]]:
    """The function names and the struct fields (name, kind, count) of GAME's binding section
    (in CORE/its header)."""
    from pycparser import c_ast, c_parser  # comes with cffi, the native build's requirement

    cdef = cdef_from_header(core / HEADERS[game])
    # pycparser takes no comments or macros: drop the comments, put each #define's value (an
    # integer literal already, see cbuild) in place of its name, declare the stdint names.
    cdef = re.sub(r"/\*.*?\*/|//[^\n]*", " ", cdef, flags=re.S)
    defines = dict(re.findall(r"^#define\s+(\w+)\s+(\S+)$", cdef, flags=re.M))
    body = re.sub(r"^#define.*$", "", cdef, flags=re.M)
    body = re.sub(r"\b\w+\b", lambda m: defines.get(m.group(0), m.group(0)), body)
    prelude = "".join(f"typedef int {t};\n" for t in _KINDS if t.endswith("_t"))
    tree = c_parser.CParser().parse(prelude + body)
    functions, structs = [], {}
    for node in tree.ext:
        if isinstance(node, c_ast.Decl) and isinstance(node.type, c_ast.FuncDecl):
            functions.append(node.name)
        elif (isinstance(node, c_ast.Typedef) and isinstance(node.type.type, c_ast.Struct)
              and node.type.type.decls):
            structs[node.name] = [_field(d, structs) for d in node.type.type.decls]
    return functions, structs


def _field(decl, structs: dict) -> tuple[str, str, int]:
    """(name, kind, count) of a struct field; a field that is itself a binding struct has the
    kind "struct NAME" (its offset is known; the loader reads no value of it)."""
    from pycparser import c_ast

    count, t = 1, decl.type
    while isinstance(t, c_ast.ArrayDecl):
        count *= _constant(t.dim)
        t = t.type
    if isinstance(t, c_ast.PtrDecl):
        return decl.name, "u32", count
    names = " ".join(t.type.names)
    if names in structs:
        return decl.name, f"struct {names}", count
    if names not in _KINDS:
        raise WasmBuildError(f"struct field {decl.name}: type {names!r} has no wasm accessor; "
                             f"add it to engines/wasm.py's _KINDS")
    return decl.name, _KINDS[names], count


_OPS = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__, "/": int.__floordiv__,
        "<<": int.__lshift__}


def _constant(node) -> int:
    """An array dimension: integer literals combined by + - * / << (the defines are literals)."""
    from pycparser import c_ast

    if isinstance(node, c_ast.Constant):
        return int(node.value.rstrip("uUlL"), 0)
    if isinstance(node, c_ast.BinaryOp) and node.op in _OPS:
        return _OPS[node.op](_constant(node.left), _constant(node.right))
    raise WasmBuildError(f"array dimension {node!r} is not an integer expression")


def layout(structs: dict) -> tuple[str, dict]:
    """The C source of soloshop_layout[] and the JSON naming each entry's index."""
    entries, names = [], {}
    for struct, fields in structs.items():
        names[struct] = {"size": len(entries), "fields": {}}
        entries.append(f"sizeof({struct})")
        for field, kind, count in fields:
            names[struct]["fields"][field] = {"index": len(entries), "kind": kind,
                                              "count": count}
            entries.append(f"offsetof({struct}, {field})")
    return ",\n    ".join(entries), names


def build(game: str, out: Path = OUT, core: Path | None = None) -> Path:
    """Compile GAME's core (engines/GAME/core, or the copy in CORE) to OUT/GAME.wasm and
    OUT/GAME.layout.json; returns the .wasm path."""
    clang = shutil.which("clang")
    if not clang:
        raise WasmBuildError(f"clang is missing: {TOOLCHAIN_HINT}")
    core = core or ROOT / "engines" / game / "core"
    functions, structs = binding_api(game, core)
    offsets, names = layout(structs)
    wasm = out / f"{game}.wasm"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        layout_c = Path(tmp) / "layout.c"
        layout_c.write_text(f'#include <stddef.h>\n#include <stdint.h>\n#include "{HEADERS[game]}"\n'
                            f"const uint32_t soloshop_layout[] = {{\n    {offsets}\n}};\n")
        exports = [*functions, *EXTRA_EXPORTS, "soloshop_layout"]
        built = Path(tmp) / wasm.name
        result = subprocess.run(
            [clang, *CLANG_FLAGS, *(f"-Wl,--export={name}" for name in exports),
             f"-I{core}", f"-I{PLATFORM}", *map(str, sorted(core.glob("*.c"))), str(layout_c),
             "-o", str(built)], capture_output=True, text=True)
        if result.returncode:
            hint = TOOLCHAIN_HINT if "not found" in result.stderr else "see clang's message"
            raise WasmBuildError(f"{game}: clang failed ({hint}):\n{result.stderr.strip()[-2000:]}")
        data = built.read_bytes()
    unexpected = sorted(set(imports(data)) - ALLOWED_IMPORTS)
    if unexpected:
        listed = ", ".join(f"{m}.{n}" for m, n in unexpected)
        raise WasmBuildError(f"{game}.wasm imports {listed}, beyond engines/wasm.py's "
                             f"ALLOWED_IMPORTS: remove the libc call that needs it (I/O, "
                             f"exit, assert) or list it on purpose")
    atomic_write(out / f"{game}.layout.json",
                 json.dumps({"game": game, "functions": functions, "structs": names}, indent=1))
    atomic_write(wasm, data)
    return wasm


def _leb128(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def _sections(data: bytes):
    """(id, start, end) of each section of a WebAssembly binary."""
    if data[:4] != b"\0asm":
        raise WasmBuildError("not a WebAssembly module (no \\0asm magic)")
    at = 8
    while at < len(data):
        section, at = data[at], at + 1
        size, at = _leb128(data, at)
        yield section, at, at + size
        at += size


def _name(data: bytes, at: int) -> tuple[str, int]:
    n, at = _leb128(data, at)
    return data[at:at + n].decode(), at + n


def _limits(data: bytes, at: int) -> int:
    flags, at = _leb128(data, at)
    _, at = _leb128(data, at)
    if flags & 1:
        _, at = _leb128(data, at)
    return at


def imports(data: bytes) -> list[tuple[str, str]]:
    """(module, name) of every import of a WebAssembly binary (its import section)."""
    found = []
    for section, at, _ in _sections(data):
        if section != 2:
            continue
        count, at = _leb128(data, at)
        for _ in range(count):
            module, at = _name(data, at)
            name, at = _name(data, at)
            kind, at = data[at], at + 1
            if kind == 0:                          # function: its type index
                _, at = _leb128(data, at)
            elif kind == 1:                        # table: reference type, limits
                at = _limits(data, at + 1)
            elif kind == 2:                        # memory: limits
                at = _limits(data, at)
            else:                                  # global: value type, mutability
                at += 2
            found.append((module, name))
    return found


def exports(data: bytes) -> list[str]:
    """The export names of a WebAssembly binary (its export section)."""
    found = []
    for section, at, _ in _sections(data):
        if section == 7:
            count, at = _leb128(data, at)
            for _ in range(count):
                name, at = _name(data, at)
                _, at = _leb128(data, at + 1)      # kind byte, then the index
                found.append(name)
    return found


def main(argv: list[str]) -> int:
    if {"-h", "--help"} & set(argv):
        print(__doc__)
        return 0
    games = argv or sorted(HEADERS)
    for game in games:
        if game not in HEADERS:
            print(f"unknown core {game!r}: one of {', '.join(sorted(HEADERS))}", file=sys.stderr)
            return 2
    try:
        for game in games:
            path = build(game)
            print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
    except WasmBuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

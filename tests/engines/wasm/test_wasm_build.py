"""The WebAssembly build (engines/wasm.py): what each module imports and exports, its layout
table, and the refusal of a module that needs more from its host than the list allows."""
import json
import shutil

import pytest

from engines import wasm
from engines.cbuild import ROOT

pytestmark = pytest.mark.wasm


@pytest.mark.parametrize("game", sorted(wasm.HEADERS))
def test_a_module_imports_only_the_host_clock_and_exports_its_whole_binding(wasm_dir, game):
    data = (wasm_dir / f"{game}.wasm").read_bytes()
    assert set(wasm.imports(data)) <= wasm.ALLOWED_IMPORTS
    functions, _ = wasm.binding_api(game, ROOT / "engines" / game / "core")
    exported = set(wasm.exports(data))
    assert set(functions) <= exported, sorted(set(functions) - exported)
    assert {"memory", "malloc", "free", "soloshop_layout"} <= exported
    assert len(data) < 256 * 1024, f"{game}.wasm is {len(data):,} bytes"


def test_the_layout_names_every_field_of_every_binding_struct(wasm_dir):
    layout = json.loads((wasm_dir / "go.layout.json").read_text())
    result = layout["structs"]["go_search_result"]["fields"]
    assert result["ownership"] == {**result["ownership"], "kind": "f32", "count": 19 * 19}
    assert result["playouts"]["kind"] == "i32"   # a C long is 4 bytes on wasm32
    assert layout["structs"]["go_board"]["fields"]["pos_hash"]["kind"] == "u64"
    indices = [f["index"] for s in layout["structs"].values() for f in s["fields"].values()]
    assert len(indices) == len(set(indices))


def test_a_core_that_calls_printf_is_refused_with_the_import_named(tmp_path):
    core = tmp_path / "core"
    shutil.copytree(ROOT / "engines" / "go" / "core", core)
    board = core / "board.c"
    board.write_text(board.read_text().replace(
        '#include "internal.h"\n', '#include "internal.h"\n#include <stdio.h>\n', 1)
        + '\nvoid go_debug_print(int n) { printf("%d\\n", n); }\n')
    header = core / "go.h"
    header.write_text(header.read_text().replace(
        "/* ==== binding: end", "void go_debug_print(int n);\n/* ==== binding: end"))
    with pytest.raises(wasm.WasmBuildError, match=r"wasi_snapshot_preview1\.fd_write.*ALLOWED_IMPORTS"):
        wasm.build("go", tmp_path / "out", core=core)
    assert not (tmp_path / "out" / "go.wasm").exists()


def test_the_import_reader_rejects_what_is_not_a_module():
    with pytest.raises(wasm.WasmBuildError, match="not a WebAssembly module"):
        wasm.imports(b"\x7fELF\x02\x01")

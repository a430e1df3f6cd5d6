"""What the WebAssembly tests share: a build of a core into a scratch directory (the same
engines.wasm.build that `make` runs) and a Node run of a script that loads it."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
STATIC = HERE.parents[2] / "engines" / "web" / "static"


def node() -> str:
    found = shutil.which("node")
    assert found, "node is needed (Debian package nodejs)"
    return found


def run_node(script: Path, payload: dict, wasm_dir: Path, timeout: float = 300) -> dict:
    """SCRIPT (an ES module here) run by Node with PAYLOAD and the built cores' directory;
    returns the JSON it prints."""
    args = dict(payload, wasm=str(wasm_dir), static=str(STATIC))
    request = wasm_dir / f"{script.stem}.request.json"
    request.write_text(json.dumps(args))
    done = subprocess.run([node(), str(script), str(request)], capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{script.name} failed:\n{done.stderr[-3000:]}"
    return json.loads(done.stdout)

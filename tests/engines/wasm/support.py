"""What the WebAssembly tests share: a build of a core into a scratch directory (the same
engines.wasm.build that `make` runs), a Node run of a script that loads it, and the same API
requests answered by the server and by a game's in-page API."""
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


def answers_both_ways(game: str, calls: list[dict], wasm_dir: Path, urls: dict | None = None):
    """Each call ({endpoint, body, stream?}) answered by the Flask app's /api/GAME/ENDPOINT
    (URLS maps an endpoint to its path where they differ; a stream's body is the list of its
    NDJSON lines) and by GAME's in-page API in Node (local_api.mjs): two lists of {status, body}."""
    from engines.web import create_app

    client = create_app({"TESTING": True}).test_client()
    server = []
    for call in calls:
        path = f"/api/{game}/{(urls or {}).get(call['endpoint'], call['endpoint'])}"
        answer = client.post(path + ("/stream" if call.get("stream") else ""), json=call["body"])
        if call.get("stream") and answer.status_code == 200:
            lines = answer.get_data(as_text=True).splitlines()
            server.append({"status": 200, "body": [json.loads(line) for line in lines]})
        else:
            server.append({"status": answer.status_code, "body": answer.get_json()})
    local = run_node(HERE / "local_api.mjs", {"game": game, "calls": calls}, wasm_dir)["answers"]
    return server, local


def without_elapsed(doc):
    """DOC without its elapsed_ms fields (measured, so never equal), at any depth."""
    if isinstance(doc, dict):
        return {k: without_elapsed(v) for k, v in doc.items() if k != "elapsed_ms"}
    if isinstance(doc, list):
        return [without_elapsed(v) for v in doc]
    return doc

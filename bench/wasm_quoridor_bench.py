"""The Quoridor core in the browser build: alpha-beta speed against the native core.

    .venv/bin/python bench/wasm_quoridor_bench.py [--nodes 40000] [--rounds 3]

The same `analyze` request (the arcade's search: alpha-beta, 8 MB table, a node budget under
the 1 s ceiling) from the 9x9 opening and a 20-move position with walls is answered by the
server's API (the native core through cffi, Flask's test client), by the in-page API in Node
(engine/quoridor_local.js on quoridor.wasm) and by the page's in-page engine in Chromium's Web
Worker (engine/worker.js from plain static files), interleaved round by round. Each answer
reports the nodes searched and the search's own time (elapsed_ms); the figure is wasm nodes/s
as a share of native (issue 17's target: at least 60%). The searches are the same: equal nodes,
depth and moves in every build (tests/engines/wasm/test_quoridor_local_api.py).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.worker_site import worker_page  # noqa: E402
from engines import wasm  # noqa: E402
from engines.web import create_app  # noqa: E402

STATIC = ROOT / "engines" / "web" / "static"
# 20 moves of the engine against itself at depth 3: pawns in the middle, 8 walls placed.
MIDDLE = ["e2", "e8", "e3", "e7", "e4", "e6", "d1h", "f6", "f1h", "f5", "e5", "d5h", "g5", "f5h",
          "h1h", "h5h", "e5", "c4v", "e4", "d3h"]


def bodies(nodes: int) -> dict:
    return {name: {"game": {"size": 9, "moves": moves}, "budget": {"nodes": nodes}}
            for name, moves in (("opening", []), ("middle", MIDDLE))}


def rate(answer: dict) -> float:
    return answer["nodes"] / (answer["elapsed_ms"] / 1000)


def chromium_worker(wasm_dir: Path, requests: dict, rounds: int) -> dict:
    """The analyses of the in-page engine in Chromium's worker, round by round."""
    found = {name: [] for name in requests}
    with worker_page(wasm_dir, "quoridor") as (page, ready_ms):
        for _ in range(rounds):
            for name, body in requests.items():
                answer = page.evaluate("(body) => call('analyze', body)", body)
                assert answer["status"] == 200, answer
                found[name].append(answer["body"])
    return {**found, "ready_ms": ready_ms}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=40_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    node = shutil.which("node")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"conditions: {platform.node()} {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, "
          f"clang for wasm32-wasi -O3, Node {version}, alpha-beta analyze of {args.nodes:,} "
          f"nodes (1 s ceiling) x {args.rounds} rounds x 2 positions, 9x9, 8 MB table")
    requests = bodies(args.nodes)
    client = create_app({"TESTING": True}).test_client()
    native = {name: [] for name in requests}
    in_node = {name: [] for name in requests}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        path = wasm.build("quoridor", out)
        print(f"  quoridor.wasm: {path.stat().st_size:,} bytes")
        request_file = out / "bodies.json.in"
        request_file.write_text(json.dumps(list(requests.values())))
        load_ms = []
        for _ in range(args.rounds):
            for name, body in requests.items():
                native[name].append(client.post("/api/quoridor/analyze", json=body).get_json())
            done = subprocess.run([node, str(ROOT / "bench" / "wasm_quoridor_speed.mjs"), str(out),
                                   str(STATIC), str(request_file)],
                                  capture_output=True, text=True, check=True)
            report = json.loads(done.stdout)
            load_ms.append(report["loadMs"])
            for name, answer in zip(requests, report["answers"]):
                in_node[name].append(answer)
        browser = chromium_worker(out, requests, args.rounds)
    print(f"  module load + instantiate in Node: median {statistics.median(load_ms):.1f} ms; "
          f"Chromium worker ready {browser['ready_ms']:.0f} ms after the page's load")
    for name in requests:
        same = {(a["nodes"], a["depth"], a["pv"][0]) for a in native[name] + in_node[name] + browser[name]}
        n, w, c = (statistics.median(map(rate, runs)) for runs in (native[name], in_node[name], browser[name]))
        print(f"  {name:8s} native {n:9,.0f} nodes/s   wasm Node {w:9,.0f} ({w / n:.0%})   "
              f"wasm Chromium worker {c:9,.0f} ({c / n:.0%})   "
              f"{'same search' if len(same) == 1 else f'searches differ: {sorted(same)}'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

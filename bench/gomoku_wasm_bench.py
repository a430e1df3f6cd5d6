"""The Gomoku core in the browser build: search speed (nodes a second) against the native core.

    .venv/bin/python bench/gomoku_wasm_bench.py [--nodes 100000] [--rounds 3]

Builds gomoku.wasm into a scratch directory (size reported), then runs the same node-budget
searches (15x15 freestyle, a 3-move opening and a 12-move middle game, 16 MB table, a fresh
search each time) natively through the cffi binding and in Node on the WebAssembly build
(engine/gomoku_core.js), interleaved round by round, and as `analyze` requests answered by the
page's in-page engine in Chromium's Web Worker (engine/worker.js, static files from
http.server; the API's 1 s ceiling applies there). The figure is wasm nodes/s as a share of
native (issue 17's target: at least 60%).
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engines import wasm  # noqa: E402
from engines.gomoku import GomokuEngine  # noqa: E402
from engines.web.gomoku.record import point_name  # noqa: E402
from bench.worker_site import worker_page  # noqa: E402

STATIC = ROOT / "engines" / "web" / "static"
POSITIONS = {"opening": [(7, 7), (8, 8), (7, 8)],
             # the opening and nine engine moves at 3,000 nodes each: no proven win here
             "middle": [(7, 7), (8, 8), (7, 8), (7, 9), (9, 7), (6, 10), (8, 7), (6, 7), (6, 9),
                        (9, 6), (7, 6), (5, 10)]}
NODE_SCRIPT = """
import { readFileSync } from "fs";
import { pathToFileURL } from "url";
const [wasmDir, staticDir, nodes, positions] = [process.argv[1], process.argv[2], Number(process.argv[3]), JSON.parse(process.argv[4])];
const { loadCore } = await import(pathToFileURL(`${staticDir}/engine/core.js`));
const { GomokuBoard, GomokuSearch } = await import(pathToFileURL(`${staticDir}/engine/gomoku_core.js`));
const core = await loadCore(readFileSync(`${wasmDir}/gomoku.wasm`), JSON.parse(readFileSync(`${wasmDir}/gomoku.layout.json`)));
const out = {};
for (const [name, moves] of Object.entries(positions)) {
  const board = new GomokuBoard(core, 15, "freestyle"), search = new GomokuSearch(core, 16);
  for (const [x, y] of moves) board.play(x, y);
  const t = performance.now();
  const r = search.run(board, { nodes });
  out[name] = r.nodes / ((performance.now() - t) / 1000);
  board.free(); search.free();
}
console.log(JSON.stringify(out));
"""


def native_rate(moves, nodes: int) -> float:
    with GomokuEngine(size=15, tt_megabytes=16) as engine:
        for m in moves:
            engine.play(m)
        t = time.perf_counter()
        result = engine.search(nodes=nodes)
        return result["nodes"] / (time.perf_counter() - t)


def chromium_rates(wasm_dir: Path, nodes: int, rounds: int) -> dict:
    """Nodes a second of analyze requests answered by the in-page engine in Chromium."""
    found = {name: [] for name in POSITIONS}
    with worker_page(wasm_dir, "gomoku") as (page, found["ready_ms"]):
        for _ in range(rounds):
            for name, moves in POSITIONS.items():
                answer = page.evaluate(
                    "([moves, nodes]) => call('analyze', {game: {size: 15, moves},"
                    " budget: {nodes, seconds: 1}})", [[point_name(m, 15) for m in moves], nodes])
                body = answer["body"]
                found[name].append(body["nodes"] / (body["elapsed_ms"] / 1000))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    node = shutil.which("node")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"conditions: {platform.node()} {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, "
          f"clang for wasm32-wasi -O3, Node {version}, {args.nodes} nodes x {args.rounds} rounds "
          f"x {len(POSITIONS)} positions, 15x15 freestyle, 16 MB table, 1 thread")
    positions = {name: [list(m) for m in moves] for name, moves in POSITIONS.items()}
    native, in_node = {n: [] for n in POSITIONS}, {n: [] for n in POSITIONS}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        path = wasm.build("gomoku", out)
        print(f"  gomoku.wasm: {path.stat().st_size:,} bytes")
        for _ in range(args.rounds):
            for name, moves in POSITIONS.items():
                native[name].append(native_rate(moves, args.nodes))
            done = subprocess.run([node, "--input-type=module", "-e", NODE_SCRIPT, str(out), str(STATIC),
                                   str(args.nodes), json.dumps(positions)],
                                  capture_output=True, text=True, check=True)
            for name, rate in json.loads(done.stdout).items():
                in_node[name].append(rate)
        browser = chromium_rates(out, args.nodes, args.rounds)
    print(f"  Chromium worker ready {browser['ready_ms']:.0f} ms after the page's load")
    for name in POSITIONS:
        n, w, c = (statistics.median(v[name]) for v in (native, in_node, browser))
        print(f"  {name:8s} native {n:9,.0f} nodes/s   wasm Node {w:9,.0f} ({w / n:.0%})   "
              f"wasm Chromium worker {c:9,.0f} ({c / n:.0%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

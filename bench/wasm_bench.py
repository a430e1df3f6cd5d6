"""The C cores in the browser build: module sizes and search speed against the native core.

    .venv/bin/python bench/wasm_bench.py [--playouts 20000] [--rounds 3] [--value]

Builds every core with engines/wasm.py into a scratch directory (size reported), then runs the
same Go searches (fixed playouts, one thread, 9x9 opening and a middle-game position, seeds
1..ROUNDS, no tree reuse) natively through the cffi binding and in Node on the WebAssembly
build, interleaved round by round; the figure is wasm playouts/s as a share of native (issue
target: at least 60%).

`--value` searches with the learned network (go_search_opts.value), as the page does: its cost
in the browser build. Then Chromium's Web Worker is measured too (engine/worker.js, the page's
in-page engine, which searches with the network, serving an analyze of the same playouts; the
static files from http.server).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.worker_site import worker_page  # noqa: E402
from engines import wasm  # noqa: E402
from engines.go._core import ffi, lib  # noqa: E402


def middle_game(moves=30, seed=3) -> list[list[int]]:
    """A fixed 9x9 position: MOVES random legal non-edge moves from SEED."""
    rng, game = random.Random(seed), lib.go_game_new(9, 7.0, 1)
    cap, ncap, played = ffi.new("int[]", 200), ffi.new("int*"), []
    while len(played) < moves:
        color, x, y = lib.go_game_to_move(game), rng.randrange(1, 8), rng.randrange(1, 8)
        if lib.go_game_play(game, color, x, y, cap, ncap) == 0:
            played.append([color, x, y])
    lib.go_game_free(game)
    return played


def native_run(moves, playouts, seed, value=False) -> float:
    game = lib.go_game_new(9, 7.0, 1)
    cap, ncap = ffi.new("int[]", 200), ffi.new("int*")
    for c, x, y in moves:
        lib.go_game_play(game, c, x, y, cap, ncap)
    search = lib.go_search_new(seed)
    opts, res = ffi.new("go_search_opts*"), ffi.new("go_search_result*")
    opts.playouts, opts.threads, opts.reuse, opts.value = playouts, 1, 0, int(value)
    t = time.perf_counter()
    lib.go_search_run(search, game, lib.go_game_to_move(game), opts, res)
    seconds = time.perf_counter() - t
    lib.go_search_free(search)
    lib.go_game_free(game)
    return res.playouts / seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--value", action="store_true",
                        help="search with the learned network, and measure the page's engine too")
    args = parser.parse_args()
    node = shutil.which("node")
    node_version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"conditions: {platform.node()} {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, "
          f"clang for wasm32-wasi -O3, Node {node_version}, {args.playouts} playouts x "
          f"{args.rounds} rounds x 2 positions, 9x9, 1 thread, "
          f"{'with' if args.value else 'without'} the learned network")
    middle = middle_game()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        for game in sorted(wasm.HEADERS):
            t = time.perf_counter()
            path = wasm.build(game, out)
            print(f"  {game}.wasm: {path.stat().st_size:,} bytes, built in {time.perf_counter() - t:.1f} s")
        native, in_wasm, load_ms = {"opening": [], "middle": []}, {"opening": [], "middle": []}, []
        for r in range(args.rounds):
            for name, moves in (("opening", []), ("middle", middle)):
                native[name].append(native_run(moves, args.playouts, 1 + r, args.value))
            done = subprocess.run([node, str(ROOT / "bench" / "wasm_speed.mjs"), str(out),
                                   str(ROOT / "engines" / "web" / "static"), str(args.playouts),
                                   "1", json.dumps(middle), "1" if args.value else "0"],
                                  capture_output=True, text=True, check=True)
            report = json.loads(done.stdout)
            load_ms.append(report["loadMs"])
            for run in report["runs"]:
                in_wasm[run["position"]].append(run["playouts"] / run["seconds"])
        browser = chromium_worker(out, middle, args.playouts, args.rounds) if args.value else None
    print(f"  module load + instantiate in Node: median {statistics.median(load_ms):.1f} ms"
          + (f"; Chromium worker ready {browser['ready_ms']:.0f} ms after the page's load" if browser else ""))
    for name in ("opening", "middle"):
        n, w = statistics.median(native[name]), statistics.median(in_wasm[name])
        line = f"  {name:8s} native {n:9,.0f} playouts/s   wasm Node {w:9,.0f} ({w / n:.0%})"
        if browser:
            c = statistics.median(browser[name])
            line += f"   wasm Chromium worker {c:9,.0f} ({c / n:.0%})"
        print(line)
    return 0


def chromium_worker(wasm_dir: Path, middle, playouts: int, rounds: int) -> dict:
    """Playouts a second of analyze requests answered by the in-page engine in Chromium."""
    moves = {"opening": [], "middle": [m_text(m) for m in middle]}
    found = {"opening": [], "middle": []}
    with worker_page(wasm_dir, "go") as (page, ready_ms):
        for r in range(rounds):
            for name in ("opening", "middle"):
                answer = page.evaluate(
                    "([moves, playouts, seed]) => call('analyze', {game: {size: 9, moves},"
                    " budget: {playouts, seconds: 1}, seed})",
                    [moves[name], min(playouts, 20000), 1 + r])
                body = answer["body"]
                found[name].append(body["playouts"] / (body["elapsed_ms"] / 1000))
    return {**found, "ready_ms": ready_ms}


def m_text(move) -> list[int]:
    """A [colour, x, y] move of middle_game() as the API's [x, y] point (colours alternate)."""
    return [move[1], move[2]]


if __name__ == "__main__":
    raise SystemExit(main())

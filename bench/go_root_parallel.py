"""Do several in-page workers pay? Root parallelism for the browser build, measured natively.

    .venv/bin/python bench/go_root_parallel.py gtp --workers 2 --playouts 1000   # a GTP engine
    .venv/bin/python bench/go_root_parallel.py match --workers 2 --playouts 1000 --games 100
    .venv/bin/python bench/go_root_parallel.py throughput --workers 2   # Chromium, wasm

WebAssembly in the page has no threads (wasi-libc), so the only parallel search the browser
build can run is several Web Workers that share nothing: each keeps its own tree of the same
position (seeded differently), and the page plays the move with the most visits summed over
the workers' root candidates. On N cores those workers cost the wall time of one. This script
plays exactly that policy as a GTP engine on the native core (the same C search, so the result
carries over to the wasm build move for move), and `match` pits K workers of P playouts each
against one search of P playouts (the same wall time on K free cores) and against one search
of K x P playouts (what a shared tree would reach at best), refereed by GNU Go through
`engines match go`. Workers run one after another here: playouts, not time, are the budget.
`throughput` measures the other half in Chromium: the playouts a second of one in-page worker
alone, and of K workers searching at once (the page's engine/worker.js on the wasm build).
"""
from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engines.go import GoEngine  # noqa: E402
from engines.go.gtp import Budget, run_gtp  # noqa: E402


class RootParallel(GoEngine):
    """A GoEngine whose genmove merges the root visits of WORKERS independent searches.

    The first worker is this engine itself (its C search still decides passes and
    resignations, as a page's first worker would); the others are shadows that replay
    every move."""

    def __init__(self, workers: int, seed: int = 0, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.shadows = [GoEngine(seed=seed + 7919 * (i + 1), **kwargs) for i in range(workers - 1)]

    def clear(self, size=None):
        super().clear(size)
        for s in self.shadows:
            s.clear(size)

    def set_komi(self, komi):
        super().set_komi(komi)
        for s in self.shadows:
            s.set_komi(komi)

    def play(self, color, point):
        captured = super().play(color, point)
        for s in self.shadows:
            s.play(color, point)
        return captured

    def undo(self):
        done = super().undo()
        for s in self.shadows:
            s.undo()
        return done

    def genmove(self, color, playouts=None, seconds=None):
        visits: dict = defaultdict(int)
        for s in self.shadows:
            for c in s.analyze(color, playouts, seconds)["candidates"]:
                visits[c["move"]] += c["visits"]
        own = self.analyze(color, playouts, seconds)
        for c in own["candidates"]:
            visits[c["move"]] += c["visits"]
        move = super().genmove(color, playouts=1, seconds=None)  # its tree decides pass/resign
        if move == "resign" or move is None:
            if move is None:
                for s in self.shadows:
                    s.play(color, None)
            return move
        super().undo()
        best = max(visits, key=lambda m: (visits[m], m is not None))
        self.play(color, best)
        return best

    def close(self):
        for s in self.shadows:
            s.close()
        super().close()


def serve(args) -> int:
    engine = RootParallel(args.workers, seed=args.seed, size=9, komi=7.0)
    return run_gtp(engine=engine, budget=Budget(playouts=args.playouts, seconds=None))


def match(args) -> int:
    me = f"{shlex.quote(sys.executable)} {shlex.quote(str(Path(__file__).resolve()))}"
    engines = str(Path(sys.executable).parent / "engines")  # this venv's console script
    plain = f"{shlex.quote(engines)} gtp go"
    k, p = args.workers, args.playouts
    runs = [(f"{k}x{p}-vs-1x{p}", p), (f"{k}x{p}-vs-1x{k * p}", k * p)]
    for name, opponent_playouts in runs:
        out = Path(args.out) / name
        cmd = [engines, "match", "go", "--games", str(args.games),
               "--engine", f"{me} gtp --workers {k} --playouts {p}",
               "--opponent", plain, "--opponent-playouts", str(opponent_playouts),
               "--seconds", "30", "--opponent-seconds", "30", "--concurrency", "1",
               "--out", str(out)]
        print("$", " ".join(shlex.quote(c) for c in cmd), flush=True)
        subprocess.run(cmd, cwd=ROOT, check=False)
    return 0


PAGE = """<!doctype html><script type="module">
window.search = (workers, moves) => Promise.all(Array.from({ length: workers }, (_, i) =>
  new Promise((done) => {
    const w = new Worker("engine/worker.js?game=go", { type: "module" });
    w.onmessage = ({ data }) => {
      if ("ready" in data) {
        window.started = window.started || performance.now();
        w.postMessage({ id: 1, endpoint: "analyze",
                        body: { game: { size: 9, moves }, budget: { playouts: 20000, seconds: 1 }, seed: i } });
      } else { w.terminate(); done(data.body.playouts); }
    };
  }))).then((playouts) => ({ playouts, ms: performance.now() - window.started }));
</script>"""


def throughput(args) -> int:
    """Total playouts a second of WORKERS in-page engines searching at once, against one."""
    import os
    import tempfile

    from playwright.sync_api import sync_playwright

    from bench.worker_site import static_site
    from engines import wasm
    from plumbing.chromium import launch

    print(f"conditions: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; Chromium, "
          f"engine/worker.js, 9x9 opening, each worker 20,000 playouts or 1 s, {args.rounds} rounds")
    with tempfile.TemporaryDirectory() as tmp:
        wasm.build("go", Path(tmp))
        with static_site(Path(tmp), PAGE) as url, sync_playwright() as pw:
            browser = launch(pw)
            for r in range(args.rounds):
                for workers in (1, args.workers):
                    page = browser.new_page()
                    page.goto(url)
                    got = page.evaluate("([k, moves]) => window.search(k, moves)", [workers, []])
                    page.close()
                    rate = sum(got["playouts"]) / (got["ms"] / 1000)
                    print(f"  round {r + 1}: {workers} worker(s): {rate:9,.0f} playouts/s in all "
                          f"({', '.join(f'{p:,}' for p in got['playouts'])} in {got['ms']:.0f} ms)",
                          flush=True)
            browser.close()
    print(f"  load after: {os.getloadavg()[0]:.2f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    g = sub.add_parser("gtp", help="serve GTP with the root-parallel policy")
    m = sub.add_parser("match", help="K workers against one search of P and of K x P playouts")
    t = sub.add_parser("throughput", help="playouts a second of K in-page workers at once, in Chromium")
    t.add_argument("--workers", type=int, default=2)
    t.add_argument("--rounds", type=int, default=3)
    for p in (g, m):
        p.add_argument("--workers", type=int, default=2)
        p.add_argument("--playouts", type=int, default=1000)
    g.add_argument("--seed", type=int, default=0)
    m.add_argument("--games", type=int, default=100)
    m.add_argument("--out", default="var/go-root-parallel")
    args = parser.parse_args()
    return {"gtp": serve, "match": match, "throughput": throughput}[args.what](args)


if __name__ == "__main__":
    sys.exit(main())

"""Arcade benchmark: engine reply time through the API, first paint, concurrent analyses.

    .venv/bin/python bench/arcade_bench.py [--positions N] [--concurrent 20] [--paints 10]
                                           [--games go,gomoku,quoridor]

Starts the arcade under waitress on a free 127.0.0.1 port (as `engines serve` does) and
measures:
  1. an engine reply (POST /api/go/genmove, the server's default budget) on 9x9 positions from
     the opening to the middle game; baseline: the same genmove called in-process (no HTTP, no
     replay), so the API's overhead shows;
  2. the Go page's first paint and first contentful paint in Chromium from a warm server
     (Performance API, median of N reloads); baseline: the landing page;
  3. N concurrent analysis requests at the default budget: errors, wall time; baseline: one
     request alone.
  4. the same reply and concurrency figures for Gomoku (15x15 freestyle) and Quoridor (9x9) at
     their default budget (DEFAULT_SECONDS), on positions from the engines' own quick self-play;
     baseline: the same search in-process.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.web import DEFAULT_CONFIG  # noqa: E402
from engines.web.serve import arcade_thread  # noqa: E402
from plumbing import chromium  # noqa: E402


def conditions() -> str:
    model = ""
    try:
        model = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                     if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()
    return (f"machine: {platform.machine()} {model}, {os.cpu_count()} cores, load "
            f"{load[0]:.2f}/{load[1]:.2f}; Python {platform.python_version()}; "
            f"default budget {DEFAULT_CONFIG['DEFAULT_PLAYOUTS']} playouts (Go), "
            f"{DEFAULT_CONFIG['DEFAULT_SECONDS']} s (Gomoku, Quoridor), engine threads 1")


def sample_positions(count: int, seed: int = 1) -> list[list[str]]:
    """Records of 0..~40 moves made by the engine itself at a tiny budget (legal by construction)."""
    from engines.go import GoEngine
    from engines.go.coords import to_gtp

    rng = random.Random(seed)
    records = []
    for i in range(count):
        length = rng.randrange(0, 40) if i else 0
        with GoEngine(size=9, komi=7.0, seed=i, threads=1) as engine:
            record = []
            for ply in range(length):
                point = engine.genmove("b" if ply % 2 == 0 else "w", playouts=30)
                if point in (None, "resign"):
                    break
                record.append(to_gtp(point, 9))
        records.append(record)
    return records


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summary(values_ms) -> str:
    return (f"median {statistics.median(values_ms):.0f} ms, p90 {percentile(values_ms, 0.9):.0f} ms, "
            f"max {max(values_ms):.0f} ms (n={len(values_ms)})")


def bench_reply(url: str, records) -> None:
    from engines.go.coords import from_gtp
    from engines.web.go.session import new_engine

    through_api, in_process = [], []
    for record in records:
        game = {"size": 9, "komi": 7.0, "moves": record}
        started = time.perf_counter()
        response = httpx.post(f"{url}/api/go/genmove", json={"game": game}, timeout=30)
        through_api.append((time.perf_counter() - started) * 1000)
        response.raise_for_status()
        with new_engine(size=9, komi=7.0, seed=0) as engine:    # the server's engine
            for ply, vertex in enumerate(record):
                engine.play("b" if ply % 2 == 0 else "w", from_gtp(vertex, 9))
            started = time.perf_counter()
            engine.genmove("b" if len(record) % 2 == 0 else "w",
                           playouts=DEFAULT_CONFIG["DEFAULT_PLAYOUTS"])
            in_process.append((time.perf_counter() - started) * 1000)
    print(f"1. engine reply on 9x9 at the default budget, through the API: {summary(through_api)}")
    print(f"   baseline, genmove in-process (no HTTP, no replay):         {summary(in_process)}")
    print(f"   target <= 1000 ms: {'met' if max(through_api) <= 1000 else 'NOT met'} (max)")


def bench_paint(url: str, reloads: int) -> None:
    from playwright.sync_api import sync_playwright

    script = ("() => Object.fromEntries(performance.getEntriesByType('paint')"
              ".map(e => [e.name, e.startTime]))")
    results = {}
    with sync_playwright() as pw:
        browser = chromium.launch(pw)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        for name, path in (("landing /", "/"), ("Go page /go", "/go"), ("Gomoku page /gomoku", "/gomoku"),
                           ("Quoridor page /quoridor", "/quoridor")):
            page.goto(url + path)  # warm: the server and the browser's cache
            paints = []
            for _ in range(reloads):
                page.goto(url + path, wait_until="load")
                page.wait_for_function("() => performance.getEntriesByType('paint').length >= 2")
                paints.append(page.evaluate(script))
            results[name] = paints
        browser.close()
    for name, paints in results.items():
        fp = [p["first-paint"] for p in paints]
        fcp = [p["first-contentful-paint"] for p in paints]
        print(f"2. {name}: first paint {summary(fp)}; first contentful paint median "
              f"{statistics.median(fcp):.0f} ms")
    worst = max(statistics.median([p["first-contentful-paint"] for p in v]) for v in results.values())
    print(f"   target <= 300 ms (median first contentful paint): {'met' if worst <= 300 else 'NOT met'}")


def bench_concurrent(url: str, count: int, records) -> None:
    def analyze(i):
        game = {"size": 9, "komi": 7.0, "moves": records[i % len(records)]}
        started = time.perf_counter()
        response = httpx.post(f"{url}/api/go/analyze", json={"game": game, "seed": i}, timeout=120)
        playouts = response.json().get("playouts", 0) if response.status_code == 200 else 0
        return response.status_code, (time.perf_counter() - started) * 1000, playouts

    alone_runs = [analyze(0) for _ in range(3)]
    alone = [ms for _, ms, _ in alone_runs]
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=count) as pool:
        answers = list(pool.map(analyze, range(count)))
    wall = (time.perf_counter() - started) * 1000
    errors = sum(1 for status, _, _ in answers if status != 200)
    print(f"3. {count} concurrent analyses at the default budget: {errors} errors, wall "
          f"{wall:.0f} ms, per request {summary([ms for _, ms, _ in answers])}, playouts "
          f"reached median {statistics.median([p for _, _, p in answers]):.0f} "
          f"(each search also stops at the 1 s ceiling)")
    together = sum(p for _, _, p in answers) / (wall / 1000)
    alone_rate = statistics.median([p / (ms / 1000) for _, ms, p in alone_runs])
    print(f"   throughput: {together:.0f} playouts/s across the {count} requests, against "
          f"{alone_rate:.0f} playouts/s for one request alone (HTTP and replay included)")
    print(f"   baseline, one analysis alone: median {statistics.median(alone):.0f} ms, "
          f"{statistics.median([p for _, _, p in alone_runs]):.0f} playouts; {count} in series "
          f"would take ~{count * statistics.median(alone):.0f} ms")


# ---- Gomoku and Quoridor ------------------------------------------------------------------

def gomoku_positions(count: int, seed: int = 1) -> list[dict]:
    """15x15 freestyle records of 0..~30 moves from the engine's quick self-play (legal by construction)."""
    from engines.gomoku import GomokuEngine
    from engines.web.gomoku.record import point_name

    rng = random.Random(seed)
    games = []
    for i in range(count):
        length = rng.randrange(0, 30) if i else 0
        with GomokuEngine(size=15, rule="freestyle", tt_megabytes=8) as engine:
            if length:  # a random opening pair near the centre, so the games differ
                for _ in range(2):
                    engine.play(rng.choice([p for p in engine.legal_moves()
                                            if abs(p[0] - 7) <= 3 and abs(p[1] - 7) <= 3]))
            for _ in range(length):
                if engine.is_over or engine.genmove(nodes=300)["move"] is None:
                    break
            if engine.is_over:
                engine.undo()
            games.append({"size": 15, "rule": "freestyle",
                          "moves": [point_name(p, 15) for p in engine.moves()]})
    return games


def quoridor_positions(count: int, seed: int = 1) -> list[dict]:
    """9x9 records of 0..~20 moves from the engine's quick self-play."""
    from engines.quoridor import QuoridorEngine

    rng = random.Random(seed)
    games = []
    for i in range(count):
        length = rng.randrange(0, 20) if i else 0
        engine = QuoridorEngine(size=9, tt_megabytes=4)
        if length:  # a random first wall, so the games differ
            engine.play(rng.choice(engine.legal_walls()))
        for _ in range(length):
            if engine.winner is not None or engine.genmove(nodes=300)["move"] is None:
                break
        if engine.winner is not None:
            engine.undo()
        games.append({"size": 9, "moves": engine.moves()})
    return games


def in_process_search(game: str, record: dict, seconds: float) -> float:
    """The same search the API runs, without HTTP or replay through the API: ms."""
    if game == "gomoku":
        from engines.gomoku import GomokuEngine
        from engines.web.gomoku.record import parse_point

        with GomokuEngine(size=record["size"], rule=record["rule"], tt_megabytes=16) as engine:
            for name in record["moves"]:
                engine.play(parse_point(name, record["size"], "bench"))
            started = time.perf_counter()
            engine.search(seconds=seconds)
    else:
        from engines.quoridor import QuoridorEngine

        engine = QuoridorEngine(size=record["size"], tt_megabytes=8)
        for move in record["moves"]:
            engine.play(move)
        started = time.perf_counter()
        engine.search(seconds=seconds, engine="alphabeta")   # the arcade's (web/quoridor/session.py)
    return (time.perf_counter() - started) * 1000


def bench_alpha_beta_game(url: str, game: str, records: list[dict], count: int) -> None:
    seconds = DEFAULT_CONFIG["DEFAULT_SECONDS"]
    through_api, in_process = [], []
    for record in records:
        started = time.perf_counter()
        response = httpx.post(f"{url}/api/{game}/genmove", json={"game": record}, timeout=30)
        through_api.append((time.perf_counter() - started) * 1000)
        response.raise_for_status()
        in_process.append(in_process_search(game, record, seconds))
    label = {"gomoku": "Gomoku 15x15 freestyle", "quoridor": "Quoridor 9x9"}[game]
    print(f"4. {label}: engine reply at the default budget ({seconds} s), through the API: "
          f"{summary(through_api)}")
    print(f"   baseline, the same search in-process (no HTTP, no replay):    {summary(in_process)}")
    print(f"   target <= 1000 ms: {'met' if max(through_api) <= 1000 else 'NOT met'} (max)")

    def analyze(i):
        started = time.perf_counter()
        response = httpx.post(f"{url}/api/{game}/analyze", json={"game": records[i % len(records)]},
                              timeout=120)
        nodes = response.json().get("nodes", 0) if response.status_code == 200 else 0
        return response.status_code, (time.perf_counter() - started) * 1000, nodes

    alone = [analyze(0) for _ in range(3)]
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=count) as pool:
        answers = list(pool.map(analyze, range(count)))
    wall = (time.perf_counter() - started) * 1000
    errors = sum(1 for status, _, _ in answers if status != 200)
    print(f"   {count} concurrent analyses: {errors} errors, wall {wall:.0f} ms, per request "
          f"{summary([ms for _, ms, _ in answers])}, nodes median "
          f"{statistics.median([n for _, _, n in answers]):.0f} (alone: median "
          f"{statistics.median([ms for _, ms, _ in alone]):.0f} ms, "
          f"{statistics.median([n for _, _, n in alone]):.0f} nodes)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--concurrent", type=int, default=20)
    parser.add_argument("--paints", type=int, default=10)
    parser.add_argument("--games", default="go,gomoku,quoridor",
                        help="comma-separated: go, gomoku, quoridor (paint is measured with go)")
    args = parser.parse_args()
    games = set(args.games.split(","))
    print(conditions())
    with arcade_thread(threads=max(8, args.concurrent)) as server:
        url = server.url
        print(f"server: waitress on {url}, {max(8, args.concurrent)} threads")
        if "go" in games:
            records = sample_positions(args.positions)
            bench_reply(url, records)
            bench_paint(url, args.paints)
            bench_concurrent(url, args.concurrent, records)
        if "gomoku" in games:
            bench_alpha_beta_game(url, "gomoku", gomoku_positions(args.positions), args.concurrent)
        if "quoridor" in games:
            bench_alpha_beta_game(url, "quoridor", quoridor_positions(args.positions), args.concurrent)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

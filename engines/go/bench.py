"""`engines bench go`: the Go core's speed, printed with its conditions.

Figures: light random 9x9 games per second (one thread), full search playouts per second from
the empty 9x9 board with 50,000 playouts on one and on two threads, the scaling between them,
the same search on one thread with the learned network's priors (`--value`: what its
evaluations cost), and the network's evaluations per second on a 9x9 middle-game position. The
same-run baseline is the readable reference rules (rules.py) playing random games.
"""
from __future__ import annotations

import json
import os
import platform
import random
import sys
import time

LIGHT_GAMES = 200_000
VALUE_EVALS = 5_000
SEARCH_PLAYOUTS = 50_000
ISSUE_TARGETS = {
    "light_games_per_second_1_thread": 40_000,
    "search_playouts_per_second_per_thread": 25_000,
    "search_scaling_2_threads": 1.8,
}


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def conditions() -> dict:
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "board": "9x9, empty, komi 7",
    }


def light_games_per_second(games: int | None = None) -> tuple[float, float]:
    """(games per wall-clock second, games per CPU second of this process)."""
    from engines.go._core import lib

    games = games or LIGHT_GAMES
    started, cpu = time.perf_counter(), time.process_time()
    played = lib.go_bench_light(9, games, 1)
    return (played / (time.perf_counter() - started),
            played / max(time.process_time() - cpu, 1e-9))


def search_playouts_per_second(threads: int, playouts: int | None = None, value: bool = False) -> dict:
    from engines.go import GoEngine

    playouts = playouts or SEARCH_PLAYOUTS
    with GoEngine(size=9, komi=7.0, seed=1, threads=threads, value=value) as engine:
        started, cpu = time.perf_counter(), time.process_time()
        info = engine.analyze("b", playouts=playouts)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {"threads": threads, "playouts": info["playouts"], "seconds": round(seconds, 3),
            "playouts_per_second": round(info["playouts"] / seconds),
            "playouts_per_cpu_second": round(info["playouts"] / max(cpu, 1e-9)),
            "valued": info["valued"]}


def value_evals_per_second(evals: int | None = None) -> float:
    """The learned network, value and policy as the search evaluates it (one thread), on the
    position after 30 seeded random 9x9 moves."""
    from engines.go import GoEngine
    from engines.go._core import ffi, lib

    evals, rng = evals or VALUE_EVALS, random.Random(30)
    with GoEngine(size=9, komi=7.0) as engine:
        for _ in range(30):
            engine.play(engine.to_move, rng.choice(engine.legal_moves()))
        policy = ffi.new("float[]", 9 * 9 + 1)
        started = time.perf_counter()
        for _ in range(evals):
            lib.go_game_value_policy(engine.game, ffi.NULL, policy)
        return evals / (time.perf_counter() - started)


def reference_games_per_second(seconds: float = 1.0) -> float:
    """Random 9x9 games through rules.py: the readable rules, as a same-run baseline."""
    from engines.go import rules

    rng, games, started = random.Random(1), 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        game = rules.Game(9)
        for _ in range(162):
            color = game.position.to_move
            empties = [(x, y) for y in range(9) for x in range(9)
                       if game.position.grid[y][x] == "."]
            rng.shuffle(empties)
            move = next((p for p in empties if game.why_illegal(color, p) is None), None)
            game.play(color, move)
            if game.over:
                break
        games += 1
    return games / (time.perf_counter() - started)


def measure(progress=print) -> dict:
    cond = conditions()
    progress(f"light random 9x9 games, 1 thread ({LIGHT_GAMES} games)...")
    light, light_cpu = light_games_per_second()
    progress(f"search from the empty 9x9 board, {SEARCH_PLAYOUTS} playouts, 1 thread...")
    one = search_playouts_per_second(1)
    progress(f"search from the empty 9x9 board, {SEARCH_PLAYOUTS} playouts, 2 threads...")
    two = search_playouts_per_second(2)
    progress("the same with the learned network's priors (--value), 1 thread...")
    net = search_playouts_per_second(1, value=True)
    progress(f"learned network, 9x9 middle game, {VALUE_EVALS} evaluations, 1 thread...")
    value = value_evals_per_second()
    progress("baseline: random games through the reference rules (rules.py)...")
    ref = reference_games_per_second()
    cond["load_average_1min_after"] = round(os.getloadavg()[0], 2)
    return {
        "conditions": cond,
        "light_games_per_second_1_thread": round(light),
        "light_games_per_cpu_second": round(light_cpu),
        "search_1_thread": one,
        "search_2_threads": two,
        "search_playouts_per_second_per_thread": one["playouts_per_second"],
        "search_scaling_2_threads": round(two["playouts_per_second"] / one["playouts_per_second"], 2),
        "search_value_1_thread": net,
        "value_evals_per_second_1_thread": round(value),
        "baseline_reference_rules_games_per_second": round(ref, 1),
        "light_speedup_over_reference": round(light / ref),
        "issue_targets": ISSUE_TARGETS,
    }


def render(figures: dict) -> str:
    c = figures["conditions"]
    one, two, net = figures["search_1_thread"], figures["search_2_threads"], figures["search_value_1_thread"]
    lines = [
        f"machine: {c['cpu']}, {c['cores']} cores, load {c['load_average_1min']} -> "
        f"{c['load_average_1min_after']} (1-min average; other work shares these cores)",
        f"light random 9x9 games, 1 thread: {figures['light_games_per_second_1_thread']:,}/s "
        f"(target >= 40,000; {figures['light_games_per_cpu_second']:,} per CPU second)",
        f"search 9x9 empty board, {one['playouts']:,} playouts, 1 thread: "
        f"{one['playouts_per_second']:,} playouts/s (target >= 25,000; "
        f"{one['playouts_per_cpu_second']:,} per CPU second)",
        f"search 9x9 empty board, {two['playouts']:,} playouts, 2 threads: "
        f"{two['playouts_per_second']:,} playouts/s, scaling {figures['search_scaling_2_threads']}x "
        f"(target >= 1.8x)",
        f"search 9x9 empty board with the network's priors (--value), 1 thread: "
        f"{net['playouts_per_second']:,} playouts/s, {net['valued']:,} positions evaluated",
        f"learned network, 9x9 middle game, 1 thread: {figures['value_evals_per_second_1_thread']:,} "
        f"evaluations/s",
        f"baseline, reference rules.py random 9x9 games: "
        f"{figures['baseline_reference_rules_games_per_second']}/s "
        f"(C light playouts {figures['light_speedup_over_reference']:,}x faster)",
    ]
    return "\n".join(lines)


def run_bench(as_json: bool = False) -> int:
    try:
        from engines.go import _core  # noqa: F401
    except ImportError as error:
        print(f"engines bench go: the Go core is not built ({error}); run `make venv`",
              file=sys.stderr)
        return 1
    figures = measure(progress=lambda text: print(text, file=sys.stderr, flush=True))
    print(json.dumps(figures) if as_json else render(figures))
    return 0

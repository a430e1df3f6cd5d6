"""Web UI response times on a large tracker (pm web): median of several requests per page.

    .venv/bin/python bench/pm_web.py [--tasks 10000] [--runs 5]

Builds a tracker in a temp dir with one `import` commit (ceo role, a sprint of 20, one task in
ten blocked), then times each page through Flask's test client (no network) and
`render_board`. Baseline in the same run: `tracker.list()` alone, the read every page starts with.
"""
import argparse
import os
import platform
import random
import statistics
import tempfile
import time

from pm.api import Actor, Tracker
from pm.transfer import normalise
from pm.web import create_app
from pm.web.static import render_board

WORDS = ("go engine board gomoku quoridor wall ranking api flask page css test bench move search "
         "stone capture ko rule timer clock replay undo sgf score").split()


def records(count: int, rng: random.Random) -> list[dict]:
    out = []
    for n in range(1, count + 1):
        record = {
            "id": n, "title": " ".join(rng.sample(WORDS, 5)).capitalize(),
            "status": rng.choice(["open"] * 4 + ["in-progress", "review", "done", "done", "wontfix"]),
            "priority": rng.choice(["P0", "P1", "P2", "P2", "P3"]),
            "kind": rng.choice(["task", "bug", "feature", "chore"]),
            "problem": f"<p>{' '.join(rng.choices(WORDS, k=30))}</p>",
        }
        if n <= 20:
            record["sprint"] = n
        if n % 10 == 0:
            record["links"] = [{"type": "blocked-by", "id": n - 1}]
        out.append(normalise(record, f"record {n}"))
    return out


def timed(call, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        tracker = Tracker.init(os.path.join(tmp, "pm"), actor=Actor("ceo", "bench"))
        start = time.perf_counter()
        tracker.import_records(records(args.tasks, rng))
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
              f"load average {load}")
        print(f"tracker: {args.tasks} tasks imported in {time.perf_counter() - start:.1f} s; "
              f"median of {args.runs} runs after one warm-up")
        client = create_app(tracker).test_client()

        def page(url):
            def get():
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code)
                return response
            return get

        cases = [
            ("baseline: tracker.list()", tracker.list),
            ("GET / (sprint + full backlog)", page("/")),
            ("GET /?status=open&priority=P0", page("/?status=open&priority=P0")),
            ("GET /board", page("/board")),
            ("GET /tasks/<id> (with history)", page(f"/tasks/{args.tasks // 2}")),
            ("GET /search?q=<two words>", page("/search?q=ranking+replay")),
            ("render_board (static page)", lambda: render_board(tracker)),
        ]
        print(f"{'case':<36} {'median ms':>10} {'size KB':>8}")
        for name, call in cases:
            result = call()  # warm-up (and the listing cache)
            size = len(result.data) / 1024 if hasattr(result, "data") else (
                len(result) / 1024 if isinstance(result, str) else 0)
            print(f"{name:<36} {timed(call, args.runs):>10.1f} {size:>8.0f}")


if __name__ == "__main__":
    main()

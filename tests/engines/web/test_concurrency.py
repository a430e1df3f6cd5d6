"""Several searches at once against a real waitress server: every one answers correctly, and a
client that goes away stops its stream's search."""
from concurrent.futures import ThreadPoolExecutor

import httpx

from engines.web import activity, create_app
from engines.web.go.stream import STEPS, AnalysisStream
from engines.web.serve import arcade_thread


def test_concurrent_analyses_and_moves_all_answer():
    with arcade_thread(create_app(), threads=8) as server:
        def search(i):
            kind = "analyze" if i % 2 else "genmove"
            game = {"size": 9, "komi": 7.0, "moves": ["E5", "C3", "G7"][: i % 4]}
            response = httpx.post(f"{server.url}/api/go/{kind}",
                                  json={"game": game, "budget": {"playouts": 300}, "seed": i},
                                  timeout=60)
            return kind, response.status_code, response.json()

        with ThreadPoolExecutor(max_workers=12) as pool:
            answers = list(pool.map(search, range(12)))
    assert [status for _, status, _ in answers] == [200] * 12
    for kind, _, body in answers:
        assert body["candidates"] if kind == "analyze" else body["state"]["positions"]


def test_a_disconnected_stream_stops_its_search(monkeypatch):
    # Each of the STEPS steps searches 1 s. Waitress stops iterating (and closes the stream,
    # which closes the engine) at the first write after the client went away, so far fewer
    # steps run than a finished stream's STEPS. The server runs in this process: the test waits
    # on the engine count itself (woken by the close), and the guard outlasts a whole stream,
    # so a stream that was not stopped fails on the step count, not on time.
    steps = []
    step_budget = AnalysisStream._step_budget
    monkeypatch.setattr(AnalysisStream, "_step_budget",
                        lambda self, step: steps.append(step) or step_budget(self, step))
    app = create_app({"MAX_SECONDS": 30, "MAX_PLAYOUTS": 10**9})
    with arcade_thread(app, threads=4) as server:
        body = {"game": {"size": 9, "moves": []}, "budget": {"seconds": STEPS, "playouts": 10**9}}
        with httpx.stream("POST", f"{server.url}/api/go/analyze/stream", json=body,
                          timeout=30) as response:
            first = next(response.iter_lines())
            assert '"step":1' in first
            assert httpx.get(f"{server.url}/healthz").json()["open_engines"] == 1
        assert activity.wait_until_idle(timeout=STEPS + 30)
        assert httpx.get(f"{server.url}/healthz").json()["open_engines"] == 0
    assert 1 <= len(steps) < STEPS

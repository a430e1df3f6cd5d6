"""Several searches at once against a real waitress server: every one answers correctly."""
from concurrent.futures import ThreadPoolExecutor

import httpx

import time

from engines.web import create_app
from engines.web.serve import serving_in_thread


def test_concurrent_analyses_and_moves_all_answer():
    with serving_in_thread(create_app(), threads=8) as url:
        def search(i):
            kind = "analyze" if i % 2 else "genmove"
            game = {"size": 9, "komi": 7.0, "moves": ["E5", "C3", "G7"][: i % 4]}
            response = httpx.post(f"{url}/api/go/{kind}",
                                  json={"game": game, "budget": {"playouts": 300}, "seed": i},
                                  timeout=60)
            return kind, response.status_code, response.json()

        with ThreadPoolExecutor(max_workers=12) as pool:
            answers = list(pool.map(search, range(12)))
    assert [status for _, status, _ in answers] == [200] * 12
    for kind, _, body in answers:
        assert body["candidates"] if kind == "analyze" else body["state"]["positions"]


def test_a_disconnected_stream_stops_its_search():
    # Caps raised so this search would run 20 s if nothing stopped it; it is stopped within one
    # step (2.5 s) of the client going away.
    app = create_app({"MAX_SECONDS": 30, "MAX_PLAYOUTS": 10**9})
    with serving_in_thread(app, threads=4) as url:
        body = {"game": {"size": 9, "moves": []}, "budget": {"seconds": 20, "playouts": 10**9}}
        with httpx.stream("POST", f"{url}/api/go/analyze/stream", json=body, timeout=30) as response:
            first = next(response.iter_lines())
            assert '"step":1' in first
            assert httpx.get(f"{url}/healthz").json()["open_engines"] == 1
        deadline = time.monotonic() + 10
        while httpx.get(f"{url}/healthz").json()["open_engines"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert httpx.get(f"{url}/healthz").json()["open_engines"] == 0

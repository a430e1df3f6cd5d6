"""Several searches at once against a real waitress server: every one answers correctly."""
from concurrent.futures import ThreadPoolExecutor

import httpx

from engines.web.serve import serving_in_thread
from engines.web import create_app


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

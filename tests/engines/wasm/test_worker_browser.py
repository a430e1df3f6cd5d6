"""The in-page engine in Chromium: engine/worker.js runs the Go core's WebAssembly build in a
Web Worker, served by a plain `python3 -m http.server` (no Flask), answers the API's requests,
and the page stays responsive while it searches."""
import shutil
import subprocess
import sys

import pytest

from plumbing.ports import free_port, wait_for_port
from tests.engines.wasm.support import STATIC
from tests.support.main_thread import assert_responsive, start_watching, stop_watching

pytestmark = pytest.mark.wasm

PAGE = """<!doctype html><meta charset="utf-8"><title>worker</title>
<script type="module">
  const worker = new Worker("engine/worker.js?game=go", { type: "module" });
  const pending = new Map();
  let next = 0;
  window.ready = new Promise((resolve) => {
    worker.onmessage = ({ data }) => {
      if ("ready" in data) return resolve(data);
      pending.get(data.id)(data);
      pending.delete(data.id);
    };
  });
  window.call = (endpoint, body) => new Promise((resolve) => {
    const id = ++next;
    pending.set(id, resolve);
    worker.postMessage({ id, endpoint, body });
  });
</script>"""


@pytest.fixture
def static_site(wasm_dir, tmp_path):
    """The engine scripts and the built cores as static files, served by http.server."""
    site = tmp_path / "site"
    shutil.copytree(STATIC / "engine", site / "engine")
    shutil.copytree(wasm_dir, site / "wasm", ignore=shutil.ignore_patterns("*.json.request*", "*.request.json"))
    (site / "index.html").write_text(PAGE)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              cwd=site, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, timeout=10)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_worker_plays_and_the_page_stays_responsive(page, static_site):
    page.goto(static_site)
    assert page.evaluate("window.ready") == {"ready": True, "game": "go"}
    state = page.evaluate("call('play', {game: {size: 9, moves: ['E5']}, move: 'E5'})")
    assert state["status"] == 422 and "occupied" in state["body"]["error"]
    # A one-second search in the worker while the page's own thread is watched.
    start_watching(page)
    answer = page.evaluate("call('genmove', {game: {size: 9, moves: ['E5']}, budget: {seconds: 1, playouts: 20000}})")
    seen = stop_watching(page)
    assert answer["status"] == 200, answer
    assert answer["body"]["state"]["to_move"] == "b" and len(answer["body"]["state"]["positions"]) == 3
    assert answer["body"]["elapsed_ms"] > 100          # it really searched
    assert_responsive(seen)


def test_a_missing_game_is_reported_not_hung(page, static_site):
    page.goto(static_site)
    ready = page.evaluate("""new Promise((resolve) => {
      const w = new Worker("engine/worker.js?game=chess", { type: "module" });
      w.onmessage = ({ data }) => resolve(data);
    })""")
    assert ready == {"ready": False, "error": "no in-page engine for chess"}


STREAM = """async (stopAfter) => {
  const w = new Worker("engine/worker.js?game=go", { type: "module" });
  const steps = [];
  const end = await new Promise((resolve) => {
    w.onmessage = ({ data }) => {
      if ("ready" in data) {
        w.postMessage({ id: 1, endpoint: "analyze", stream: true,
                        body: { game: { size: 19, moves: [] }, budget: { playouts: 20000, seconds: 1 } } });
      } else if (data.partial) {
        steps.push(data.body.step);
        if (steps.length === stopAfter) w.postMessage({ stop: 1 });
      } else resolve(data);
    };
  });
  w.terminate();
  return { steps, end };
}"""


def test_a_streamed_analysis_sends_its_steps_and_stops_when_asked(page, static_site):
    page.goto(static_site)
    whole = page.evaluate(STREAM, 0)
    assert whole["steps"] == list(range(1, 9)) and whole["end"] == {"id": 1, "status": 200, "body": None}
    stopped = page.evaluate(STREAM, 1)
    # The stop is read after the step in progress: the search ends long before its eight steps.
    assert 1 <= len(stopped["steps"]) <= 2, stopped["steps"]
    assert stopped["end"] == {"id": 1, "status": 200, "body": None}

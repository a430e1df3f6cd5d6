"""A game's in-page engine in Chromium for the wasm benchmarks: engine/worker.js and the built
cores as plain static files (`python3 -m http.server`, no Flask), a page that posts requests to
the worker (`call(endpoint, body)` -> {id, status, body}) and the time the worker took to be
ready after the page's load."""
from __future__ import annotations

import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "engines" / "web" / "static"


def _index(game: str) -> str:
    return ('<!doctype html><script type="module">window.t0 = performance.now();'
            f'const w = new Worker("engine/worker.js?game={game}", {{type: "module"}});'
            'const waiting = new Map(); let n = 0;'
            'window.ready = new Promise((ok) => { w.onmessage = ({data}) => {'
            '  if ("ready" in data) { window.readyMs = performance.now() - window.t0; return ok(data); }'
            '  waiting.get(data.id)(data); }; });'
            'window.call = (endpoint, body) => new Promise((ok) => { const id = ++n;'
            '  waiting.set(id, ok); w.postMessage({id, endpoint, body}); });</script>')


@contextmanager
def static_site(wasm_dir: Path, index_html: str):
    """The URL of engine/, the cores built in WASM_DIR (as wasm/) and INDEX_HTML, served by
    `python3 -m http.server` on a free loopback port; all removed afterwards."""
    from plumbing.ports import free_port, wait_for_port

    site = wasm_dir / "site"
    shutil.copytree(STATIC / "engine", site / "engine")
    shutil.copytree(wasm_dir, site / "wasm", ignore=shutil.ignore_patterns("site", "*.in"))
    (site / "index.html").write_text(index_html)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                               "127.0.0.1"], cwd=site, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(site)


@contextmanager
def worker_page(wasm_dir: Path, game: str):
    """(page, ready_ms): a Chromium page whose worker runs GAME's core from WASM_DIR."""
    from playwright.sync_api import sync_playwright

    from plumbing.chromium import launch

    with static_site(wasm_dir, _index(game)) as url, sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_page()
            page.goto(url)
            page.evaluate("window.ready")
            yield page, page.evaluate("window.readyMs")
        finally:
            browser.close()

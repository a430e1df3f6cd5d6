"""The Go page's in-page engine in Chromium: the Go core compiled to WebAssembly, in a Web
Worker, plays the engine's side with no request to the server's API; and when the server goes
away mid-game, the page says so and plays on with it."""
import re

import pytest

from engines.web.serve import arcade_thread
from tests.engines.web.test_browser import click, moves, open_go, wait_idle

pytestmark = [pytest.mark.wasm, pytest.mark.usefixtures("wasm_built")]


def test_the_engine_in_the_page_plays_without_the_api(page, arcade_url):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(arcade_url + "/go?engine=page&white=engine&playouts=200")
    wait_idle(page)
    assert page.get_attribute("#go-app", "data-engine") == "page"
    click(page, "E5")
    page.wait_for_function("() => document.getElementById('go-app').dataset.moves.split(' ').length === 2",
                           timeout=20_000)
    assert moves(page)[0] == "E5"
    assert not [u for u in requests if "/api/go/" in u], "the in-page engine called the server"
    assert any(u.endswith("/static/wasm/go.wasm") for u in requests)
    # Refusals come from the compiled rules, with the server's words.
    page.click('#board [data-vertex="E5"]')
    page.wait_for_function("() => /occupied/.test(document.getElementById('message').textContent)")


def test_when_the_server_goes_away_the_page_offers_the_in_page_engine(page):
    server = arcade_thread()
    server.start()
    try:
        open_go(page, server.url + "/")
        click(page, "E5")
        page.wait_for_function("() => document.getElementById('go-app').dataset.moves.split(' ').length === 2",
                               timeout=20_000)
    finally:
        server.stop()
    assert page.is_hidden("#engine-offline")
    page.click('#board [data-vertex="C3"]')
    page.wait_for_selector("#engine-offline", state="visible")
    assert "unreachable" in page.text_content("#message")
    page.click("#engine-offline button")
    assert page.input_value("#engine-where") == "page"
    click(page, "C3")
    page.wait_for_function("() => document.getElementById('go-app').dataset.moves.split(' ').length === 4",
                           timeout=20_000)
    assert moves(page)[2] == "C3"


@pytest.mark.parametrize("where", ["page", "server"])
def test_stop_ends_a_streamed_analysis_and_keeps_what_it_found(page, arcade_url, where):
    """A 19x19 analysis at the caps (20,000 playouts or 1 s) streams its steps; Stop (Escape)
    ends it after the step in progress, on either engine, and the panel keeps the last step."""
    page.goto(arcade_url + f"/go?engine={where}&size=19&playouts=20000")
    wait_idle(page)
    page.click("#analyze")
    page.wait_for_function("() => /searching/.test(document.getElementById('winrate-text').textContent)",
                           timeout=20_000)
    assert not page.is_disabled("#stop")
    page.keyboard.press("Escape")
    assert page.get_attribute("#go-app", "data-busy") == "0"
    assert page.is_disabled("#stop")
    text = page.text_content("#winrate-text")
    assert "stopped" in text and "searching" not in text, text
    page.wait_for_timeout(1500)  # longer than the whole search would have run
    assert page.text_content("#winrate-text") == text, "steps kept coming after the stop"
    assert page.text_content("#message").startswith("Stopped")


def test_a_whole_game_in_the_page_ends_with_the_cores_score(page, arcade_url):
    """Engine against engine, both in the page, from the first move to the count: the result
    (area score with dead stones, or a resignation) comes from the compiled core, and the
    server's API is never called."""
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(arcade_url + "/go?engine=page&black=engine&white=engine&playouts=30&delay=0")
    wait_idle(page)
    page.click("#play-pause")
    page.wait_for_function("() => document.getElementById('go-app').dataset.over === '1'", timeout=120_000)
    assert len(moves(page)) >= 20
    status = page.text_content("#status")
    assert re.match(r"Game over: ([BW]\+(R|[0-9.]+)|0) \((by resignation|area score)", status), status
    assert not [u for u in requests if "/api/go/" in u]


def test_sgf_records_round_trip_in_the_page(page, arcade_url, tmp_path):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(arcade_url + "/go?engine=page&white=engine&playouts=50")
    wait_idle(page)
    click(page, "C3")
    page.wait_for_function("() => document.getElementById('go-app').dataset.moves.split(' ').length === 2",
                           timeout=20_000)
    record = moves(page)
    with page.expect_download() as info:
        page.click("#sgf-download")
    path = tmp_path / "game.sgf"
    info.value.save_as(path)
    assert "SZ[9]" in path.read_text() and ";B[cg]" in path.read_text()
    page.click("#new-game")
    wait_idle(page)
    page.set_input_files("#sgf-upload", str(path))
    page.wait_for_function("() => document.getElementById('go-app').dataset.moves !== ''")
    wait_idle(page)
    assert moves(page) == record
    # A file the core refuses is refused with the server's words.
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;SZ[9];B[ee];W[ee])")
    page.set_input_files("#sgf-upload", str(bad))
    page.wait_for_function("() => /occupied/.test(document.getElementById('message').textContent)")
    assert not [u for u in requests if "/api/go/" in u]

"""The Quoridor page's in-page engine in Chromium: the Quoridor core compiled to WebAssembly, in
a Web Worker, answers the page (lit squares, refused walls, paths, the engine's moves) with the
Flask server stopped; the page stays responsive while it searches; and when the server goes
away mid-game, the page says so and plays on with it."""
import pytest

from engines.web.serve import arcade_thread
from tests.engines.web.pages import GamePage
from tests.engines.web.test_quoridor_browser import lit, play_forward_to_the_end, square, wall
from tests.support.main_thread import assert_responsive, start_watching, stop_watching

pytestmark = [pytest.mark.wasm, pytest.mark.usefixtures("wasm_built")]


def test_a_whole_game_against_the_in_page_engine_with_the_server_stopped(page):
    server = arcade_thread()
    server.start()
    try:
        g = GamePage(page, "quoridor").open(server.url + "/quoridor?engine=page&size=5&nodes=3000")
    finally:
        server.stop()
    assert g.data("engine") == "page" and lit(page) == ["b1", "c2", "d1"]
    g.click(wall("b3h"))                              # a wall, judged by the compiled rules
    g.wait_moves(2)
    assert page.locator('#board [data-placed="b3h"]').count() == 1 and g.data("walls-left")[0] == "2"
    g.click(wall("a3h"))                              # overlaps b3h: the core's reason, the server's words
    assert "move 3 (a3h) by player 1 is illegal: overlaps a wall" in g.message()
    play_forward_to_the_end(g)
    assert not [u for u in g.requests if "/api/" in u], "the in-page engine called the server"
    assert any(u.endswith("/static/wasm/quoridor.wasm") for u in g.requests)


def test_the_page_answers_input_while_the_engine_thinks(page, arcade_url):
    g = GamePage(page, "quoridor").open(arcade_url + "/quoridor?engine=page&seconds=1")
    page.evaluate("""() => {
      window.pathsWhileBusy = null;
      document.getElementById('paths').addEventListener('change', () => {
        window.pathsWhileBusy = document.getElementById('quoridor-app').dataset.busy;
      });
    }""")
    start_watching(page)
    page.click(square("e2"))                          # the engine then thinks for a second
    page.wait_for_function("() => document.getElementById('quoridor-app').dataset.busy === '1'")
    page.click("#paths")                              # handled while the search runs
    assert page.locator("#board [data-path]").count() > 0
    g.wait_moves(2)
    seen = stop_watching(page)
    assert page.evaluate("window.pathsWhileBusy") == "1", "the paths toggle waited for the search"
    assert seen["total"] > 500                        # it really searched
    assert_responsive(seen)
    assert not [u for u in g.requests if "/api/" in u]


def test_when_the_server_goes_away_the_page_offers_the_in_page_engine(page):
    server = arcade_thread()
    server.start()
    try:
        g = GamePage(page, "quoridor").open(server.url + "/quoridor?nodes=2000")
        g.click(square("e2"))
        g.wait_moves(2)
    finally:
        server.stop()
    assert page.is_hidden("#engine-offline")
    page.click(square("e3"))
    page.wait_for_selector("#engine-offline", state="visible")
    assert "unreachable" in g.message()
    page.click("#engine-offline button")
    assert page.input_value("#engine-where") == "page"
    g.click(square("e3"))
    g.wait_moves(4)
    assert g.moves()[2] == "e3"

"""The Gomoku page's in-page engine in Chromium: the Gomoku core compiled to WebAssembly, in a
Web Worker, plays a whole game against a human with the Flask server stopped (refusals,
forbidden points and threats from the compiled core, with the server's words); the page stays
responsive while it searches; and when the server goes away mid-game the page says so and
plays on with it."""
import pytest

from engines.web.serve import arcade_thread
from tests.engines.web.pages import GamePage
from tests.support.main_thread import assert_responsive, start_watching, stop_watching

pytestmark = [pytest.mark.wasm, pytest.mark.usefixtures("wasm_built")]
DOUBLE_THREE = "f8,a1,g8,a3,h9,a5,h10,a7"   # renju: h8 is forbidden for black (double-three)
# Where the human plays, in order, skipping points already taken: a row the engine must answer.
HUMAN = [f"{c}{r}" for r in (8, 7, 9, 6, 10, 5, 11, 4, 12) for c in "hgijfkelm"]


def point(name):
    return f'#board [data-point="{name}"]'


def occupied(page, name):
    return page.locator(f'#board [data-at="{name}"][data-stone]').count() > 0


def play_a_whole_game(page, g):
    """The human (black) plays HUMAN's next free point after each engine reply until the game
    ends; returns the number of moves."""
    for name in HUMAN:
        if g.data("over") == "1":
            break
        if occupied(page, name):
            continue
        before = len(g.moves())
        g.click(point(name))
        # The engine's reply, or none when the human's stone ended the game.
        page.wait_for_function(
            "(n) => { const d = document.getElementById('gomoku-app').dataset;"
            " const k = d.moves.split(' ').filter(Boolean).length;"
            " return d.busy === '0' && (k === n + 2 || (k === n + 1 && d.over === '1')); }",
            arg=before, timeout=20_000)
    assert g.data("over") == "1", "the game did not end"
    return len(g.moves())


def test_a_whole_game_with_the_server_stopped(page):
    server = arcade_thread()
    server.start()
    try:
        g = GamePage(page, "gomoku").open(server.url + "/gomoku?engine=page&nodes=3000")
    finally:
        server.stop()
    assert g.data("engine") == "page"
    n = play_a_whole_game(page, g)
    assert n >= 9 and "wins with five" in page.text_content("#status")
    assert page.locator("#board .win-line").count() == 1
    # Threats and a record export come from the worker too, with no server to ask.
    page.click("#threats")
    page.wait_for_function("() => document.getElementById('gomoku-app').dataset.threats !== ''")
    with page.expect_download() as download:
        page.click("#record-download")
    assert download.value.suggested_filename == f"gomoku-15x15-freestyle-{n}-moves.txt"
    assert not [u for u in g.requests if "/api/" in u], "the in-page engine called the server"
    assert any(u.endswith("/static/wasm/gomoku.wasm") for u in g.requests)


def test_refusals_and_forbidden_points_come_from_the_compiled_rules(page, arcade_url):
    g = GamePage(page, "gomoku").open(arcade_url + f"/gomoku?engine=page&rule=renju&white=human&moves={DOUBLE_THREE}")
    assert len(g.moves()) == 8
    mark = page.locator('#board [data-forbidden="h8"]')
    assert mark.count() == 1 and mark.get_attribute("data-reason") == "double-three"
    g.click(point("h8"))
    assert "move 9 (h8) by black is illegal: forbidden for black (double-three)" in g.message()
    g.click(point("f8"))
    assert "move 9 (f8) by black is illegal: occupied" in g.message()
    assert not [u for u in g.requests if "/api/" in u]


def test_the_page_stays_responsive_while_the_worker_searches(page, arcade_url):
    """A one-second analysis in the worker: the page's own thread runs no task of 100 ms or
    more and its 10 ms timer keeps ticking (tests/support/main_thread.py)."""
    g = GamePage(page, "gomoku").open(arcade_url + "/gomoku?engine=page&white=human&moves=h8,h9,i8")
    page.fill("#seconds-w", "1")
    start_watching(page)
    page.click("#analyze")
    page.wait_for_function("() => { const d = document.getElementById('gomoku-app').dataset;"
                           " return d.analysed === '1' && d.busy === '0'; }")
    seen = stop_watching(page)
    text = page.text_content("#eval-text")
    assert int(text.rsplit("·", 1)[1].split()[0]) > 300, text   # it really searched
    assert_responsive(seen)
    assert not [u for u in g.requests if "/api/" in u]


def test_when_the_server_goes_away_the_page_offers_the_in_page_engine(page):
    server = arcade_thread()
    server.start()
    try:
        g = GamePage(page, "gomoku").open(server.url + "/gomoku?nodes=2000")
        g.click(point("h8"))
        g.wait_moves(2)
    finally:
        server.stop()
    assert page.is_hidden("#engine-offline")
    page.click(point("a1"))
    page.wait_for_selector("#engine-offline", state="visible")
    assert "unreachable" in g.message()
    page.click("#engine-offline button")
    assert page.input_value("#engine-where") == "page"
    g.click(point("a1"))
    g.wait_moves(4)
    assert g.moves()[2] == "a1"

"""`engines export DIR`: the arcade as static files, served by a plain `python3 -m http.server`
(no Flask anywhere), plays a Go game and whole Gomoku and Quoridor games against the in-page
engines in Chromium."""
import subprocess
import sys

import pytest
from click.testing import CliRunner

from engines.cli import main
from engines.web.export import ExportError, export_site, relative
from plumbing.ports import free_port, wait_for_port
from tests.engines.web.pages import GamePage
from tests.engines.web.test_browser import click, moves, wait_idle
from tests.engines.web.test_gomoku_in_page_engine import play_a_whole_game
from tests.engines.web.test_quoridor_browser import lit, play_forward_to_the_end

pytestmark = pytest.mark.wasm


def test_links_become_relative_to_each_page():
    html = '<a href="/">a</a><a href="/go">b</a><script src="/static/go/app.js"></script><a href="https://x/">'
    assert relative(html, 1) == ('<a href="../">a</a><a href="../go/">b</a>'
                                 '<script src="../static/go/app.js"></script><a href="https://x/">')
    assert relative(html, 0).startswith('<a href="./">a</a><a href="go/">b</a><script src="static/')


def test_the_exported_games_are_those_the_worker_can_run():
    import re

    from engines import wasm
    from engines.web.export import IN_PAGE, STATIC

    worker = (STATIC / "engine" / "worker.js").read_text()
    games = re.search(r"const GAMES = \{([^}]*)\}", worker).group(1)
    assert sorted(re.findall(r"(\w+):", games)) == sorted(IN_PAGE)
    assert set(IN_PAGE) <= set(wasm.HEADERS)


def test_a_folder_that_is_not_an_export_is_not_overwritten(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ExportError, match="not empty and not an earlier export"):
        export_site(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_the_export_plays_from_a_plain_static_server(page, tmp_path):
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["export", str(out)])
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(main, ["export", str(out)]).exit_code == 0  # an export again: fine
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              cwd=out, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        wait_for_port(port)
        page.goto(f"http://127.0.0.1:{port}/")
        page.click('h2:text-is("Go")')
        wait_idle(page)
        assert page.url.endswith("/go/")
        assert page.is_disabled("#engine-where") and page.input_value("#engine-where") == "page"
        page.select_option("#player-w", "engine")
        page.fill("#playouts-w", "200")
        click(page, "E5")
        page.wait_for_function("() => document.getElementById('go-app').dataset.moves.split(' ').length === 2",
                               timeout=20_000)
        assert moves(page)[0] == "E5"
        _play_gomoku(page, f"http://127.0.0.1:{port}/")
        _play_quoridor(page, f"http://127.0.0.1:{port}/")
    finally:
        server.terminate()
        server.wait()
    assert not [u for u in requests if "/api/" in u]
    assert any(u.endswith("/static/wasm/go.wasm") for u in requests)
    assert any(u.endswith("/static/wasm/gomoku.wasm") for u in requests)
    assert any(u.endswith("/static/wasm/quoridor.wasm") for u in requests)


def _play_gomoku(page, root):
    """A whole Gomoku game from the export's landing page against the in-page engine; a refusal
    is the compiled core's, in the server's words."""
    page.goto(root)
    page.click('h2:text-is("Gomoku")')
    g = GamePage(page, "gomoku")
    g.wait_idle()
    assert page.url.endswith("/gomoku/") and page.is_disabled("#engine-where")
    page.fill("#seconds-w", "0.05")
    g.click('#board [data-point="h8"]')
    g.wait_moves(2)
    g.click('#board [data-point="h8"]')
    assert "move 3 (h8) by black is illegal: occupied" in g.message()
    play_a_whole_game(page, g)


def _play_quoridor(page, root):
    """A whole 5x5 Quoridor game from the export's landing page, against the in-page engine."""
    page.goto(root)
    page.click(".game-card >> text=Quoridor")
    g = GamePage(page, "quoridor")
    g.wait_idle()
    assert page.url.endswith("/quoridor/") and page.is_disabled("#engine-where")
    page.select_option("#size", "5")
    page.fill("#seconds-p2", "0.05")
    g.click("#new-game")
    assert lit(page) == ["b1", "c2", "d1"]
    play_forward_to_the_end(g)

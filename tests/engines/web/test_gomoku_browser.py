"""The Gomoku page in real headless Chromium against the compiled engine, directly and behind
nginx under /task-x/: clicks, refusals with reasons, forbidden points, the winning line, the
timeline with branches, analysis, threats, swap, AI vs AI and records."""
import re

from tests.engines.web.pages import GamePage

FAST = "nodes=2000"
DOUBLE_THREE = "f8,a1,g8,a3,h9,a5,h10,a7"


def point(name):
    return f'#board [data-point="{name}"]'


def test_play_the_engine_and_see_an_occupied_point_refused(page, site):
    g = GamePage(page, "gomoku").open(site + f"gomoku?{FAST}")
    g.click(point("h8"))
    g.wait_moves(2)
    reply = g.moves()[1]
    assert page.locator("#board [data-stone]").count() == 2
    assert page.get_attribute(f'#board [data-at="{reply}"]', "data-stone") == "w"
    g.click(point("h8"))
    assert "move 3 (h8) by black is illegal: occupied" in g.message()
    assert len(g.moves()) == 2
    assert all(u.startswith(site) or u.startswith("blob:") for u in g.requests), g.requests


def test_renju_forbidden_point_is_marked_and_refused_with_the_rule(page, site):
    g = GamePage(page, "gomoku").open(site + f"gomoku?rule=renju&white=human&moves={DOUBLE_THREE}")
    assert len(g.moves()) == 8
    mark = page.locator('#board [data-forbidden="h8"]')
    assert mark.count() == 1 and mark.get_attribute("data-reason") == "double-three"
    g.click(point("h8"))
    assert "forbidden for black (double-three)" in g.message()
    assert len(g.moves()) == 8
    # Freestyle has no forbidden points: the same record, the same click, a stone.
    g.open(site + f"gomoku?rule=freestyle&white=human&moves={DOUBLE_THREE}")
    assert page.locator("#board [data-forbidden]").count() == 0
    g.click(point("h8"))
    assert g.moves()[-1] == "h8"


def test_a_five_ends_the_game_and_draws_the_winning_line(page, site):
    g = GamePage(page, "gomoku").open(site + "gomoku?white=human&moves=h8,a1,i8,a3,j8,a5,k8,a7")
    g.click(point("l8"))
    assert g.data("over") == "1"
    assert page.get_attribute("#board .win-line", "data-win") == "h8 i8 j8 k8 l8"
    assert "Black wins with five" in page.text_content("#status")
    page.keyboard.press("ArrowLeft")       # one move back the game is not over: no line
    assert page.locator("#board .win-line").count() == 0


def test_timeline_scrub_branch_and_switch_back(page, site):
    g = GamePage(page, "gomoku").open(site + f"gomoku?white=human&moves=h8,i9,h9,h10")
    assert page.text_content("#ply") == "4 / 4"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.text_content("#ply") == "2 / 4"
    assert page.locator("#board [data-stone]").count() == 2
    page.locator("#scrub").fill("3")
    assert page.text_content("#ply") == "3 / 4"
    page.keyboard.press("ArrowLeft")
    g.click(point("j10"))                 # black plays elsewhere at move 3: a branch
    assert g.moves() == ["h8", "i9", "j10"] and g.data("branches") == "1"
    page.keyboard.press("ArrowLeft")
    variations = page.locator("#branches [data-variation]")
    assert [v.text_content() for v in variations.all()] == ["h9", "j10"]
    variations.first.click()              # back to the first line, kept whole
    g.wait_idle()
    assert g.moves() == ["h8", "i9", "h9", "h10"] and page.text_content("#ply") == "3 / 4"
    page.keyboard.press("u")              # undo takes back one move between two humans
    g.wait_idle()
    assert g.moves() == ["h8", "i9"]


def test_analysis_threats_and_a_proven_win(page, site):
    g = GamePage(page, "gomoku").open(site + "gomoku?white=human&seconds=1&moves=h8,a1,i8,a3,j8,a5")
    page.keyboard.press("a")
    page.wait_for_selector('#gomoku-app[data-analysed="1"][data-busy="0"]', timeout=20_000)
    assert re.match(r"black wins in \d+: [a-t]\d+", page.text_content("#proven"))
    assert page.locator("#board .pv-stone.proven").count() >= 1
    assert page.locator("#candidates tr").count() > 0
    assert page.evaluate("document.getElementById('eval-bar').style.width") == "100%"
    page.keyboard.press("t")
    page.wait_for_selector('#gomoku-app:not([data-threats=""])')
    threats = [t.get_attribute("data-threat") for t in page.locator("#board [data-threat]").all()]
    assert "b:g8:open-four" in threats and "b:k8:open-four" in threats


def test_swap_sides_lets_the_engine_take_black(page, site):
    g = GamePage(page, "gomoku").open(site + f"gomoku?{FAST}")
    assert g.moves() == []
    page.keyboard.press("s")              # the engine now plays black: it opens at once
    g.wait_moves(1)
    assert page.input_value("#player-b") == "engine" and page.input_value("#player-w") == "human"


def test_ai_vs_ai_with_a_delay_then_pause(page, site):
    g = GamePage(page, "gomoku").open(site + f"gomoku?black=engine&white=engine&{FAST}&delay=0.2")
    page.click("#play-pause")
    page.wait_for_function("() => document.getElementById('gomoku-app').dataset.moves.split(' ').length >= 4",
                           timeout=30_000)
    page.click("#play-pause")
    g.wait_idle()
    assert g.data("running") == "0"
    genmoves = [u for u in g.requests if u.endswith("/api/gomoku/genmove")]
    assert len(genmoves) == len(g.moves())


def test_record_download_and_upload_and_a_gomocup_string(page, site, tmp_path):
    g = GamePage(page, "gomoku").open(site + "gomoku?rule=standard&white=human&moves=h8,i9,j10")
    with page.expect_download() as info:
        page.click("#record-download")
    path = tmp_path / "game.txt"
    info.value.save_as(path)
    assert "rule standard" in path.read_text() and "moves h8 i9 j10" in path.read_text()
    assert "Gomocup position: h8i9j10 · offsets 0,0, 1,-1, 2,-2" in g.message()
    page.click("#new-game")
    g.wait_idle()
    page.select_option("#rule", "renju")
    page.set_input_files("#record-upload", str(path))
    page.wait_for_function("() => document.getElementById('gomoku-app').dataset.moves === 'h8 i9 j10'")
    assert page.input_value("#rule") == "standard"
    pos = tmp_path / "opening.txt"
    pos.write_text("0,0, 1,1, 2,2\n")
    page.set_input_files("#record-upload", str(pos))
    page.wait_for_function("() => document.getElementById('gomoku-app').dataset.moves === 'h8 i7 j6'")

"""End to end in real headless Chromium: the Go page against the real engine, served by
waitress directly and again behind nginx under /task-x/."""
import re

import httpx

from engines.go.coords import from_gtp

TINY = "20"  # playouts: the engine answers in milliseconds, the test stays fast


def open_go(page, site, black="human", white="engine"):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(site + "go")
    wait_idle(page)
    page.select_option("#player-b", black)
    page.select_option("#player-w", white)
    for color in "bw":
        page.fill(f"#playouts-{color}", TINY)
    page.fill("#delay", "0")
    return requests


def wait_idle(page):
    page.wait_for_function(
        "() => { const r = document.getElementById('go-app').dataset;"
        " return r.ready === '1' && r.busy === '0'; }", timeout=20_000)


def moves(page):
    text = page.get_attribute("#go-app", "data-moves")
    return text.split() if text else []


def click(page, vertex):
    page.click(f'#board [data-vertex="{vertex}"]')
    wait_idle(page)


def stones_on_board(page):
    return page.locator("#board [data-stone]").count()


def test_whole_game_against_the_engine_ends_with_a_score(page, site):
    requests = open_go(page, site)
    for vertex in ("C3", "G3", "C7", "G7", "E5"):
        if page.get_attribute("#go-app", "data-over") == "1":
            break
        target = page.locator(f'#board [data-vertex="{vertex}"]')
        before = len(moves(page))
        target.click()
        wait_idle(page)
        assert len(moves(page)) in (before, before + 2)  # refused if occupied, else engine replied
    # Black passes until the engine passes too: two passes in a row end the game.
    for _ in range(80):
        if page.get_attribute("#go-app", "data-over") == "1":
            break
        page.keyboard.press("p")
        wait_idle(page)
    assert page.get_attribute("#go-app", "data-over") == "1"
    status = page.text_content("#status")
    assert re.search(r"Game over: (B\+[\d.]+|W\+[\d.]+|0|[BW]\+R)", status), status
    record = moves(page)
    assert record[-2:] == ["pass", "pass"] or record[-1] == "resign"
    # The page shows the server's verdict for this exact record, dead stones included.
    api = httpx.post(site + "api/go/state", json={"game": {"size": 9, "komi": 7, "moves": record}})
    result = api.json()["result"]
    assert result["text"] in status
    assert page.locator("#board [data-dead]").count() == len(result["dead"])
    assert all(u.startswith(site) or u.startswith("blob:") for u in requests), requests


def test_illegal_point_is_refused_with_a_message(page, site):
    open_go(page, site)
    click(page, "E5")
    assert len(moves(page)) == 2
    click(page, "E5")
    assert "illegal" in page.text_content("#message")
    assert len(moves(page)) == 2


def test_timeline_scrub_step_and_branch(page, site):
    open_go(page, site)
    for vertex in ("C3", "G7", "C7"):
        click(page, vertex)
    record = moves(page)
    assert len(record) == 6 and page.text_content("#ply") == "6 / 6"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.text_content("#ply") == "4 / 6"
    assert stones_on_board(page) <= 4
    page.locator("#scrub").fill("2")  # drag the scrubber to move 2
    assert page.text_content("#ply") == "2 / 6"
    page.keyboard.press("ArrowRight")
    assert page.text_content("#ply") == "3 / 6"
    page.keyboard.press("ArrowLeft")
    # Playing from move 2 starts a branch (the current line ends there), then the engine replies.
    free = next(v for v in ("J1", "J9", "A1", "A9", "H2") if v not in record[:2])
    click(page, free)
    branched = moves(page)
    assert branched[:2] == record[:2] and branched[2] == free and len(branched) == 4
    assert page.text_content("#ply") == "4 / 4"
    # The first line is kept: at move 2 both variations are listed, and one click brings it back.
    page.click("#branches [data-branch-ply='2']")
    assert [b.text_content() for b in page.locator("#branches [data-variation]").all()] == [record[2], free]
    page.locator("#branches [data-variation]").first.click()
    wait_idle(page)
    assert moves(page) == record and page.text_content("#ply") == "3 / 6"
    page.keyboard.press("ArrowLeft")
    page.locator("#branches [data-variation]").last.click()
    wait_idle(page)
    assert moves(page) == branched and page.text_content("#ply") == "3 / 4"
    page.keyboard.press("End")
    # Undo against the engine takes back its reply and the human's move.
    page.keyboard.press("u")
    wait_idle(page)
    assert moves(page) == branched[:2]
    assert page.text_content("#status").startswith("Black")


def test_ai_vs_ai_plays_with_a_delay_and_pauses(page, site):
    requests = open_go(page, site, black="engine", white="engine")
    page.fill("#delay", "0.25")
    page.click("#status")  # leave the number field, whose Space is its own
    page.keyboard.press("Space")
    page.wait_for_function("() => document.getElementById('go-app').dataset.moves.split(' ').length >= 4",
                           timeout=30_000)
    assert page.get_attribute("#go-app", "data-running") == "1"
    page.click("#play-pause")
    wait_idle(page)
    # Paused and idle: the play loop checks `running` before every engine move and no move is
    # in flight, so the game stays where it is (no clock to wait out): every genmove asked for
    # was played, and none is pending.
    assert page.get_attribute("#go-app", "data-running") == "0"
    genmoves = [url for url in requests if url.endswith("/api/go/genmove")]
    assert len(genmoves) == len(moves(page))
    assert page.text_content("#play-pause").strip().endswith("Play")


def test_analysis_panel_and_ownership_overlay(page, site):
    open_go(page, site)
    click(page, "E5")
    page.keyboard.press("a")
    wait_idle(page)
    rows = page.locator("#candidates tr")
    assert rows.count() > 0
    assert re.search(r"Black [\d.]+% · White [\d.]+%", page.text_content("#winrate-text"))
    assert page.locator("#board .candidate").count() > 0
    page.locator("#candidates tr").nth(1).hover()  # the row's point is ringed on the board
    ringed = page.locator("#candidates tr").nth(1).get_attribute("data-move")
    ring = page.locator("#board .highlight")
    assert (int(ring.get_attribute("cx")), int(ring.get_attribute("cy"))) == from_gtp(ringed, 9)
    page.mouse.move(5, 5)
    assert page.locator("#board .highlight").count() == 0
    page.keyboard.press("o")
    assert page.locator("#board .heat").count() > 0
    page.keyboard.press("o")
    assert page.locator("#board .heat").count() == 0
    # Live analysis: stepping back analyses the position shown, without asking.
    page.keyboard.press("l")
    page.keyboard.press("ArrowLeft")
    assert page.text_content("#ply") == "1 / 2"
    page.wait_for_function("() => document.querySelectorAll('#candidates tr').length > 0")
    assert page.locator("#board .candidate").count() > 0
    # Clicking a candidate plays it from the position shown (White's turn at move 1: the user
    # explores in White's place), which branches the game unless it is the move White played;
    # then it is Black's (human) turn. Wait for the cursor too: when the top candidate is the
    # move already played, the record matches before the click lands.
    record = moves(page)
    first = page.locator("#candidates tr").first.get_attribute("data-move")
    page.locator("#candidates tr").first.click()
    page.wait_for_function("(m) => { const d = document.getElementById('go-app').dataset;"
                           " return d.moves === m && d.ply === '2'; }",
                           arg=f"{record[0]} {first}")
    assert page.text_content("#ply") == "2 / 2"
    assert page.get_attribute("#go-app", "data-to-move") == "b"


def test_sgf_download_and_upload_round_trip(page, site, tmp_path):
    open_go(page, site)
    for vertex in ("C3", "G7"):
        click(page, vertex)
    record = moves(page)
    with page.expect_download() as info:
        page.click("#sgf-download")
    path = tmp_path / "game.sgf"
    info.value.save_as(path)
    assert "SZ[9]" in path.read_text()
    page.click("#new-game")
    wait_idle(page)
    assert moves(page) == []
    page.set_input_files("#sgf-upload", str(path))
    page.wait_for_function("() => document.getElementById('go-app').dataset.moves !== ''")
    wait_idle(page)
    assert moves(page) == record
    assert stones_on_board(page) == len(record)  # no captures in four opening moves


def test_a_finished_game_shows_the_score_and_marks_dead_stones(page, site, tmp_path):
    # Black walls off columns A-D, White E-J; White's lone stone at B5 is dead; two passes.
    walls = "".join(f";B[d{c}];W[e{c}]" for c in "abcdefghi")
    path = tmp_path / "split.sgf"
    path.write_text(f"(;GM[1]FF[4]SZ[9]KM[7]{walls};B[];W[be];B[];W[])")
    open_go(page, site)
    page.set_input_files("#sgf-upload", str(path))
    page.wait_for_function("() => document.getElementById('go-app').dataset.over === '1'")
    status = page.text_content("#status")
    assert "W+16" in status and "1 dead stone marked" in status
    assert [m.get_attribute("data-dead") for m in page.locator("#board [data-dead]").all()] == ["B5"]
    page.click("#status")  # leave the delay field that open_go filled
    page.keyboard.press("ArrowLeft")  # one move back the game is not over: no marks
    assert page.text_content("#ply") == "21 / 22"
    assert page.locator("#board [data-dead]").count() == 0

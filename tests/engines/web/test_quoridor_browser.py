"""The Quoridor page in real headless Chromium against the compiled engine, directly and
behind nginx under /task-x/: lit squares clicked (a jump included), walls previewed and placed,
refusals with reasons, paths, the timeline with branches, analysis, AI vs AI and records."""
from engines.quoridor import rules
from tests.engines.web.pages import GamePage

FAST = "nodes=2000"


def square(name):
    return f'#board [data-square="{name}"]'


def wall(name):
    return f'#board [data-wall="{name}"]'


def lit(page):
    return sorted(s.get_attribute("data-square") for s in page.locator('#board [data-legal="1"][data-square]').all())


def play_forward_to_the_end(g, max_moves=40):
    """Player 1 (a human) steps to the lit square furthest up until the game ends; the other
    side is the engine. Asserts that it ended."""
    for _ in range(max_moves):
        if g.data("over") == "1":
            break
        g.click(square(max(lit(g.page), key=lambda s: int(s[1:]))))
        g.page.wait_for_function("() => { const d = document.getElementById('quoridor-app').dataset;"
                                 " return d.busy === '0' && (d.over === '1' || d.toMove === 'p1'); }",
                                 timeout=20_000)
    assert g.data("over") == "1" and "Game over: player" in g.page.text_content("#status"), g.moves()


def test_move_the_pawn_by_a_lit_square_and_the_engine_replies(page, site):
    g = GamePage(page, "quoridor").open(site + f"quoridor?{FAST}")
    assert lit(page) == ["d1", "e2", "f1"]
    g.click(square("e2"))
    g.wait_moves(2)
    assert g.moves()[0] == "e2"
    assert page.get_attribute('#board [data-pawn="0"]', "data-at") == "e2"
    g.click(square("e5"))                      # not lit: the server refuses it with the reason
    assert "cannot reach it" in g.message() and len(g.moves()) == 2
    assert all(u.startswith(site) or u.startswith("blob:") for u in g.requests), g.requests


def test_a_jump_over_the_facing_pawn_is_lit_and_played(page, site):
    g = GamePage(page, "quoridor").open(site + "quoridor?p2=human&moves=e2,e8,e3,e7,e4,e6,e5")
    assert "e4" in lit(page)                   # player 2 on e6 jumps over e5
    g.click(square("e4"))
    assert g.moves()[-1] == "e4"


def test_walls_preview_legal_and_illegal_and_refuse_with_the_reason(page, site):
    g = GamePage(page, "quoridor").open(site + "quoridor?p2=human&moves=e2,e8")
    page.hover(wall("d7h"))
    assert page.get_attribute(wall("d7h"), "data-legal") == "1"
    g.click(wall("d7h"))
    assert g.moves()[-1] == "d7h" and g.data("walls-left") == "9 10"
    assert page.locator('#board [data-placed="d7h"]').count() == 1
    page.hover(wall("e7h"))                    # overlaps d7h: previewed red, refused on click
    assert page.get_attribute(wall("e7h"), "data-legal") == "0"
    assert page.get_attribute(wall("e7h"), "data-reason") == "overlaps a wall"
    preview = page.locator(wall("e7h")).locator("xpath=..").locator(".preview")
    assert preview.evaluate("e => getComputedStyle(e).fill") == "rgb(229, 83, 75)"
    g.click(wall("e7h"))
    assert "move 4 (e7h) by player 2 is illegal: overlaps a wall" in g.message()
    assert g.moves() == ["e2", "e8", "d7h"]


def test_shortest_paths_on_demand(page, site):
    g = GamePage(page, "quoridor").open(site + "quoridor?p2=human&moves=e2,e8,e3h")
    assert page.locator("#board [data-path]").count() == 0
    page.keyboard.press("p")
    lengths = [page.get_attribute(f'#board [data-path="{p}"]', "data-length") for p in (0, 1)]
    reference = rules.Game(9)
    for move in ("e2", "e8", "e3h"):
        reference.play(move)
    expected = [str(reference.path_length(p)) for p in (0, 1)]
    assert lengths == expected and expected != ["7", "7"]   # both go round the wall
    assert f"shortest paths {expected[0]} and {expected[1]}" in page.text_content("#walls-left")


def test_timeline_branch_and_analysis(page, site):
    g = GamePage(page, "quoridor").open(site + "quoridor?p2=human&moves=e2,e8,e3,e7")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.text_content("#ply") == "2 / 4"
    g.click(square("d2"))
    assert g.moves() == ["e2", "e8", "d2"] and g.data("branches") == "1"
    page.keyboard.press("a")
    page.wait_for_selector('#quoridor-app[data-analysed="1"][data-busy="0"]', timeout=20_000)
    assert page.locator("#candidates tr").count() > 0
    assert page.locator("#board [data-pv]").count() >= 1
    page.keyboard.press("ArrowLeft")
    page.locator("#branches [data-variation]").first.click()
    g.wait_idle()
    assert g.moves() == ["e2", "e8", "e3", "e7"]


def test_ai_vs_ai_on_5x5_plays_to_the_end(page, site):
    g = GamePage(page, "quoridor").open(site + f"quoridor?p1=engine&p2=engine&{FAST}&delay=0&size=5")
    page.click("#play-pause")
    page.wait_for_selector('#quoridor-app[data-over="1"]', timeout=60_000)
    assert "Game over: player" in page.text_content("#status")
    assert g.data("running") == "0"


def test_record_download_and_upload(page, site, tmp_path):
    g = GamePage(page, "quoridor").open(site + "quoridor?p2=human&size=7&moves=d2,d6,d3v")
    with page.expect_download() as info:
        page.click("#record-download")
    path = tmp_path / "game.txt"
    info.value.save_as(path)
    assert "size 7" in path.read_text() and "moves d2 d6 d3v" in path.read_text()
    page.click("#new-game")
    g.wait_idle()
    page.set_input_files("#record-upload", str(path))
    page.wait_for_function("() => document.getElementById('quoridor-app').dataset.moves === 'd2 d6 d3v'")
    bad = tmp_path / "bad.txt"
    bad.write_text("size 8\n")
    page.set_input_files("#record-upload", str(bad))
    page.wait_for_function("() => document.getElementById('message').textContent.includes('5, 7 or 9')")

"""The UI in real headless Chromium, served by waitress on a free loopback port."""
import os
import re
from pathlib import Path

import pytest

from pm.web import create_app
from pm.web.serve import ServerThread
from pm.web.static import render_board
from tests.pm.web.conftest import ATTACK_TITLE

# Every hostile snippet sets window.pwned and/or replaces the whole title with "pwned".
PWNED = "window.pwned === undefined && document.title !== 'pwned'"


def no_script_ran(page) -> bool:
    return page.evaluate(PWNED)


def test_overview_renders_sprint_and_backlog(page, live_url, world):
    page.goto(live_url + "/")
    assert page.title() == "Overview · pm"
    sprint = page.locator("#sprint tbody tr")
    assert sprint.count() == 2
    assert sprint.nth(0).locator("td.title").inner_text() == "Ship the Go engine as a web app"
    assert sprint.nth(1).locator("td.title").inner_text() == "Gomoku board renders off by one"
    headings = page.locator("#backlog h3").all_inner_texts()
    assert headings == ["open · 3", "in-progress · 1", "review · 1", "done · 1"]
    assert page.locator("#backlog tbody tr").count() == 6


def test_filter_form_narrows_the_overview(page, live_url, world):
    page.goto(live_url + "/")
    page.select_option("select[name=priority]", "P0")
    page.click("form.filters button")
    page.wait_for_url(re.compile(r"priority=P0"))
    assert page.locator("#backlog tbody tr").count() == 1
    assert page.locator("#backlog td.title").inner_text() == "Gomoku board renders off by one"


def test_board_columns_and_card_navigation(page, live_url, world):
    page.goto(live_url + "/board")
    names = page.locator(".column h2").all_inner_texts()
    assert [n.split(" · ")[0].lower() for n in names] == ["open", "in-progress", "blocked", "review", "done", "wontfix"]
    blocked = page.locator('.column[data-status="blocked"] .card')
    assert blocked.count() == 1 and "Quoridor wall placement API" in blocked.inner_text()
    # all columns side by side within a 1280px window
    boxes = [page.locator(".column").nth(i).bounding_box() for i in range(3)]
    assert boxes[0]["y"] == boxes[1]["y"] == boxes[2]["y"] and boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]
    page.locator(f'.card[data-task="{world["gomoku"]}"]').click()
    page.wait_for_url(f"**/tasks/{world['gomoku']}")
    assert page.locator("h1").inner_text() == f"#{world['gomoku']} Gomoku board renders off by one"


def test_task_page_fields_sections_and_typed_links(page, live_url, world):
    page.goto(f"{live_url}/tasks/{world['go']}")
    fields = dict(zip(page.locator("aside dt").all_inner_texts(), page.locator("aside dd").all_inner_texts()))
    assert fields["status"] == "open" and fields["priority"] == "P1" and fields["sprint"] == "rank 1"
    assert page.locator("#section-problem strong").inner_text() == "Go"
    assert page.locator("#section-fix li").all_inner_texts() == ["Flask blueprint", "board page"]
    assert "Looked at the <b>arcade</b> blueprint" in page.locator("#log").inner_text()
    page.locator("#links a", has_text="Quoridor wall placement API").click()
    page.wait_for_url(f"**/tasks/{world['quoridor']}")
    assert page.locator("h1").inner_text() == f"#{world['quoridor']} Quoridor wall placement API"


def test_search_from_the_top_bar(page, live_url, world):
    page.goto(live_url + "/board")
    page.fill("header input[name=q]", "stones column")
    page.press("header input[name=q]", "Enter")
    page.wait_for_url(re.compile(r"/search\?q=stones"))
    assert page.locator("h2").inner_text() == "1 task matching “stones column”"
    assert page.locator("tbody td.title").all_inner_texts() == ["Gomoku board renders off by one"]


def test_history_diffs_are_shown_in_colour(page, live_url, world):
    page.goto(f"{live_url}/tasks/{world['gomoku']}")
    commits = page.locator("#history details.commit")
    assert commits.count() == len(world["tracker"].history(world["gomoku"]))
    newest = commits.nth(0)
    added = newest.locator(".diff .add", has_text='content="in-progress"')
    removed = newest.locator(".diff .del", has_text='content="open"')
    assert added.is_visible() and removed.is_visible()
    assert added.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(230, 246, 234)"
    assert removed.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(251, 233, 233)"
    oldest = commits.nth(commits.count() - 1)
    assert not oldest.locator(".diff").is_visible()
    oldest.locator("summary").click()
    assert oldest.locator(".diff .add").first.is_visible()


def test_hostile_task_runs_nothing(page, live_url, world):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_url}/tasks/{world['hostile']}")
    page.wait_for_load_state("load")
    assert page.title() == f"#{world['hostile']} {ATTACK_TITLE} · pm"
    assert page.locator("h1").inner_text() == f"#{world['hostile']} {ATTACK_TITLE}"
    assert page.locator("body").is_visible()  # the <style> hiding the body is gone
    assert page.evaluate("document.querySelectorAll('script, iframe, style, object, embed').length") == 0
    problem = page.locator("#section-problem")
    problem.get_by_text("hover text").hover()
    problem.get_by_text("innocent link").click()
    page.wait_for_timeout(200)
    assert page.url == f"{live_url}/tasks/{world['hostile']}"
    assert no_script_ran(page) and errors == []
    assert page.title() == f"#{world['hostile']} {ATTACK_TITLE} · pm"


def test_csp_blocks_inline_script_even_if_it_got_through(page, tracker):
    """The header is the second wall: a page with inline script (added here, not by pm) runs none."""
    app = create_app(tracker)
    app.add_url_rule("/leak", "leak", lambda: "<title>ok</title><script>window.pwned = 1</script>"
                                             '<img src="x" onerror="window.pwned = 2">')
    with ServerThread(app) as server:
        violations = []
        page.on("console", lambda msg: violations.append(msg.text))
        page.goto(server.url + "/leak")
        page.wait_for_timeout(200)
        assert page.title() == "ok" and no_script_ran(page)
        assert any("Content Security Policy" in text for text in violations)


def test_static_board_opens_from_a_file_url(page, tracker, world, tmp_path):
    board = tmp_path / "board.html"
    board.write_text(render_board(tracker, for_path=board), encoding="utf-8")
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(board.as_uri())
    assert [h.split(" · ")[0].lower() for h in page.locator(".column h2").all_inner_texts()][:3] == [
        "open", "in-progress", "blocked"]
    assert page.locator(f'.card[data-task="{world["hostile"]}"]').inner_text().count(ATTACK_TITLE) == 1
    background = page.locator(".column").first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert background == "rgb(234, 237, 242)"  # the inline stylesheet applied
    assert no_script_ran(page)
    assert all(url.startswith("file://") for url in requests), requests
    page.locator(f'.column[data-status="open"] .card[data-task="{world["go"]}"]').click()
    page.wait_for_url("**/tasks/*-ship-the-go-engine-as-a-web-app.html")
    assert page.locator("h1").inner_text() == "Ship the Go engine as a web app"


def test_hostile_task_file_opened_from_disk_runs_nothing(page, tracker, world):
    """The raw task file carries its own CSP: opened straight from disk, its script stays inert."""
    task = tracker.get(world["hostile"])
    path = os.path.join(tracker.root, task.path)
    assert "<script>window.pwned = 1" in open(path, encoding="utf-8").read()  # the raw file holds it
    violations = []
    page.on("console", lambda msg: violations.append(msg.text))
    page.goto(Path(path).as_uri())
    page.wait_for_timeout(200)
    assert page.locator("h1").inner_text() == ATTACK_TITLE
    page.get_by_text("hover text").hover()  # the agent's <style> hiding the body was refused too
    assert no_script_ran(page)
    assert any("Content Security Policy" in text for text in violations)
    # pm's own stylesheet is allowed by its hash.
    assert page.locator("body").evaluate("e => getComputedStyle(e).maxWidth") == "832px"

"""render_board: one self-contained, sanitized HTML page of the whole tracker."""
import os
import re

from markupsafe import escape

from pm.web.static import STATIC_CSP, render_board


def test_page_is_self_contained(tracker):
    page = render_board(tracker)
    assert page.startswith("<!doctype html>")
    assert f'<meta http-equiv="Content-Security-Policy" content="{escape(STATIC_CSP)}">' in page
    assert "script-src" not in STATIC_CSP and "default-src 'none'" in STATIC_CSP
    assert "<style>" in page and ".board {" in page
    for outside in ("<script", "<link", " src=", "http://", "https://", "url("):
        assert outside not in page, outside


def test_columns_cards_and_sprint(tracker, world):
    page = render_board(tracker)
    columns = re.findall(r'<section class="column" data-status="([^"]+)">', page)
    assert columns == ["open", "in-progress", "blocked", "review", "done", "wontfix"]
    cards = {int(i) for i in re.findall(r'data-task="(\d+)"', page)}
    assert cards == {v for k, v in world.items() if k != "tracker"}
    sprint = page.split('<ol class="sprint">', 1)[1].split("</ol>", 1)[0]
    assert sprint.index("Ship the Go engine") < sprint.index("Gomoku board renders")


def test_card_links_are_relative_paths_to_existing_task_files(tracker):
    hrefs = set(re.findall(r'href="([^"]+)"', render_board(tracker)))
    assert hrefs and all(h.startswith("tasks/") for h in hrefs)
    assert all(os.path.isfile(os.path.join(tracker.root, h)) for h in hrefs)


def test_titles_are_escaped(tracker):
    page = render_board(tracker)
    assert "<script>document.title" not in page
    assert "Hostile &lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt; title" in page


def test_links_work_from_another_directory_with_for_path(tracker, tmp_path):
    target = tmp_path / "reports" / "board.html"
    hrefs = set(re.findall(r'href="([^"]+)"', render_board(tracker, for_path=target)))
    assert hrefs and all(h.startswith("../") for h in hrefs)
    assert all((target.parent / h).resolve().is_file() for h in hrefs)

"""Routes through Flask's test client against a real tracker (git repo built through pm's API)."""
import re
from html.parser import HTMLParser

import pytest

from pm.api import Actor, Tracker
from pm.web import create_app
from pm.web.headers import CONTENT_SECURITY_POLICY
from tests.pm.web.conftest import ATTACK_TITLE

PAGES = ["/", "/board", "/search?q=engine", "/tasks/1", "/tasks/5"]


def text(response) -> str:
    return response.get_data(as_text=True)


def task_ids(page: str, section: str | None = None) -> list[int]:
    if section:
        page = page.split(f'id="{section}"', 1)[1].split("</section>", 1)[0]
    return [int(n) for n in re.findall(r'data-task="(\d+)"', page)]


def test_overview_shows_the_ranked_sprint_and_the_backlog_by_status(client, world):
    page = text(client.get("/"))
    assert task_ids(page, "sprint") == [world["go"], world["gomoku"]]
    backlog = page.split('id="backlog"', 1)[1]
    order = [backlog.index(f'id="status-{s}"') for s in ("open", "in-progress", "review", "done")]
    assert order == sorted(order)
    assert sorted(task_ids(page, "backlog")) == sorted(v for k, v in world.items() if k != "tracker")


def test_backlog_puts_p1_before_p2_inside_a_status(client, world):
    open_group = text(client.get("/")).split('id="status-open"', 1)[1].split("</table>", 1)[0]
    assert task_ids(open_group) == [world["go"], world["quoridor"], world["hostile"]]


@pytest.mark.parametrize("query,expected", [
    ("status=open", {"go", "quoridor", "hostile"}),
    ("status=done,review", {"readme", "review"}),
    ("priority=p0", {"gomoku"}),
    ("kind=docs", {"readme"}),
    ("sprint=yes", {"go", "gomoku"}),
    ("sprint=no&priority=P1", {"review"}),
    ("text=stones+column", {"gomoku"}),
])
def test_filters_narrow_overview_and_board(client, world, query, expected):
    want = sorted(world[name] for name in expected)
    assert sorted(set(task_ids(text(client.get(f"/?{query}")), "backlog"))) == want
    assert sorted(task_ids(text(client.get(f"/board?{query}")))) == want


@pytest.mark.parametrize("query,value", [
    ("status=closed", "closed"), ("priority=P7", "P7"), ("kind=epic", "epic"), ("sprint=perhaps", "perhaps"),
])
def test_bad_filter_value_is_a_400_naming_it(client, query, value):
    for path in ("/", "/board"):
        response = client.get(f"{path}?{query}")
        assert response.status_code == 400
        assert f"&#39;{value}&#39;" in text(response)


def test_board_has_a_column_per_status_and_a_blocked_column(client, world):
    page = text(client.get("/board"))
    columns = re.findall(r'<section class="column" data-status="([^"]+)"', page)
    assert columns == ["open", "in-progress", "blocked", "review", "done", "wontfix"]
    blocked = page.split('data-status="blocked"', 1)[1].split("</section>", 1)[0]
    assert task_ids(blocked) == [world["quoridor"]]
    assert f"waits for #{world['go']}" in blocked


def test_task_page_shows_fields_sections_links_and_log(client, world):
    page = text(client.get(f"/tasks/{world['go']}"))
    assert "<h1>#1 Ship the Go engine as a web app</h1>" in page
    assert "<p>The <strong>Go</strong> engine has no web front end.</p>" in page
    assert "<ul><li>Flask blueprint</li><li>board page</li></ul>" in page
    assert re.search(r"<dt>sprint</dt><dd>rank 1</dd>", page)
    assert re.search(r"<dt>priority</dt><dd><span class=\"badge prio-p1\">P1</span></dd>", page)
    # typed links lead to the other tasks' pages, with their titles
    assert f'<a href="/tasks/{world["quoridor"]}">#{world["quoridor"]} Quoridor wall placement API</a>' in page
    assert "<dt>blocks</dt>" in page and "<dt>related</dt>" in page
    # a plain-text log entry shows its angle brackets as text
    assert "ceo/web-tests</div>Looked at the &lt;b&gt;arcade&lt;/b&gt; blueprint" in page


def test_task_history_is_shown_as_typed_diff_lines(client, world):
    page = text(client.get(f"/tasks/{world['gomoku']}"))
    history = page.split('id="history"', 1)[1]
    assert len(re.findall(r'<details class="commit"', history)) == len(world["tracker"].history(world["gomoku"]))
    assert '<div class="del">&lt;meta name=&#34;pm:status&#34; content=&#34;open&#34;&gt;</div>' in history
    assert '<div class="add">&lt;meta name=&#34;pm:status&#34; content=&#34;in-progress&#34;&gt;</div>' in history


def test_unknown_task_is_a_404_naming_the_id(client):
    response = client.get("/tasks/9999")
    assert response.status_code == 404 and "Task 9999 not found" in text(response)
    response = client.get("/tasks/not-a-number")
    assert response.status_code == 404 and "Task not-a-number not found" in text(response)


def test_task_file_names_from_relative_links_redirect_to_the_task(client, world):
    name = world["tracker"].get(world["quoridor"]).path.split("/")[-1]
    response = client.get(f"/tasks/{name}")
    assert response.status_code == 302 and response.headers["Location"] == f"/tasks/{world['quoridor']}"
    assert client.get("/overview.html").headers["Location"] == "/"


def test_search_finds_words_anywhere_in_the_task_file(client, world):
    page = text(client.get("/search?q=blueprint+routes"))
    assert task_ids(page) == [world["go"]]
    assert "1 task matching" in page
    assert task_ids(text(client.get("/search?q=nothing-mentions-this"))) == []
    assert "matching" not in text(client.get("/search"))


class _Markup(HTMLParser):
    """Every tag and attribute a browser would build from the page."""

    def __init__(self):
        super().__init__()
        self.tags, self.attrs = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(name, value or "") for name, value in attrs]


def test_hostile_markup_is_stored_raw_but_served_sanitized(client, world):
    assert "<script>" in world["tracker"].get(world["hostile"]).sections["problem"]
    page = text(client.get(f"/tasks/{world['hostile']}"))
    markup = _Markup()
    markup.feed(page)
    assert not {"script", "iframe", "style", "object", "embed"} & set(markup.tags)
    assert [name for name, _ in markup.attrs if name.startswith("on")] == []
    assert [value for _, value in markup.attrs if "javascript:" in value.lower()] == []
    assert '<img src="missing.png" alt="broken">' in page
    assert '<b>logged</b> <img src="x"></li>' in page
    # the history still shows the raw file, as text
    assert "&lt;script&gt;window.pwned = 1;" in page
    assert "Hostile &lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt; title" in page


@pytest.mark.parametrize("path", PAGES + ["/tasks/9999", "/?status=x", "/static/style.css"])
def test_every_response_carries_the_security_headers(client, path):
    response = client.get(path)
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY and "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", PAGES)
def test_no_page_has_inline_script_or_inline_style(client, path):
    page = text(client.get(path)).lower()
    # The board's one script is the UI's own file, from this origin (what the CSP allows).
    page = page.replace('<script src="/static/board.js" defer></script>', "")
    assert "<script" not in page and "<style" not in page and " style=" not in page


class _Urls(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        self.urls += [value for name, value in attrs if name in ("href", "src", "action")]


@pytest.mark.parametrize("path", PAGES)
def test_every_link_stays_under_the_proxy_sub_path(client, path):
    page = text(client.get(path, headers={"X-Forwarded-Prefix": "/task-x"}))
    parser = _Urls()
    parser.feed(page)
    rooted = [url for url in parser.urls if url.startswith("/")]
    assert rooted and all(url.startswith("/task-x/") for url in rooted), rooted


def test_an_unparseable_task_file_is_reported_with_file_and_line(tmp_path):
    tracker = Tracker.init(str(tmp_path / "t"), actor=Actor("worker", "web-tests"))
    task = tracker.new("Broken on purpose")
    path = tmp_path / "t" / task.path
    path.write_text(path.read_text().replace('content="open"', "content=open"))
    response = create_app(str(tmp_path / "t")).test_client().get(f"/tasks/{task.id}")
    assert response.status_code == 500
    assert re.search(rf"{re.escape(task.path)}:\d+", text(response))
    assert "pm lint" in text(response)


def test_the_app_serves_a_tracker_given_by_path(tmp_path):
    tracker = Tracker.init(str(tmp_path / "t"), actor=Actor("worker", "web-tests"))
    tracker.new("Only task")
    page = text(create_app(tmp_path / "t").test_client().get("/"))
    assert "Only task" in page and ATTACK_TITLE not in page


def test_long_groups_are_capped_with_a_link_to_the_whole_status(client, world, monkeypatch):
    from pm.web.blueprints import board, overview

    monkeypatch.setattr(overview, "GROUP_LIMIT", 2)
    monkeypatch.setattr(board, "CARD_LIMIT", 1)
    page = text(client.get("/"))
    open_group = page.split('id="status-open"', 1)[1].split('<h3', 1)[0]
    assert "open · 3</h3>" in page and len(task_ids(open_group)) == 2
    assert 'All 3 open tasks</a>' in open_group and 'href="/?status=open"' in open_group
    assert len(task_ids(text(client.get("/?status=open")), "backlog")) == 3  # a status filter lifts the cap
    board_page = text(client.get("/board"))
    assert '<a href="/?status=open">+ 1 more</a>' in board_page


def test_search_results_are_capped_but_counted(client, monkeypatch):
    from pm.web.blueprints import search

    monkeypatch.setattr(search, "RESULT_LIMIT", 1)
    page = text(client.get("/search?q=pm"))  # every task file mentions pm
    assert "6 tasks matching" in page and len(task_ids(page)) == 1
    assert "Showing the first 1;" in page


def test_task_page_says_what_it_waits_for_and_shows_link_status(client, world):
    page = text(client.get(f"/tasks/{world['quoridor']}"))
    assert re.search(rf'waits for <a href="/tasks/{world["go"]}">#{world["go"]}</a>', page)
    blocked_by = page.split("<dt>blocked-by</dt>", 1)[1].split("</dd>", 1)[0]
    assert '<span class="badge status-open">open</span>' in blocked_by
    assert "waits for" not in text(client.get(f"/tasks/{world['go']}"))


def test_concurrent_requests_on_waitress_threads_all_succeed(live_url, world):
    import concurrent.futures
    import urllib.request

    urls = [live_url + path for path in ("/", "/board", f"/tasks/{world['go']}", "/search?q=board")] * 6

    def fetch(url):
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        assert list(pool.map(fetch, urls)) == [200] * len(urls)


def test_history_shows_the_newest_commits_and_counts_the_rest(client, world, monkeypatch):
    from pm.web.blueprints import tasks

    monkeypatch.setattr(tasks, "HISTORY_LIMIT", 1)
    page = text(client.get(f"/tasks/{world['gomoku']}"))
    total = len(world["tracker"].history(world["gomoku"]))
    assert page.count('<details class="commit"') == 1
    assert f"{total} commits</span>" in page and f"{total - 1} older commits not shown" in page
    assert 'content=&#34;in-progress&#34;' in page  # the newest change is the one kept

"""Editing from the browser, in real headless Chromium against waitress: each edit is one pm
commit, compare-and-set against the version the page showed; cross-site writes, rebound host
names and <script> in an edited section get nowhere."""
import re
import urllib.error
import urllib.request

import pytest
from flask import Flask
from playwright.sync_api import expect

from pm.api import Actor, Tracker
from pm.web import create_app
from pm.web.serve import ServerThread
from tests.pm.conftest import git
from tests.pm.web.conftest import build_tracker

PWNED = "window.pwned === undefined && document.title !== 'pwned'"


@pytest.fixture
def world(tmp_path):
    """A fresh tracker per test (these tests change it), served acting as the ceo."""
    return build_tracker(tmp_path / "tracker")


@pytest.fixture
def url(world):
    with ServerThread(create_app(world["tracker"])) as server:
        yield server.url


@pytest.fixture
def noscript(browser):
    """A page with JavaScript switched off: every form must work without it."""
    context = browser.new_context(java_script_enabled=False)
    try:
        yield context.new_page()
    finally:
        context.close()


def commits(world) -> int:
    return int(git(world["tracker"].root, "rev-list", "--count", "HEAD"))


def last_commit(world) -> str:
    return git(world["tracker"].root, "log", "-1", "--format=%s%n%b")


def test_dragging_a_card_to_another_column_changes_its_status(page, url, world):
    before = commits(world)
    page.goto(url + "/board")
    card = f'.card[data-task="{world["quoridor"]}"]'
    page.drag_and_drop(card, '.column[data-status="review"]')
    page.wait_for_selector("#board-message:not([hidden])")
    assert page.locator("#board-message").inner_text() == f"#{world['quoridor']} is review"
    assert page.locator(f'.column[data-status="review"] {card}').count() == 1
    assert world["tracker"].get(world["quoridor"]).status == "review"
    assert commits(world) == before + 1
    assert last_commit(world).startswith(f"pm: #{world['quoridor']} status: open -> review")
    # The card now carries the new version: a second drag goes through too.
    page.drag_and_drop(card, '.column[data-status="done"]')
    expect(page.locator("#board-message")).to_have_text(f"#{world['quoridor']} is done")
    assert world["tracker"].get(world["quoridor"]).status == "done"


def test_a_stale_card_is_refused_with_what_changed(page, url, world):
    page.goto(url + "/board")
    world["tracker"].log(world["readme"], "reopened elsewhere")  # after the page was shown
    before = commits(world)
    page.drag_and_drop(f'.card[data-task="{world["readme"]}"]', '.column[data-status="open"]')
    page.wait_for_selector("#board-message.refused")
    text = page.locator("#board-message").inner_text()
    assert text.startswith(f"Not moved: task {world['readme']} changed since you read it")
    assert 'log: ceo/web-tests wrote "reopened elsewhere"' in text
    assert world["tracker"].get(world["readme"]).status == "done" and commits(world) == before
    assert page.locator(f'.column[data-status="done"] .card[data-task="{world["readme"]}"]').count() == 1


def test_the_status_form_works_without_script(noscript, url, world):
    noscript.goto(f"{url}/tasks/{world['go']}")
    noscript.select_option("#status-form select[name=status]", "in-progress")
    noscript.click("#status-form button")
    noscript.wait_for_url(re.compile(rf"/tasks/{world['go']}\?done="))
    assert noscript.locator(".notice").inner_text() == f"#{world['go']} is in-progress"
    assert noscript.locator("aside .badge").first.inner_text() == "in-progress"
    assert world["tracker"].get(world["go"]).status == "in-progress"


def test_fields_and_sections_are_edited_in_one_commit_and_script_never_runs(noscript, page, url, world):
    number, before = world["review"], commits(world)
    noscript.goto(f"{url}/tasks/{number}")
    noscript.fill("#fields-form input[name=title]", "Review the Quoridor rules page again")
    noscript.select_option("#fields-form select[name=priority]", "P0")
    noscript.fill("#fields-form input[name=labels]", "quoridor, docs")
    noscript.click("#fields-form button")
    noscript.wait_for_url(re.compile(r"done="))
    task = world["tracker"].get(number)
    assert (task.title, task.priority, task.labels) == ("Review the Quoridor rules page again", "P0",
                                                         ["docs", "quoridor"])
    assert commits(world) == before + 1
    hostile = ("<p>Rules <em>checked</em>.</p>\n<script>window.pwned = 1; document.title = 'pwned'</script>\n"
               '<img src="x" onerror="window.pwned = 2">')
    noscript.click("#edit-sections summary")
    noscript.fill("#sections-form textarea[name=problem]", hostile)
    noscript.fill("#sections-form textarea[name=fix]", "<ul><li>reread</li></ul>")
    noscript.click("#sections-form button")
    noscript.wait_for_url(re.compile(r"done="))
    assert commits(world) == before + 2
    task = world["tracker"].get(number)
    assert "<script>window.pwned = 1" in task.sections["problem"]  # stored as written
    assert task.sections["fix"] == "<ul><li>reread</li></ul>\n"
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/tasks/{number}")  # with script on: still nothing of it runs
    page.wait_for_load_state("load")
    assert page.locator("#section-problem em").inner_text() == "checked"
    assert page.evaluate("document.querySelectorAll('script').length") == 0
    assert page.evaluate(PWNED) and errors == []
    # what was typed comes back in the textarea as text, not as markup
    assert page.locator("#sections-form textarea[name=problem]").input_value().startswith(hostile[:40])


def test_a_log_entry_is_added(noscript, url, world):
    noscript.goto(f"{url}/tasks/{world['go']}")
    noscript.fill("#log-form textarea[name=message]", "Tried it in <b>Chromium</b>")
    noscript.click("#log-form button")
    noscript.wait_for_url(re.compile(r"done="))
    assert noscript.locator("ol.log li").last.inner_text().endswith("Tried it in <b>Chromium</b>")
    entry = world["tracker"].get(world["go"]).log[-1]
    assert (entry.who, entry.html) == ("ceo/web-tests", "Tried it in &lt;b&gt;Chromium&lt;/b&gt;")


def test_a_task_is_created(noscript, url, world):
    noscript.goto(url + "/board")
    noscript.click("nav >> text=New task")
    noscript.fill("#new-task input[name=title]", "Gomoku: renju opening rules")
    noscript.select_option("#new-task select[name=kind]", "feature")
    noscript.fill("#new-task input[name=labels]", "gomoku")
    noscript.click("#new-task button")
    noscript.wait_for_url(re.compile(r"/tasks/7\?done="))
    task = world["tracker"].get(7)
    assert (task.title, task.kind, task.labels) == ("Gomoku: renju opening rules", "feature", ["gomoku"])
    assert last_commit(world).startswith('pm: new #7 "Gomoku: renju opening rules"')


def test_the_ceo_promotes_ranks_and_demotes(noscript, url, world):
    tracker, number = world["tracker"], world["review"]
    noscript.goto(f"{url}/tasks/{number}")
    noscript.fill("#sprint-form input[name=rank]", "1")
    noscript.click("#sprint-form button[value=promote]")
    noscript.wait_for_url(re.compile(r"done="))
    assert [t.id for t in tracker.sprint()] == [number, world["go"], world["gomoku"]]
    assert "PM-Sprint: promote" in last_commit(world)
    noscript.fill("#sprint-form input[name=rank]", "3")
    noscript.click("#sprint-form button[value=rank]")
    noscript.wait_for_url(re.compile(r"done="))
    assert [t.id for t in tracker.sprint()] == [world["go"], world["gomoku"], number]
    noscript.click("#sprint-form button[value=demote]")
    noscript.wait_for_url(re.compile(r"done="))
    assert tracker.get(number).sprint_rank is None
    assert tracker.audit() == []  # every sprint change carries the ceo's trailer


def test_a_worker_server_has_no_sprint_controls_and_refuses_them(noscript, world):
    worker = Tracker(world["tracker"].root, Actor("worker", "web"))
    with ServerThread(create_app(worker)) as server:
        noscript.goto(f"{server.url}/tasks/{world['review']}")
        assert noscript.locator("#sprint-form").count() == 0
        token = noscript.locator("#status-form input[name=csrf]").get_attribute("value")
        response = noscript.request.post(f"{server.url}/tasks/{world['review']}/sprint",
                                         form={"csrf": token, "action": "promote"},
                                         headers={"Origin": server.url})
        assert response.status == 403 and "only the ceo" in response.text()
    assert world["tracker"].get(world["review"]).sprint_rank is None


def test_an_edit_on_a_stale_page_is_refused_with_what_changed(noscript, url, world):
    number = world["go"]
    noscript.goto(f"{url}/tasks/{number}")
    world["tracker"].set(number, priority="P0")  # someone else, after the page was shown
    world["tracker"].log(number, "claimed on another machine")
    before = commits(world)
    noscript.fill("#fields-form input[name=title]", "My title")
    noscript.click("#fields-form button")
    assert noscript.locator("h1").inner_text() == "This task changed since your page showed it"
    changes = noscript.locator("#refused .changes li").all_inner_texts()
    assert changes == ["priority: P1 -> P0", 'log: ceo/web-tests wrote "claimed on another machine"']
    assert commits(world) == before and world["tracker"].get(number).title == "Ship the Go engine as a web app"
    noscript.click(f"text=Open task {number} as it is now")
    noscript.fill("#fields-form input[name=title]", "My title")  # the fresh page's version works
    noscript.click("#fields-form button")
    noscript.wait_for_url(re.compile(r"done="))
    assert world["tracker"].get(number).title == "My title"


def test_a_cross_origin_post_is_refused(page, url, world):
    """A page on another origin posts a form at pm (the classic CSRF): refused, nothing written."""
    number = world["go"]
    evil = Flask("evil")
    evil.add_url_rule("/", "attack", lambda: (
        f'<form id="f" method="post" action="{url}/tasks/{number}/status">'
        '<input name="status" value="wontfix"><input name="csrf" value="guessed"></form>'
        "<script>document.getElementById('f').submit()</script>"))
    before = commits(world)
    page.goto(url + "/board")  # the user has a pm session cookie
    with ServerThread(evil) as attacker:
        attacker_url = attacker.url.replace("127.0.0.1", "localhost")  # another origin
        with page.expect_navigation(url=re.compile(rf"/tasks/{number}/status")):
            page.goto(attacker_url + "/")
        assert "cross-site request refused" in page.locator("body").inner_text()
    assert world["tracker"].get(number).status == "open" and commits(world) == before


def _post(url, path, headers, data=b"status=done"):
    request = urllib.request.Request(url + path, data=data, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_origin_token_and_host_are_checked_on_the_wire(url, world):
    app = create_app(world["tracker"], {"TESTING": True})
    client = app.test_client()
    page = client.get(f"/tasks/{world['go']}").get_data(as_text=True)
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    post = lambda **headers: client.post(f"/tasks/{world['go']}/status",  # noqa: E731
                                         data={"status": "review", "csrf": token}, headers=headers)
    refused = post(Origin="http://evil.example")
    assert refused.status_code == 403 and "cross-origin request from http://evil.example" in refused.get_data(as_text=True)
    assert post(Origin="null").status_code == 403
    assert post(**{"Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert client.post(f"/tasks/{world['go']}/status", data={"status": "review", "csrf": "wrong"},
                       headers={"Origin": "http://localhost"}).status_code == 403
    assert world["tracker"].get(world["go"]).status == "open"
    assert post(Origin="http://localhost").status_code == 303  # the UI's own origin
    assert world["tracker"].get(world["go"]).status == "review"
    # DNS rebinding: a name that resolves to 127.0.0.1 still sends its own Host: refused, reads too.
    port = url.rsplit(":", 1)[1]
    status, body = _post(url, "/", {"Host": f"evil.example:{port}"}, data=None)
    assert status == 421 and f"not &#39;evil.example:{port}&#39;" in body and "--allow-host" in body
    # A forwarded host (a proxy in front) must be one of ours too.
    assert client.get("/", headers={"X-Forwarded-Host": "evil.example"}).status_code == 421
    assert client.get("/", headers={"X-Forwarded-Host": "127.0.0.1:8080"}).status_code == 200

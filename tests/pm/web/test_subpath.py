"""Behind a real nginx at /task-x/ (as `instances` puts apps): every link, form and the
stylesheet stay under the sub-path, in Chromium."""
import pytest

from tests.support.nginx import private_nginx

@pytest.fixture(scope="module")
def proxied_url(live_url, tmp_path_factory):
    """The UI behind nginx at /task-x/, configured as `instances` configures a review URL."""
    app_port = int(live_url.rsplit(":", 1)[1])
    with private_nginx(tmp_path_factory.mktemp("nginx"), {"/task-x/": app_port}) as base_url:
        yield base_url + "/task-x"


def test_navigation_stays_under_the_sub_path(page, proxied_url, world):
    page.goto(proxied_url + "/")
    topbar = page.locator("header.topbar").evaluate("e => getComputedStyle(e).backgroundColor")
    assert topbar == "rgb(29, 35, 48)"  # the stylesheet came through /task-x/static/
    page.click("nav >> text=Board")
    page.wait_for_url(proxied_url + "/board")
    page.locator(f'.card[data-task="{world["quoridor"]}"]').click()
    page.wait_for_url(f"{proxied_url}/tasks/{world['quoridor']}")
    page.locator("#links a").first.click()
    page.wait_for_url(f"{proxied_url}/tasks/{world['go']}")
    page.fill("header input[name=q]", "gomoku")
    page.press("header input[name=q]", "Enter")
    page.wait_for_url(f"{proxied_url}/search?q=gomoku")
    assert page.locator("tbody tr").count() >= 1
    page.click("a.brand")
    page.wait_for_url(proxied_url + "/")


def test_filters_and_redirects_keep_the_sub_path(page, proxied_url, world):
    page.goto(proxied_url + "/board")
    page.select_option("select[name=status]", "open")
    page.click("form.filters button")
    page.wait_for_url(proxied_url + "/board?status=open**")
    name = world["tracker"].get(world["quoridor"]).path.split("/")[-1]
    page.goto(f"{proxied_url}/tasks/{name}")  # what a relative link inside a task file opens
    assert page.url == f"{proxied_url}/tasks/{world['quoridor']}"
    page.goto(proxied_url + "/overview.html")
    assert page.url == proxied_url + "/"


def test_edits_work_behind_the_proxy(page, tmp_path):
    """The Origin and Host checks accept the proxy's own origin: a form posted through nginx
    at /task-y/ is saved and redirected back under the sub-path."""
    from pm.web import create_app
    from pm.web.serve import ServerThread
    from tests.pm.web.conftest import build_tracker

    world = build_tracker(tmp_path / "tracker")
    with ServerThread(create_app(world["tracker"])) as server, \
            private_nginx(tmp_path / "nginx", {"/task-y/": server.port}) as base_url:
        url = base_url + "/task-y"
        page.goto(f"{url}/tasks/{world['go']}")
        page.fill("#log-form textarea[name=message]", "reviewed through the proxy")
        page.click("#log-form button")
        page.wait_for_url(f"{url}/tasks/{world['go']}?done=**")
        assert world["tracker"].get(world["go"]).log[-1].html == "reviewed through the proxy"
        page.goto(f"{url}/board")
        page.drag_and_drop(f'.card[data-task="{world["readme"]}"]', '.column[data-status="open"]')
        page.wait_for_selector("#board-message:not([hidden])")
        assert world["tracker"].get(world["readme"]).status == "open"

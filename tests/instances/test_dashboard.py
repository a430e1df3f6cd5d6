"""The dashboard at the private nginx's root, in Chromium: private (basic auth), every instance
with its pm task, memory against the budget, the review link, the log's tail and the demo video
logged on the task; it refreshes itself; and it works mounted under a sub-path."""
import re

import httpx
import pytest
from playwright.sync_api import Error as PlaywrightError

from demo.pm_link import log_video
from instances.config import load_config
from pm.api import Tracker
from tests.instances.conftest import write_toml
from tests.support.nginx import private_nginx

pytestmark = [pytest.mark.nginx, pytest.mark.chromium]


@pytest.fixture
def shop(mgr, app_repo, tmp_path, monkeypatch):
    """Two instances up, one for a pm task with a demo video logged on it; the supervisor on."""
    tracker = Tracker.init(str(tmp_path / "tracker"))
    monkeypatch.setenv("PM_DIR", tracker.root)  # the supervisor (and so the dashboard) inherits it
    task = tracker.new("Go: show the last move")
    tracker.start(task.id)
    video = tmp_path / "demo.mp4"
    video.write_bytes(b"\x00\x00\x00\x18ftypmp42 not a real video, served as it is")
    log_video(task.id, str(video), tracker_dir=tracker.root)
    write_toml(app_repo, mgr.config.listen[1], extra_top='memory_limit = "100M"\n[limits]\nmemory_budget = "1G"',
               supervisor='interval = "0.5s"')
    mgr.config = load_config(app_repo, environ={})
    mgr.up(str(task.id), run_checks=False)
    mgr.up("feature/two", run_checks=False)
    user, password = mgr.credentials()
    return mgr, task, video, {"username": user, "password": password}


def test_the_dashboard_is_private_and_shows_every_instance_live(shop, browser):
    mgr, task, video, credentials = shop
    name = f"task-{task.id}"
    assert httpx.get(mgr.dashboard_url(), trust_env=False).status_code == 401
    anonymous = browser.new_context()
    wrong = browser.new_context(http_credentials={"username": credentials["username"], "password": "wrong"})
    try:
        with pytest.raises(PlaywrightError, match="ERR_INVALID_AUTH_CREDENTIALS"):
            anonymous.new_page().goto(mgr.dashboard_url())  # Chromium refuses what nginx asked a password for
        assert wrong.new_page().goto(mgr.dashboard_url()).status == 401
    finally:
        anonymous.close()
        wrong.close()
    context = browser.new_context(http_credentials=credentials)
    try:
        page = context.new_page()
        page.goto(mgr.dashboard_url())
        card = page.locator(f'article[data-name="{name}"]')
        card.wait_for()
        assert card.locator(".task").inner_text() == f"task {task.id}: Go: show the last move (in-progress)"
        assert card.locator(".branch").inner_text() == f"task/{task.id}-go-show-the-last-move"
        assert card.locator(".state").inner_text() == "healthy"
        assert re.fullmatch(r"\d+m\d\ds", card.locator(".uptime").inner_text())  # up for minutes, not "-"
        assert card.locator(".ahead").inner_text() == "0 commit(s)"
        assert card.locator(".last-request").inner_text() == "none yet"
        assert "MiB" in card.locator(".memory").inner_text()
        assert int(card.locator(".bar").get_attribute("aria-valuemax")) == 1024**3  # against the budget
        assert "more fit at about 100.0 MiB each" in page.locator("#budget").inner_text()
        assert page.locator("#supervisor").inner_text().startswith("supervisor: pid ")
        assert "Running on http://127.0.0.1:" in card.locator("pre.log").text_content()
        src = card.locator("video").get_attribute("src")
        assert src == f"/__instances/video/{name}/0"
        served = httpx.get(mgr.base_url + src, auth=tuple(credentials.values()), trust_env=False)
        assert served.status_code == 200 and served.content == video.read_bytes()
        # live: an instance stopped elsewhere turns "stopped" without a reload
        mgr.down("feature-two")
        page.locator('article[data-name="feature-two"].stopped').wait_for(timeout=15000)
        # the review link opens the instance under its sub-path
        card.locator("a.review").click()
        page.wait_for_url(mgr.url(name))
        assert page.locator("#title").inner_text() == f"fixture {name}"
        # nothing behind a removed path: a page that links back to the dashboard
        assert page.goto(mgr.base_url + "/task-404/").status == 404
        page.click("#home")
        page.wait_for_url(mgr.dashboard_url())
    finally:
        context.close()


def test_the_dashboard_works_under_a_sub_path(shop, browser, tmp_path):
    mgr = shop[0]
    port = mgr.registry.load()["dashboard_port"]
    with private_nginx(tmp_path / "outer", {"/ops/": port}) as base_url:
        context = browser.new_context()
        try:
            page = context.new_page()
            requested = []
            page.on("request", lambda request: requested.append(request.url))
            page.goto(base_url + "/ops/")
            page.locator('article[data-name="feature-two"]').wait_for()
            assert page.locator("article.instance").count() == 2
        finally:
            context.close()
    paths = {url.removeprefix(base_url) for url in requested}
    assert {"/ops/__instances/static/dashboard.js", "/ops/__instances/static/dashboard.css",
            "/ops/__instances/overview"} <= paths
    assert all(p.startswith("/ops/") for p in paths)

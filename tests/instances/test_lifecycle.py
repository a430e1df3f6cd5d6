"""up / ls / down / restart / rm against real git worktrees, real Flask services and real nginx."""
import json
import os
import signal
from pathlib import Path

import httpx
import pytest

from instances.errors import BudgetExceeded, ChecksFailed, NotFound, StartFailed, UnsafeToRemove
from tests.instances.conftest import commit_file, git, write_toml

LS_KEYS = {"name", "task", "branch", "port", "url", "state", "pid", "uptime_seconds", "memory_bytes",
           "over_memory_limit", "ahead", "last_request", "worktree", "last_action"}


def _get(mgr, path, auth=True, **kw):
    return httpx.get(mgr.base_url + path, auth=mgr.credentials() if auth else None, trust_env=False, **kw)


@pytest.mark.nginx
def test_up_serves_the_branch_under_its_prefix_with_all_checks(mgr, app_repo):
    result = mgr.up("feature/login")
    assert result["name"] == "feature-login" and result["url"] == mgr.base_url + "/feature-login/"
    checks = {c["name"]: c["ok"] for c in result["checks"]}
    assert checks == {"redirect": True, "redirects-under-prefix": True, "page": True, "assets": True, "websocket": True,
                      "loopback-only": True}
    page = _get(mgr, "/feature-login/")
    assert "fixture feature-login" in page.text
    assert 'href="/feature-login/static/app.css"' in page.text
    assert _get(mgr, "/feature-login/go").headers["location"] == "/feature-login/"
    worktree = Path(result and mgr.worktree("feature-login"))
    assert git(worktree, "branch", "--show-current") == "feature/login"
    assert (worktree / ".env").read_text() == "FIXTURE_SECRET=from-dotenv\n"  # untracked file copied


@pytest.mark.nginx
def test_review_url_needs_the_password(mgr):
    mgr.up("feature/private", run_checks=False)
    assert _get(mgr, "/feature-private/", auth=False).status_code == 401
    assert httpx.get(mgr.base_url + "/feature-private/", auth=("review", "wrong"), trust_env=False).status_code == 401
    assert _get(mgr, "/feature-private/").status_code == 200


@pytest.mark.nginx
def test_no_service_takes_the_port_nginx_will_listen_on(mgr, monkeypatch):
    """Before the first `up` nothing is bound to nginx's port, so the kernel may offer it for a
    service (CI once saw the instance take it and nginx fail to start). Offer it first here."""
    import instances.registry
    from plumbing.ports import free_port

    offers = [mgr.listen[1]]
    monkeypatch.setattr(instances.registry, "free_port", lambda: offers.pop() if offers else free_port())
    result = mgr.up("feature/front", run_checks=False)
    assert not offers and result["port"] != mgr.listen[1]
    assert "fixture feature-front" in _get(mgr, "/feature-front/").text


def test_loopback_check_names_an_exposed_listener():
    from instances.checks import loopback_check

    bad = loopback_check(["0.0.0.0:5000", "[::]:5000"])
    assert not bad.ok and "also listens on 0.0.0.0:5000, [::]:5000: make the command bind 127.0.0.1" in bad.detail
    assert loopback_check([]).ok


@pytest.mark.nginx
def test_backend_binds_loopback_only(mgr):
    mgr.up("feature/bind", run_checks=False)
    import psutil

    from instances import procs

    pid = mgr.ls()[0]["pid"]
    addrs = {c.laddr.ip for c in psutil.Process(pid).net_connections(kind="inet") if c.status == "LISTEN"}
    assert addrs == {"127.0.0.1"}
    assert procs.exposed_listeners(psutil.Process(pid)) == []


@pytest.mark.nginx
def test_ls_json_shape_and_states(mgr):
    mgr.up("feature/a", run_checks=False)
    mgr.up("feature/b", run_checks=False)
    commit_file(mgr.worktree("feature-b"), "new.txt", "x")
    mgr.down("feature-b")
    items = {i["name"]: i for i in mgr.ls()}
    assert set(items) == {"feature-a", "feature-b"}
    for item in items.values():
        assert set(item) == LS_KEYS
    a, b = items["feature-a"], items["feature-b"]
    assert a["state"] == "healthy" and a["memory_bytes"] > 5_000_000 and a["port"] and a["uptime_seconds"] >= 0
    assert b["state"] == "stopped" and b["memory_bytes"] is None and b["port"] is None
    assert a["ahead"] == 0 and b["ahead"] == 1
    json.dumps(list(items.values()))
    # a stopped instance is no longer routed
    assert _get(mgr, "/feature-b/").status_code == 404


@pytest.mark.nginx
def test_unhealthy_and_dead_states(mgr, app_repo):
    mgr.up("feature/s", run_checks=False)
    pid = mgr.ls()[0]["pid"]
    os.kill(pid, signal.SIGSTOP)  # alive but not answering
    try:
        assert mgr.ls()[0]["state"] == "unhealthy"
    finally:
        os.kill(pid, signal.SIGCONT)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    assert mgr.ls()[0]["state"] == "dead"


@pytest.mark.nginx
def test_up_again_is_idempotent_and_down_then_up_restarts(mgr):
    first = mgr.up("feature/again", run_checks=False)
    assert mgr.up("feature/again", run_checks=False)["already_running"] is True
    mgr.down("feature-again")
    second = mgr.up("feature/again")
    assert second["already_running"] is False and all(c["ok"] for c in second["checks"])
    assert first["url"] == second["url"]


@pytest.mark.nginx
def test_restart_gives_a_new_process(mgr):
    mgr.up("feature/r", run_checks=False)
    pid = mgr.ls()[0]["pid"]
    mgr.restart("feature-r")
    item = mgr.ls()[0]
    assert item["pid"] != pid and item["state"] == "healthy"


def test_startup_failure_reports_the_log_tail_and_frees_the_port(mgr, app_repo):
    write_toml(app_repo, mgr.config.listen[1], extra_top='[env]\nFIXTURE_CRASH = "1"')
    from instances.config import load_config

    mgr.config = load_config(app_repo, environ={})
    with pytest.raises(StartFailed, match="refusing to start"):
        mgr.up("feature/crash")
    rec = mgr.registry.get("feature-crash")
    assert rec["state"] == "stopped" and rec["port"] is None


@pytest.mark.nginx
def test_checks_catch_an_app_that_ignores_the_prefix(mgr, app_repo):
    write_toml(app_repo, mgr.config.listen[1], extra_top='[env]\nFIXTURE_IGNORE_PREFIX = "1"')
    from instances.config import load_config

    mgr.config = load_config(app_repo, environ={})
    with pytest.raises(ChecksFailed, match=r"assets: /static/app.css is outside /feature-np/"):
        mgr.up("feature/np")


@pytest.mark.nginx
def test_rm_refuses_unmerged_and_uncommitted_work(mgr):
    mgr.up("feature/work", run_checks=False)
    wt = mgr.worktree("feature-work")
    (wt / "draft.txt").write_text("not committed")
    with pytest.raises(UnsafeToRemove, match=r"1 uncommitted file\(s\) \(draft.txt\)"):
        mgr.rm("feature-work")
    git(wt, "add", "draft.txt")
    git(wt, "commit", "-q", "-m", "draft")
    with pytest.raises(UnsafeToRemove, match="1 commit\\(s\\) on feature/work not merged into main"):
        mgr.rm("feature-work")
    assert wt.exists() and mgr.ls()[0]["state"] == "healthy"
    mgr.rm("feature-work", force=True)
    assert not wt.exists() and mgr.ls() == []
    assert git(mgr.root, "branch", "--list", "feature/work")  # the branch, and its commits, are kept


@pytest.mark.nginx
def test_rm_of_a_clean_merged_worktree(mgr):
    mgr.up("feature/clean", run_checks=False)
    mgr.rm("feature-clean")
    assert mgr.registry.instances() == {}
    with pytest.raises(NotFound):
        mgr.down("feature-clean")


@pytest.mark.nginx
def test_memory_budget_admission(mgr, app_repo):
    write_toml(app_repo, mgr.config.listen[1], extra_top='memory_limit = "100M"\n[limits]\nmemory_budget = "110M"')
    from instances.config import load_config

    mgr.config = load_config(app_repo, environ={})
    mgr.up("feature/one", run_checks=False)
    with pytest.raises(BudgetExceeded, match="0 more fit"):
        mgr.up("feature/two")
    assert "feature-two" not in mgr.registry.instances()


@pytest.mark.nginx
def test_existing_branch_is_checked_out(mgr, app_repo):
    git(app_repo, "branch", "feature/old")
    commit_file(app_repo, "main-only.txt", "m")
    mgr.up("feature/old", run_checks=False)
    assert not (mgr.worktree("feature-old") / "main-only.txt").exists()


@pytest.mark.nginx
def test_setup_runs_once_in_the_new_worktree_and_failures_show_its_output(mgr, app_repo):
    from instances.config import load_config

    write_toml(app_repo, mgr.config.listen[1],
               extra_top="setup = \"{python} -c 'import os; open(\\\"setup-ran\\\", \\\"w\\\").write(os.environ[\\\"INSTANCES_NAME\\\"])'\"")
    mgr.config = load_config(app_repo, environ={})
    mgr.up("feature/setup", run_checks=False)
    assert (mgr.worktree("feature-setup") / "setup-ran").read_text() == "feature-setup"
    write_toml(app_repo, mgr.config.listen[1],
               extra_top="setup = \"{python} -c 'print(\\\"cannot build\\\"); raise SystemExit(4)'\"")
    mgr.config = load_config(app_repo, environ={})
    with pytest.raises(StartFailed, match=r"(?s)exited 4.*cannot build"):
        mgr.up("feature/setup-fails")
    assert mgr.registry.get("feature-setup-fails")["port"] is None


@pytest.mark.nginx
def test_idle_instances_are_stopped_by_doctor(mgr, app_repo):
    from instances.config import load_config
    from instances.status import last_request

    write_toml(app_repo, mgr.config.listen[1], extra_top='idle_stop = "1s"')
    mgr.config = load_config(app_repo, environ={})
    mgr.up("feature/idle", run_checks=False)
    # idle since it started, with no request since: start it 5 s in the past instead of sleeping
    mgr.mark("feature-idle", started=mgr.registry.get("feature-idle")["started"] - 5)
    assert last_request(mgr, "feature-idle") is None
    actions = mgr.doctor()
    assert any("feature-idle: stopped after 1s without requests" in a for a in actions)
    assert mgr.ls()[0]["state"] == "stopped"


@pytest.mark.nginx
def test_passthrough_mode_for_an_app_with_a_base_path(mgr, app_repo):
    from instances.config import load_config

    text = (app_repo / "instances.toml").read_text().replace('health = "/health"', 'health = "{prefix}/health"')
    (app_repo / "instances.toml").write_text(text.replace("[nginx]", 'proxy = "passthrough"\n[env]\nFIXTURE_BASE_PATH = "1"\n[nginx]'))
    mgr.config = load_config(app_repo, environ={})
    result = mgr.up("feature/base")
    assert all(c["ok"] for c in result["checks"]), result["checks"]
    assert "proxy_pass http://127.0.0.1:" in mgr.nginx().live_include()
    assert 'href="/feature-base/static/app.css"' in _get(mgr, "/feature-base/").text


@pytest.mark.nginx
@pytest.mark.chromium
def test_the_rendered_page_in_chromium(mgr, browser):
    """What a reviewer sees: the page at the review URL, its script run and stylesheet applied."""
    mgr.up("feature/look", run_checks=False)
    user, password = mgr.credentials()
    context = browser.new_context(http_credentials={"username": user, "password": password})
    try:
        page = context.new_page()
        page.goto(mgr.url("feature-look"))
        assert page.text_content("#title") == "fixture feature-look"
        assert page.evaluate("window.fixtureLoaded") is True
        assert page.evaluate("getComputedStyle(document.body).color") == "rgb(17, 34, 51)"
        page.click("text=go")
        assert page.url == mgr.url("feature-look")
    finally:
        context.close()


def test_health_timeout_stops_the_service_and_shows_the_log(mgr, app_repo):
    from instances.config import load_config

    text = (app_repo / "instances.toml").read_text()
    text = text.replace('health = "/health"', 'health = "/nowhere"').replace("startup_timeout = 20", "startup_timeout = 2")
    (app_repo / "instances.toml").write_text(text)
    mgr.config = load_config(app_repo, environ={})
    with pytest.raises(StartFailed, match=r"(?s)did not answer /nowhere within 2s \(last answer: HTTP 404.*GET /nowhere HTTP/1.1"):
        mgr.up("feature/slow")
    rec = mgr.registry.get("feature-slow")
    assert rec["state"] == "stopped" and rec["process"] is None and rec["port"] is None
    assert mgr.ls()[0]["state"] == "stopped"


@pytest.mark.nginx
def test_websocket_check_fails_when_the_path_does_not_upgrade(mgr, app_repo):
    from instances.config import load_config

    text = (app_repo / "instances.toml").read_text().replace('websocket = "/ws"', 'websocket = "/health"')
    (app_repo / "instances.toml").write_text(text)
    mgr.config = load_config(app_repo, environ={})
    with pytest.raises(ChecksFailed, match=r"websocket: /feature-ws/health -> 400"):
        mgr.up("feature/ws")
    assert mgr.ls()[0]["state"] == "healthy"  # the instance stays up for a look


def test_instances_still_starting_count_against_the_budget(mgr, app_repo):
    from instances import procs
    from instances.config import load_config

    write_toml(app_repo, mgr.config.listen[1], extra_top='memory_limit = "100M"\n[limits]\nmemory_budget = "150M"')
    mgr.config = load_config(app_repo, environ={})
    me = procs.find_self()
    with mgr.registry.transaction() as data:  # another `up`, alive, halfway through starting
        data["instances"]["other"] = {"name": "other", "branch": "other", "port": 1, "state": "starting",
                                      "owner_pid": me["pid"], "owner_time": me["create_time"],
                                      "worktree": str(mgr.worktree("other"))}
    with pytest.raises(BudgetExceeded, match=r"100.0 MiB in use by 1 instance\(s\).*0 more fit"):
        mgr.up("feature/late")


def test_a_stranger_on_the_leased_port_is_not_taken_for_the_service(mgr, app_repo, monkeypatch):
    """The port is leased, then another program binds it first: the health path answers, but
    `up` must not route the stranger."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    import instances.manager

    class Stranger(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    servers = []

    def lease_then_squat(data, *args, **kwargs):
        server = ThreadingHTTPServer(("127.0.0.1", 0), Stranger)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server.server_address[1]

    monkeypatch.setattr(instances.manager, "lease_port", lease_then_squat)
    text = (app_repo / "instances.toml").read_text().replace('"{python} app.py {port}"',
                                                             "\"{python} -c 'import time; time.sleep(30)' {port}\"")
    (app_repo / "instances.toml").write_text(text)
    from instances.config import load_config

    mgr.config = load_config(app_repo, environ={})
    try:
        with pytest.raises(StartFailed, match="answers, but not from feature-squat's process"):
            mgr.up("feature/squat")
        assert mgr.registry.get("feature-squat")["state"] == "stopped"
    finally:
        for server in servers:
            server.shutdown()


@pytest.mark.nginx
def test_a_deleted_worktree_is_recreated_and_a_missing_main_is_named(mgr, app_repo):
    import shutil

    from instances.config import load_config
    from instances.errors import GitError

    mgr.up("feature/gone", run_checks=False)
    mgr.down("feature-gone")
    shutil.rmtree(mgr.worktree("feature-gone"))  # someone cleaned up by hand
    assert mgr.up("feature/gone", run_checks=False)["already_running"] is False
    assert mgr.ls()[0]["state"] == "healthy"
    write_toml(app_repo, mgr.config.listen[1], extra_top='main_branch = "trunk"')
    mgr.config = load_config(app_repo, environ={})
    with pytest.raises(GitError, match="no branch trunk .*set main_branch in instances.toml"):
        mgr.up("feature/new")


def test_missing_programs_are_named_not_tracebacks(mgr, app_repo):
    from instances.config import load_config

    text = (app_repo / "instances.toml").read_text().replace('"{python} app.py {port}"', '"no-such-server --port {port}"')
    (app_repo / "instances.toml").write_text(text)
    mgr.config = load_config(app_repo, environ={})
    with pytest.raises(StartFailed, match=r"cannot run 'no-such-server' \(No such file or directory\); fix command"):
        mgr.up("feature/nocmd")
    assert mgr.registry.get("feature-nocmd")["port"] is None


def test_a_dev_server_refusing_files_under_git_gets_the_fix_named(mgr, app_repo):
    """Vite answers 403 for every file of a worktree under <repo>/.git/instances/ (its
    server.fs.deny); the failure says so and names INSTANCES_HOME."""
    from instances.config import load_config

    text = (app_repo / "instances.toml").read_text()
    text = text.replace('health = "/health"', 'health = "/outside-git"').replace("startup_timeout = 20", "startup_timeout = 2")
    (app_repo / "instances.toml").write_text(text)
    mgr.config = load_config(app_repo, environ={})
    with pytest.raises(StartFailed, match=r"last answer: HTTP 403; the worktree is inside a \.git folder.*INSTANCES_HOME"):
        mgr.up("feature/vite-like")

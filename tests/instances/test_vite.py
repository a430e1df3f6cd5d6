"""A real Vite dev server behind `instances`: `npm ci` as its setup, served under the review
sub-path by Vite itself (passthrough), and its HMR socket, which Vite upgrades only for a client
offering the `vite-hmr` subprotocol (without it the upgrade gets no answer at all). npm installs
the Vite pinned by the fixture's package-lock.json, from the registry or npm's own cache."""
import shutil
from pathlib import Path

import pytest

from instances.config import load_config
from instances.errors import ChecksFailed
from instances.manager import Instances
from tests.instances.conftest import git, shutdown

pytestmark = [pytest.mark.nginx, pytest.mark.npm, pytest.mark.chromium]

VITE_APP = Path(__file__).parent / "fixtures" / "viteapp"


@pytest.fixture
def vite_mgr(app_repo, tmp_path):
    """The fixture repo turned into a Vite app on the same nginx port; PROTOCOLS set per test."""
    port = load_config(app_repo, environ={}).listen[1]
    for old in app_repo.iterdir():
        if old.name != ".git":
            shutil.rmtree(old) if old.is_dir() else old.unlink()
    shutil.copytree(VITE_APP, app_repo, dirs_exist_ok=True)
    (app_repo / ".gitignore").write_text("node_modules/\n")
    made = []

    def configure(protocols: str) -> Instances:
        (app_repo / "instances.toml").write_text(
            'command = "node_modules/.bin/vite --port {port} --strictPort --host 127.0.0.1"\n'
            'setup = "npm ci --no-audit --no-fund"\nhealth = "{prefix}/"\nproxy = "passthrough"\n'
            f'websocket = "/"\n{protocols}\nstartup_timeout = 60\n'
            f'[nginx]\nlisten = "127.0.0.1:{port}"\n[supervisor]\nenabled = false\n')
        git(app_repo, "add", "-A")
        git(app_repo, "commit", "-q", "-m", "vite app")
        # Vite serves no file under a .git folder (its server.fs.deny has **/.git/**), so the
        # state and worktrees go where INSTANCES_HOME would put them, not in .git/instances.
        made.append(Instances(app_repo, load_config(app_repo, environ={}), tmp_path / "instances-home"))
        return made[-1]

    yield configure
    for mgr in made:
        shutdown(mgr)


def test_vite_hmr_passes_with_its_subprotocol_and_reloads_through_nginx(vite_mgr, browser):
    mgr = vite_mgr('websocket_protocols = ["vite-hmr"]')
    result = mgr.up("feature/vite")
    checks = {c["name"]: c for c in result["checks"]}
    assert all(c["ok"] for c in checks.values()), checks
    assert checks["websocket"]["detail"] == "/feature-vite/ -> 101 (offered subprotocol vite-hmr; server chose vite-hmr)"
    # Vite's own client, its env module and main.js, all requested by the page under the sub-path
    assert checks["browser-requests"]["ok"]
    user, password = mgr.credentials()
    context = browser.new_context(http_credentials={"username": user, "password": password})
    try:
        page = context.new_page()
        page.goto(mgr.url("feature-vite"))
        page.wait_for_selector('body[data-loaded="1"]')
        # an edit in the worktree reaches the open page over the HMR socket, through nginx
        (mgr.worktree("feature-vite") / "main.js").write_text('document.body.dataset.loaded = "2";\n')
        page.wait_for_selector('body[data-loaded="2"]', timeout=20000)
    finally:
        context.close()


def test_without_the_subprotocol_the_check_names_the_setting(vite_mgr):
    mgr = vite_mgr("")
    with pytest.raises(ChecksFailed) as info:
        mgr.up("feature/plain")
    assert ("websocket: /feature-plain/ -> no answer within 5 s (no subprotocol offered); if the app needs a "
            "subprotocol (Vite: vite-hmr), set websocket_protocols in instances.toml") in str(info.value)

"""Fixtures for the instances tests: a real git repo holding the Flask fixture app, and an
Instances manager whose private nginx listens on a free port; both cleaned up after each test."""
import shutil
from pathlib import Path

import pytest

from instances import procs
from instances.config import load_config
from instances.manager import Instances
from plumbing import git as plumbing_git
from plumbing.ports import free_port

FIXTURE_APP = Path(__file__).parent / "fixtures" / "flaskapp"
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}


def git(cwd, *args) -> str:
    return plumbing_git.out(cwd, *args, env=GIT_ENV)


def commit_file(cwd, rel, text, message="change"):
    path = Path(cwd) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    git(cwd, "add", rel)
    git(cwd, "commit", "-q", "-m", message)


def write_toml(root: Path, port: int, extra_top: str = "", extra_nginx: str = "", commit=True,
               supervisor: str = "enabled = false"):
    """instances.toml for the fixture app. SUPERVISOR is the [supervisor] table's body: off
    unless a test is about it, so other tests see only what they do themselves."""
    # Chromium's check of the page's own requests is on only where a test asks for it (and is marked chromium).
    browser = "" if "browser_check" in extra_top else "browser_check = false\n"
    text = (f'command = "{{python}} app.py {{port}}"\nhealth = "/health"\nwebsocket = "/ws"\n{browser}'
            f'copy = [".env"]\nstartup_timeout = 20\n{extra_top}\n[nginx]\nlisten = "127.0.0.1:{port}"\n{extra_nginx}\n'
            f'[supervisor]\n{supervisor}\n')
    (root / "instances.toml").write_text(text)
    if commit:
        git(root, "add", "instances.toml")
        git(root, "commit", "-q", "-m", "instances.toml")


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch):
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("INSTANCES_HOME", raising=False)
    monkeypatch.delenv("INSTANCES_LISTEN", raising=False)
    monkeypatch.delenv("INSTANCES_PASSWORD", raising=False)


@pytest.fixture
def app_repo(tmp_path) -> Path:
    """A git repo (branch main) with the fixture app, a .gitignored .env and an instances.toml."""
    root = tmp_path / "app"
    shutil.copytree(FIXTURE_APP, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / ".gitignore").write_text(".env\n__pycache__/\n")
    (root / ".env").write_text("FIXTURE_SECRET=from-dotenv\n")
    git(root, "init", "-q", "-b", "main")
    write_toml(root, free_port(), commit=False)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "fixture app")
    return root


def supervisors_of(mgr: Instances) -> list:
    """Live supervisor processes for MGR's state directory, found by their command line."""
    import psutil

    found = []
    for proc in psutil.process_iter(["cmdline"]):
        cmdline = proc.info["cmdline"] or []
        if "supervise" in cmdline and str(mgr.state) in cmdline:
            found.append(proc)
    return found


def shutdown(mgr: Instances):
    for rec in mgr.registry.instances().values():
        procs.stop(rec.get("process"), timeout=2)
    mgr.stop_nginx()
    left = supervisors_of(mgr)
    for proc in left:  # a supervisor outliving `nginx stop` is a bug: end it, then say so
        proc.kill()
    assert not left, f"supervisor(s) {[p.pid for p in left]} still ran after stop_nginx"


@pytest.fixture
def make_mgr():
    made = []

    def make(root: Path) -> Instances:
        mgr = Instances(root, load_config(root, environ={}), root / ".git" / "instances")
        made.append(mgr)
        return mgr

    yield make
    for mgr in made:
        shutdown(mgr)


@pytest.fixture
def mgr(app_repo, make_mgr) -> Instances:
    return make_mgr(app_repo)

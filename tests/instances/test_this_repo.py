"""This repository's own instances.toml: a review instance of the arcade, from a clone of HEAD."""
import pytest
import subprocess
from pathlib import Path

from instances.config import load_config
from plumbing.ports import free_port

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.nginx
@pytest.mark.chromium  # the browser check loads the arcade in Chromium: its scripts' requests stay under /task-1/
def test_the_arcade_comes_up_under_its_prefix(tmp_path, make_mgr, monkeypatch):
    clone = tmp_path / "soloshop"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    # HEAD is the clone's main branch (a worktree of this repository may be on another branch)
    subprocess.run(["git", "checkout", "-q", "-B", "main"], cwd=clone, check=True)
    monkeypatch.setenv("INSTANCES_LISTEN", f"127.0.0.1:{free_port()}")  # not the real 8080
    mgr = make_mgr(clone)
    mgr.config = load_config(clone)
    result = mgr.up("task/1-review-the-arcade")
    assert {c["name"]: c["ok"] for c in result["checks"]} == {
        "redirect": True, "redirects-under-prefix": True, "page": True, "assets": True, "browser-requests": True,
        "loopback-only": True}
    assert result["name"] == "task-1" and mgr.ls()[0]["state"] == "healthy"
    mgr.rm("task-1")
    assert not mgr.worktree("task-1").exists()

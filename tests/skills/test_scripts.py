"""The skills' own scripts: review-gate's look.py (against a real page in Chromium) and the
pure part of its sub-path check."""
import importlib.util
import subprocess
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from skills import catalog

LOOK = catalog.get("review-gate").path / "scripts" / "look.py"


def _look_module():
    spec = importlib.util.spec_from_file_location("look", LOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_outside_names_only_same_host_urls_that_leave_the_prefix():
    outside = _look_module().outside
    base = "http://127.0.0.1:8080/task-7/"
    assert outside(base, ["static/a.css", "/task-7/go", "/static/b.css", "/task-70/x", "/",
                          "http://other.invalid/x", "mailto:a@b", "#top", "../up"]) == \
        ["../up", "/", "/static/b.css", "/task-70/x"]


@pytest.mark.chromium
def test_look_flags_a_page_that_escapes_its_sub_path_and_logs_errors(tmp_path):
    site = tmp_path / "site" / "task-7"
    site.mkdir(parents=True)
    (site / "index.html").write_text(
        '<!doctype html><link rel="stylesheet" href="/static/app.css">'
        '<a href="go.html">go</a><script>console.error("boom")</script><h1>hi</h1>')
    (site / "go.html").write_text("<!doctype html><p>the go page</p>")
    handler = partial(SimpleHTTPRequestHandler, directory=str(tmp_path / "site"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/task-7/"
        proc = subprocess.run([sys.executable, str(LOOK), url, "--path", "go.html", "--out",
                               str(tmp_path / "shots")], capture_output=True, text=True,
                              timeout=120, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                                                "REVIEW_CREDENTIALS": "u:p"})
    finally:
        server.shutdown()
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "leaves the sub-path: /static/app.css" in proc.stdout
    assert "console: boom" in proc.stdout
    assert "failed request: 404" in proc.stdout and "/static/app.css" in proc.stdout
    assert sorted(p.name for p in (tmp_path / "shots").iterdir()) == ["00-index.png", "01-go.html.png"]


def test_suspects_reads_pm_export_and_proposes(tmp_path):
    import json
    script = catalog.get("update-active-sprint").path / "scripts" / "suspects.py"
    tasks = [
        {"id": 1, "title": "A", "status": "open", "sprint": 1, "updated": "2026-12-01T00:00:00Z",
         "verification": "<p> </p>", "links": [], "log": [
             {"time": "2026-12-01T00:00:00Z", "who": "worker/x", "html": "Works as intended."}]},
        {"id": 2, "title": "B", "status": "in-progress", "sprint": None, "owner": "worker/y",
         "updated": "2026-11-01T00:00:00Z", "verification": "<p>v</p>", "links": [], "log": []},
    ]
    proc = subprocess.run([sys.executable, str(script), "--now", "2026-12-02T00:00:00Z",
                           "--json"], input="\n".join(json.dumps(t) for t in tasks),
                          capture_output=True, text=True, check=True)
    found = {(s["id"], s["suspect"]) for s in json.loads(proc.stdout)}
    assert found == {(1, "premise disproved"), (1, "no verification plan"), (2, "stale")}

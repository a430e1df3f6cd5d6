"""`pm serve` end to end: the real CLI in a subprocess, waitress on 127.0.0.1, a real request."""
import os
import re
import subprocess
import sys
import urllib.request

from pm.api import Actor, Tracker


def test_pm_serve_binds_loopback_and_answers(tmp_path):
    root = tmp_path / "tracker"
    Tracker.init(str(root), actor=Actor("worker", "web-tests")).new("Served through the CLI")
    env = dict(os.environ, PM_DIR=str(root), PM_ROLE="worker", PM_SESSION="web-tests")
    process = subprocess.Popen([sys.executable, "-m", "pm.cli", "serve", "--port", "0"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"http://(127\.0\.0\.1):(\d+)/", line)
        assert match, line + process.stderr.read() if process.poll() is not None else line
        with urllib.request.urlopen(match.group(0), timeout=20) as response:
            body = response.read().decode()
            assert response.status == 200
            assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
        assert "Served through the CLI" in body
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_server_thread_serves_then_stops_and_frees_the_port(tracker):
    import socket

    from pm.web import create_app
    from pm.web.serve import ServerThread

    server = ServerThread(create_app(tracker)).start()
    port = server.port
    with urllib.request.urlopen(server.url + "/board", timeout=20) as response:
        assert response.status == 200
    server.stop()
    assert not server._thread.is_alive()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0

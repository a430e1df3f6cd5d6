"""`engines serve --port N`: the real command serves the arcade on 127.0.0.1."""
import socket
import subprocess
import sys
from pathlib import Path

import httpx

from plumbing.ports import free_port, wait_for_port

ENGINES = Path(sys.executable).with_name("engines")


def test_engines_serve_binds_loopback_and_serves_the_pages():
    port = free_port()
    process = subprocess.Popen([str(ENGINES), "serve", "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for_port(port, process=process, timeout=60)  # a hang guard; fails early on exit
        health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=30)
        assert health.json()["status"] == "ok"
        assert httpx.get(f"http://127.0.0.1:{port}/go").status_code == 200
        assert httpx.get(f"http://127.0.0.1:{port}/api/openapi.json").json()["openapi"] == "3.1.0"
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=10)
    assert f"http://127.0.0.1:{port}/" in output


def test_a_port_in_use_is_a_clear_error():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run([str(ENGINES), "serve", "--port", str(port)],
                                capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr and "--port" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1

"""`engines serve --port N`: the real command serves the arcade on 127.0.0.1."""
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.engines.web.servers import free_port

ENGINES = Path(sys.executable).with_name("engines")


def test_engines_serve_binds_loopback_and_serves_the_pages():
    port = free_port()
    process = subprocess.Popen([str(ENGINES), "serve", "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert process.poll() is None, process.stdout.read()
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "engines serve did not answer in 20 s"
                time.sleep(0.1)
        assert health.json()["status"] == "ok"
        assert httpx.get(f"http://127.0.0.1:{port}/go").status_code == 200
        assert httpx.get(f"http://127.0.0.1:{port}/api/openapi.json").json()["openapi"] == "3.1.0"
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=10)
    assert f"http://127.0.0.1:{port}/" in output


def test_a_port_in_use_is_a_clear_error():
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run([str(ENGINES), "serve", "--port", str(port)],
                                capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr and "--port" in result.stderr
    assert "Traceback" not in result.stderr

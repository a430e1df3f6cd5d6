"""plumbing.git and plumbing.ports against real git and real listening sockets."""
import socket
import subprocess
import sys

import pytest

from plumbing import git, ports


def test_git_runs_in_a_directory_and_names_failures(tmp_path):
    git.run(tmp_path, "init", "-q", "-b", "main")
    assert git.out(tmp_path, "symbolic-ref", "--short", "HEAD") == "main"
    with pytest.raises(git.GitError) as err:
        git.run(tmp_path, "rev-parse", "--verify", "no-such-ref")
    assert f"git rev-parse --verify no-such-ref failed in {tmp_path}" in str(err.value)
    assert "Needed a single revision" in str(err.value)  # git's own words
    assert git.run(tmp_path, "rev-parse", "--verify", "nope", check=False).returncode != 0


def test_git_env_adds_to_the_environment(tmp_path):
    git.run(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "f").write_text("x")
    git.run(tmp_path, "add", "f")
    env = {"GIT_AUTHOR_NAME": "eng-1", "GIT_AUTHOR_EMAIL": "e@x", "GIT_COMMITTER_NAME": "eng-1",
           "GIT_COMMITTER_EMAIL": "e@x"}
    git.run(tmp_path, "commit", "-q", "-F", "-", input="first\n", env=env)
    assert git.out(tmp_path, "log", "--format=%an %s") == "eng-1 first"


def test_free_port_is_bindable_and_port_is_free_sees_a_bound_one():
    port = ports.free_port()
    assert ports.port_is_free(port)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))
        sock.listen()
        assert not ports.port_is_free(port)
        assert ports.is_listening(port)
    assert not ports.is_listening(port)


def test_wait_for_port_waits_for_a_real_server_and_fails_fast_when_it_exits():
    port = ports.free_port()
    server = subprocess.Popen([sys.executable, "-c",
                               f"import time, http.server as h; time.sleep(0.3); "
                               f"h.HTTPServer(('127.0.0.1', {port}), h.BaseHTTPRequestHandler).serve_forever()"])
    try:
        assert ports.wait_for_port(port, timeout=10, process=server) >= 0.2
    finally:
        server.kill()
        server.wait()
    crashed = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    with pytest.raises(ports.PortTimeout, match="exited with code 3"):
        ports.wait_for_port(ports.free_port(), timeout=10, process=crashed)
    with pytest.raises(ports.PortTimeout, match=r"nothing listened on 127\.0\.0\.1:\d+ within 0\.2s"):
        ports.wait_for_port(ports.free_port(), timeout=0.2)

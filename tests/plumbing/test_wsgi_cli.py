"""plumbing.wsgi serves and stops cleanly; plumbing.cli maps named errors and loads lazily."""
import shlex
import socket
import subprocess
import sys
import threading

import click
import httpx
import pytest
from click.testing import CliRunner

from plumbing import chromium, ports
from plumbing.cli import ToolGroup
from plumbing.errors import NamedError
from plumbing.wsgi import CannotListen, ServerThread


def hello(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"hello " + environ["PATH_INFO"].encode()]


def test_server_thread_serves_then_frees_its_port_and_thread():
    before = threading.active_count()
    with ServerThread(hello, ident="t") as server:
        assert httpx.get(server.url + "/x").text == "hello /x"
        port = server.port
    assert not ports.is_listening(port)
    assert ports.port_is_free(port)
    assert threading.active_count() == before


def test_a_server_never_started_still_releases_its_port():
    server = ServerThread(hello)
    port = server.port
    server.stop()
    assert ports.port_is_free(port)


def test_a_taken_port_is_a_named_error():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        taken = sock.getsockname()[1]
        with pytest.raises(CannotListen, match=f"cannot listen on 127.0.0.1:{taken}"):
            ServerThread(hello, port=taken)


class Broken(NamedError):
    """For the test."""


def _group():
    @click.group(cls=ToolGroup, lazy={"later": "tests.plumbing.lazy_command:later"})
    def tool():
        """A tool."""

    @tool.command()
    def fail():
        raise Broken("task 7 not found (pm ls lists the tasks)")

    return tool


def test_named_errors_are_one_line_and_exit_1():
    result = CliRunner().invoke(_group(), ["fail"])
    assert result.exit_code == 1
    assert result.output == "Error: task 7 not found (pm ls lists the tasks)\n"
    assert CliRunner().invoke(_group(), ["nope"]).exit_code == 2  # usage errors stay click's


def test_lazy_commands_are_imported_only_when_run_or_helped():
    sys.modules.pop("tests.plumbing.lazy_command", None)
    assert CliRunner().invoke(_group(), ["fail"]).exit_code == 1
    assert "tests.plumbing.lazy_command" not in sys.modules  # another command never loads it
    help_text = CliRunner().invoke(_group(), ["--help"]).output
    assert "fail" in help_text and "later" in help_text


def test_a_lazy_command_runs_with_its_options():
    result = CliRunner().invoke(_group(), ["later", "--times", "2"])
    assert result.exit_code == 0 and result.output == "later\nlater\n"
    assert "tests.plumbing.lazy_command" in sys.modules


def test_a_closed_pipe_is_a_quiet_exit():
    code = ("import click\nfrom plumbing.cli import ToolGroup\n"
            "@click.group(cls=ToolGroup)\ndef t(): pass\n"
            "@t.command()\ndef spew():\n    for i in range(200000): click.echo(i)\n"
            "t(['spew'])\n")
    proc = subprocess.run(f"{shlex.quote(sys.executable)} -c {shlex.quote(code)} | head -1", shell=True,
                          capture_output=True, text=True)
    assert proc.stdout == "0\n" and proc.stderr == ""


def test_chromium_honours_the_environment_and_names_the_fix(monkeypatch, tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("CHROMIUM", str(fake))
    assert chromium.executable() == str(fake)
    monkeypatch.setenv("CHROMIUM", str(tmp_path / "missing"))
    monkeypatch.setattr(chromium, "CANDIDATES", ())
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(chromium.ChromiumMissing, match="apt-get install chromium"):
        chromium.executable()

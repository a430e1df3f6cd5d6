"""A GTP (or GTP-shaped) engine in a subprocess, with a deadline on every answer: what the
match runner, the Go referee and the tools use to talk to an engine."""
from __future__ import annotations

import os
import select
import shlex
import signal
import subprocess
import time


class GtpClientError(Exception):
    """An engine subprocess answered with an error, timed out or died.

    ``kind`` says which, for a match to record why a game was forfeited: 'refused' (a ``?``
    answer), 'timeout' (no answer within the deadline), 'crash' (the engine exited or closed
    its output), 'garbage' (an answer that is not GTP), 'cancelled' (the caller gave up)."""

    kind = "refused"

    def __init__(self, message: str, kind: str | None = None):
        super().__init__(message)
        if kind:
            self.kind = kind


POLL = 0.25  # seconds between checks of ``cancelled`` while waiting for an answer


class GtpClient:
    """A GTP engine in a subprocess: send a command, get the response text or an error.

    Every read has a deadline (``timeout``, or the one given to ``command``). With
    ``own_session`` the engine runs in a session of its own, so a Ctrl-C meant for the
    controller does not kill it mid-game; ``close`` then kills its whole process group.
    ``cancelled`` (a callable) is polled while waiting: when it returns true the wait ends
    with a 'cancelled' error."""

    def __init__(self, argv: list[str] | str, name: str = "", stderr=subprocess.DEVNULL,
                 timeout: float = 120.0, own_session: bool = False, cancelled=None):
        self.argv = shlex.split(argv) if isinstance(argv, str) else list(argv)
        self.name = name or os.path.basename(self.argv[0])
        self.timeout = timeout
        self.cancelled = cancelled
        self._buffer = b""
        self._out_of_sync = False
        self._own_session = own_session
        self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=stderr, bufsize=0, start_new_session=own_session)

    @property
    def pid(self) -> int:
        return self._proc.pid

    def command(self, line: str, timeout: float | None = None) -> str:
        """Send one command; return the response text, or raise GtpClientError on ``?``."""
        self.write_lines([line])
        lines = self._read_response(line, timeout or self.timeout)
        first = lines[0]
        rest = first[1:].lstrip("0123456789")
        text = "\n".join([rest.strip(), *lines[1:]]).strip()
        if first.startswith("?"):
            raise GtpClientError(f"{self.name} refused '{line}': {text}", "refused")
        if not first.startswith("="):
            self._out_of_sync = True  # where its next answer starts is anybody's guess
            raise GtpClientError(f"{self.name} sent a malformed response to '{line}': {first!r}",
                                 "garbage")
        return text

    def write_lines(self, lines: list[str]) -> None:
        """Send LINES to an engine that is running and in step; else GtpClientError."""
        if self._proc.poll() is not None:
            raise GtpClientError(f"{self.name} has exited (code {self._proc.returncode})",
                                 "crash")
        if self._out_of_sync:
            raise GtpClientError(f"{self.name} timed out earlier; its answers are out of step",
                                 "timeout")
        try:
            self._proc.stdin.write("".join(line + "\n" for line in lines).encode())
            self._proc.stdin.flush()
        except BrokenPipeError:
            raise GtpClientError(f"{self.name} has exited while sending '{lines[0]}'",
                                 "crash") from None

    def _read_response(self, line: str, timeout: float) -> list[str]:
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        while True:
            text = self.read_line(line, timeout, deadline)
            if text.strip() == "":
                if lines:
                    return lines
                continue  # stray blank lines before a response
            lines.append(text)

    def read_line(self, line: str, timeout: float, deadline: float) -> str:
        """The engine's next output line (no newline) by DEADLINE, answering command LINE."""
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                raw, self._buffer = self._buffer[:newline], self._buffer[newline + 1:]
                return raw.decode("utf-8", "replace").replace("\r", "")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._out_of_sync = True  # a late answer would be taken for the next one's
                raise GtpClientError(f"{self.name} did not answer '{line}' within {timeout:g} s",
                                     "timeout")
            if self.cancelled is not None:
                if self.cancelled():
                    self._out_of_sync = True
                    raise GtpClientError(f"{self.name}: waiting for '{line}' was cancelled",
                                         "cancelled")
                remaining = min(remaining, POLL)
            ready, _, _ = select.select([self._proc.stdout], [], [], remaining)
            if ready:
                chunk = os.read(self._proc.stdout.fileno(), 65536)
                if not chunk:
                    self._proc.poll()
                    code = self._proc.returncode
                    raise GtpClientError(
                        f"{self.name} closed its output while answering '{line}'"
                        + (f" (exit code {code})" if code is not None else ""), "crash")
                self._buffer += chunk

    def _quit(self) -> None:
        """The protocol's goodbye (GTP: `quit`, answered)."""
        self.command("quit", timeout=5)

    def close(self) -> None:
        """Ask the engine to quit, then make sure it is gone."""
        if self._proc.poll() is None and not self._out_of_sync:
            try:
                self._quit()
            except GtpClientError:
                pass
        if self._out_of_sync and self._proc.poll() is None:
            self._kill()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._kill()
            self._proc.wait()
        if self._own_session:  # whatever it started in its group goes too
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for stream in (self._proc.stdin, self._proc.stdout):
            if stream:
                try:
                    stream.close()
                except BrokenPipeError:
                    pass

    def _kill(self) -> None:
        try:
            if self._own_session:
                os.killpg(self._proc.pid, signal.SIGKILL)
            else:
                self._proc.kill()
        except (ProcessLookupError, PermissionError):
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

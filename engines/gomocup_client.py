"""A Gomocup (Piskvork) brain in a subprocess, with a deadline on every answer: what the Gomoku
match adapter uses to talk to a brain.

It is GtpClient's process handling (own session, deadlines, cancel polling, kill on close) with
the brain protocol's framing: an answer is one line; `MESSAGE`, `DEBUG` and `SUGGEST` lines
before it are kept aside, not taken for the answer; `ERROR` and `UNKNOWN` are refusals; INFO
has no answer; END is the goodbye and gets none.
"""
from __future__ import annotations

import time

from engines.gtp_client import GtpClient, GtpClientError

ASIDE = ("MESSAGE", "DEBUG", "SUGGEST")


class GomocupClient(GtpClient):
    """A brain: `send` lines that have no answer, `ask` for the one answer line."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.messages: list[str] = []   # MESSAGE/DEBUG lines, the latest last (at most 50)

    def send(self, *lines: str) -> None:
        """Write LINES; a brain that has exited is a 'crash' GtpClientError."""
        self.write_lines(list(lines))

    def ask(self, *lines: str, timeout: float | None = None) -> str:
        """Send LINES, return the answer line (stripped); ERROR or UNKNOWN is 'refused'."""
        self.send(*lines)
        timeout = timeout or self.timeout
        deadline = time.monotonic() + timeout
        while True:
            text = self.read_line(lines[0], timeout, deadline).strip()
            if not text:
                continue
            word = text.split(" ", 1)[0].upper()
            if word in ASIDE:
                self.messages = (self.messages + [text])[-50:]
                continue
            if word in ("ERROR", "UNKNOWN"):
                raise GtpClientError(f"{self.name} refused '{lines[0]}': {text}", "refused")
            return text

    def _quit(self) -> None:
        self.send("END")     # no answer; close() then waits for the exit

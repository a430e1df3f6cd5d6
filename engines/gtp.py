"""GTP's line protocol, pure and shared by every engine that speaks it or a GTP-shaped
dialect (Go's `engines gtp go`; Quoridor's protocol is GTP-shaped): one input line becomes a
``Command`` (or None for an empty or comment line), a reply is ``=id text`` or ``?id text``
ending in a blank line. The client side is `engines.gtp_client`.
"""
from __future__ import annotations

from dataclasses import dataclass


class GtpError(Exception):
    """A command failed; the message is sent back as ``? message``."""


@dataclass(frozen=True)
class Command:
    id: int | None
    name: str
    args: tuple[str, ...] = ()


def clean_line(line: str) -> str:
    """Apply GTP's preprocessing: drop control characters and comments, tabs become spaces."""
    line = line.split("#", 1)[0]
    out = []
    for ch in line:
        if ch == "\t":
            out.append(" ")
        elif ord(ch) < 32 or ord(ch) == 127:
            continue
        else:
            out.append(ch)
    return "".join(out).strip()


def parse_command(line: str) -> Command | None:
    """One input line as a Command; None when the line holds nothing (empty or a comment)."""
    tokens = clean_line(line).split()
    if not tokens:
        return None
    cid = None
    if tokens[0].isascii() and tokens[0].isdigit():   # str.isdigit() also accepts '¹', '٣'...
        cid = int(tokens.pop(0))
        if not tokens:
            return Command(cid, "")
    return Command(cid, tokens[0], tuple(tokens[1:]))


def format_response(cid: int | None, ok: bool, text: str = "") -> str:
    """``=id text`` or ``?id text`` followed by one empty line; inner empty lines are padded so
    they cannot end the response early."""
    head = ("=" if ok else "?") + ("" if cid is None else str(cid))
    lines = [ln.rstrip() or " " for ln in text.strip("\n").split("\n")] if text.strip() else []
    body = " " + "\n".join(lines) if lines else ""
    return f"{head}{body}\n\n"

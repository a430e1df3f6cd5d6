"""What a skill or the manual names: shell command blocks, tool invocations, links.

Command blocks are fenced blocks marked bash, sh or shell; every simple command in them is a
candidate (split at | || && ; & and around $( ... )). Inline code spans count when they start
with one of our tools' names (`pm claim --next`)."""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

SHELL_INFO = {"bash", "sh", "shell"}
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
_INLINE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SEPARATORS = {"|", "||", "&&", ";", "&", "(", ")", ";;", "|&"}


@dataclass(frozen=True)
class Block:
    """A fenced shell block: its first content line's number and its text."""
    line: int
    text: str


@dataclass(frozen=True)
class Mention:
    """One simple command (argv) named in a file, with the line it is on."""
    line: int
    argv: tuple
    source: str       # "block" or "inline"


def blocks(text: str, info: set = SHELL_INFO) -> list[Block]:
    """The fenced blocks whose info string is in INFO, in order."""
    found, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.group(2), m.group(3).lower()
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence[0] * len(fence)):
            j += 1
        if lang in info:
            found.append(Block(i + 2, "\n".join(lines[i + 1:j]) + "\n"))
        i = j + 1
    return found


def _outside_fences(text: str) -> list[tuple[int, str]]:
    out, fence = [], None
    for number, line in enumerate(text.splitlines(), 1):
        if fence:
            if line.strip().startswith(fence):
                fence = None
            continue
        m = _FENCE.match(line)
        if m:
            fence = m.group(2)
            continue
        out.append((number, line))
    return out


def simple_commands(script: str) -> list[tuple[int, list[str]]]:
    """[(line offset from 0, argv)] of every simple command in a shell SCRIPT (one that only
    uses words, quotes, $( ), pipes and lists: what skills write)."""
    found, offset, pending, start = [], 0, "", 0
    for offset, raw in enumerate(script.splitlines()):
        if not pending:
            start = offset
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        line, pending = pending + raw, ""
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        lexer.commenters = "#"
        try:
            tokens = list(lexer)
        except ValueError:          # an unbalanced quote: nothing a tool could parse
            continue
        current: list[str] = []
        for token in tokens + [";"]:
            if token in _SEPARATORS or set(token) <= set("|&;()<>"):
                while current and _ASSIGN.match(current[0]):
                    current.pop(0)
                if current:
                    found.append((start, current))
                current = []
            else:
                current.append(token[:-1] if token.endswith("$") and len(token) > 1 else token)
    return found


def mentions(text: str, tools: set) -> list[Mention]:
    """Every invocation of one of TOOLS in TEXT: in shell blocks and in inline code spans."""
    found = []
    for block in blocks(text):
        for offset, argv in simple_commands(block.text):
            if argv[0] in tools:
                found.append(Mention(block.line + offset, tuple(argv), "block"))
    for number, line in _outside_fences(text):
        for span in _INLINE.findall(line):
            for _offset, argv in simple_commands(span):
                if argv and argv[0] in tools:
                    found.append(Mention(number, tuple(argv), "inline"))
    return found


def links(text: str) -> list[tuple[int, str]]:
    """[(line, target)] of every relative Markdown link (no URL scheme, no bare #anchor)."""
    found = []
    for number, line in _outside_fences(text):
        for target in _LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            found.append((number, target.split("#")[0]))
    return found

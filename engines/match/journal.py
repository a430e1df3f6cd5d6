"""The match journal, OUT/journal.jsonl: what a match was played under, and every game so far.

Line 1: {"type": "match", "game": ..., "options": {...}, "started": ...} — the options the
games depend on (the adapter's settings, the seed, the openings, the SPRT bounds). Every
further line: {"type": "game", ...} — one finished game (`GameResult` fields plus the record
in the game's own format), appended as the game ends in one write, flushed and fsynced
(`plumbing.files.append_line`).

Resume: a match run again with the same --out reads the journal, refuses when an option
differs (naming it), cuts off a torn last line (a kill mid-write), and the runner plays only
the game indices that have no line yet.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from plumbing.errors import NamedError
from plumbing.files import append_line, read_lines

JOURNAL = "journal.jsonl"


class JournalError(NamedError):
    """A journal that cannot be resumed or read (other options, not a journal)."""


class Journal:
    def __init__(self, out: Path):
        self.path = Path(out) / JOURNAL

    def open(self, game: str, options: dict) -> list[dict]:
        """Start the journal, or resume it: the games already played (journal order)."""
        options = json.loads(json.dumps(options))  # as it reads back (tuples become lists)
        if not self.path.exists() or self.path.stat().st_size == 0:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            append_line(self.path, json.dumps({"type": "match", "game": game, "options": options,
                                               "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}))
            return []
        lines = read_lines(self.path, repair=True)
        head = _head(lines)
        if head is None:
            if not lines:  # only a torn first line: start afresh
                self.path.unlink()
                return self.open(game, options)
            raise JournalError(f"{self.path}:1 is not a match journal's first line; "
                               "use another --out")
        if head.get("game") != game:
            raise JournalError(f"{self.path} is the journal of a {head.get('game')} match, "
                               f"not {game}; use another --out")
        differ = differences(head.get("options", {}), options)
        if differ:
            raise JournalError(
                f"{self.path} was played with other options, so the match cannot resume: "
                + "; ".join(differ) + ". Run with the same options, or use another --out")
        return self._games(lines)

    def games(self, game: str) -> list[dict]:
        """The games a journal of a GAME match holds (journal order), read only: for tools
        that look at a match another process played or plays."""
        lines = self._read(game)
        head = _head(lines)
        if head is None or head.get("game") != game:
            raise JournalError(f"{self.path} is not the journal of a {game.capitalize()} match")
        return self._games(lines)

    def head(self) -> dict:
        """The journal's first line (the game and the options it was played under), read only."""
        head = _head(self._read()[:1])
        if head is None:
            raise JournalError(f"{self.path}:1 is not a match journal's first line")
        return head

    def _read(self, game: str = "") -> list[str]:
        """The journal's lines, or a JournalError naming the folder that holds none."""
        if not self.path.exists():
            raise JournalError(f"{self.path.parent} holds no {JOURNAL}: give the --out "
                               f"directory of an `engines match{' ' + game if game else ''}` run")
        return read_lines(self.path)

    def _games(self, lines: list[str]) -> list[dict]:
        """The game lines after the first, each index once (a resumed match may repeat one)."""
        games, seen = [], set()
        for number, line in enumerate(lines[1:], start=2):
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                raise JournalError(f"{self.path}:{number}: not a JSON line") from None
            if entry.get("type") == "game" and entry["index"] not in seen:
                seen.add(entry["index"])
                games.append(entry)
        return games

    def append(self, entry: dict) -> None:
        append_line(self.path, json.dumps({"type": "game", **entry}))


def _head(lines: list[str]) -> dict | None:
    """The journal's first line, or None when it is not a match's."""
    try:
        head = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        return None
    return head if isinstance(head, dict) and head.get("type") == "match" else None


def differences(old: dict, new: dict) -> list[str]:
    """'--size: 9 in the journal, 7 now' for each option that differs."""
    out = []
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            out.append(f"--{key.replace('_', '-')}: {old.get(key)!r} in the journal, "
                       f"{new.get(key)!r} now")
    return out

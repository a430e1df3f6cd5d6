"""Quoridor game records and opening lines in the project's notation (rules.py): the text a
match saves for every game and the arcade can download and upload.

A record is tag lines, a blank line, then the moves numbered in pairs (player one's move, then
player two's)::

    [Game "Quoridor"]
    [Size "9"]
    [Walls "10"]
    [White "soloshop-quoridor 0.2"]
    [Black "reference-ai"]
    [Result "white"]
    [Comment "white reached row 9"]

    1. e2 e8 2. e3 e7h 3. ...

White is player one (starts on e1, moves first), as in the protocol; Result is ``white``,
``black``, ``draw`` or ``*`` (unfinished). Values are quoted with ``\\"`` and ``\\\\`` escapes.

An opening file has one opening a line: moves separated by spaces (``e2 e8 c3h``); ``#``
starts a comment; blank lines are skipped. `parse_openings` checks every line against the
rules and names the file and line of a bad one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from engines.quoridor import rules

RESULTS = ("white", "black", "draw", "*")
_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')


class RecordError(ValueError):
    """Text that is no Quoridor record (or opening line): the message says where and why."""


@dataclass
class Record:
    size: int = 9
    walls: int | None = None  # each player's at the start; None: the size's default
    moves: list[str] = field(default_factory=list)
    white: str = ""
    black: str = ""
    result: str = "*"
    tags: dict[str, str] = field(default_factory=dict)  # any others (Comment, Opening, ...)


def _quote(value: str) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def dumps(record: Record) -> str:
    """The record as text (see the module docstring)."""
    walls = rules.default_walls(record.size) if record.walls is None else record.walls
    tags = {"Game": "Quoridor", "Size": str(record.size), "Walls": str(walls),
            "White": record.white, "Black": record.black, "Result": record.result,
            **record.tags}
    head = "\n".join(f"[{key} {_quote(value)}]" for key, value in tags.items())
    pairs = [f"{i // 2 + 1}. " + " ".join(record.moves[i:i + 2])
             for i in range(0, len(record.moves), 2)]
    return head + "\n\n" + _wrap(pairs) + "\n"


def _wrap(words: list[str], width: int = 90) -> str:
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [line] if line else lines)


def loads(text: str) -> Record:
    """Parse a record; every move is checked against the rules (RecordError names it)."""
    record, body, tags = Record(), [], {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if line.startswith("["):
            match = _TAG.match(line)
            if not match:
                raise RecordError(f"line {number}: {line!r} is no tag like [Size \"9\"]")
            tags[match[1]] = re.sub(r"\\(.)", r"\1", match[2])
        elif line:
            body.append((number, line))
    try:
        record.size = int(tags.pop("Size", "9"))
        record.walls = int(tags["Walls"]) if "Walls" in tags else None
    except ValueError:
        raise RecordError("the Size and Walls tags must be integers") from None
    tags.pop("Walls", None)
    tags.pop("Game", None)
    record.white, record.black = tags.pop("White", ""), tags.pop("Black", "")
    record.result = tags.pop("Result", "*")
    if record.result not in RESULTS:
        raise RecordError(f"Result {record.result!r}: one of {', '.join(RESULTS)}")
    record.tags = tags
    game = _new_game(record.size, record.walls)
    for number, line in body:
        for token in line.split():
            if re.fullmatch(r"\d+\.", token):
                continue
            record.moves.append(_play(game, token, f"line {number}"))
    return record


def _new_game(size: int, walls: int | None) -> rules.Game:
    try:
        return rules.Game(size, walls)
    except rules.IllegalMove as error:
        raise RecordError(str(error)) from None


def _play(game: rules.Game, token: str, where: str) -> str:
    """Play TOKEN on GAME; its canonical name, or a RecordError saying WHERE."""
    try:
        move = rules.parse_move(token)
        game.play(move)
    except rules.IllegalMove as error:
        raise RecordError(f"{where}: move {len(game.history) + 1} {token!r}: {error}") from None
    return rules.move_name(move)


def parse_openings(text: str, size: int, walls: int | None = None,
                   source: str = "openings") -> list[list[str]]:
    """The openings of an opening file's TEXT (one a line), each checked by the rules on a
    SIZE board; a RecordError names SOURCE and the line of a bad one."""
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        game = _new_game(size, walls)
        moves = [_play(game, token, f"{source}, line {number}") for token in line.split()]
        if game.winner is not None:
            raise RecordError(f"{source}, line {number}: the opening ends the game")
        openings.append(moves)
    if not openings:
        raise RecordError(f"{source}: no opening in it (one opening a line, moves like e2 e8 "
                          "c3h)")
    return openings

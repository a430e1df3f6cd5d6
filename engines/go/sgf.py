"""SGF FF[4] save and load for Go game records: pure functions, no board logic.

Only what a Go game record needs is kept: the root properties (SZ, KM, RU, PB, PW, RE, GC,
AB/AW setup) and the main line of B/W moves. Variations are read past (the first child is the
main line). SGF points are two letters from the top-left ("aa"), which matches our ``(x, y)``
points; a pass is ``B[]`` (and ``B[tt]`` on boards up to 19x19 when loading).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from plumbing.files import atomic_write

Point = tuple[int, int]
Move = tuple[str, "Point | None"]  # ('b' | 'w', point or None for a pass)

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


class SgfError(ValueError):
    """SGF text that is malformed or describes something other than a square Go game."""


@dataclass
class GameRecord:
    """One Go game: the conditions, optional setup stones and the moves in order."""

    size: int = 19
    komi: float = 7.0
    rules: str = "Chinese"
    black: str = ""
    white: str = ""
    result: str = ""
    comment: str = ""
    setup_black: list[Point] = field(default_factory=list)
    setup_white: list[Point] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)


# ---------------------------------------------------------------- writing


def escape_text(text: str) -> str:
    """Escape a Text/SimpleText value: backslash and closing bracket are the only specials."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def format_point(point: Point | None, size: int) -> str:
    if point is None:
        return ""
    x, y = point
    if not (0 <= x < size and 0 <= y < size):
        raise SgfError(f"point {point} is off a {size}x{size} board")
    return LETTERS[x] + LETTERS[y]


def format_real(value: float) -> str:
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def dumps(record: GameRecord) -> str:
    """The record as SGF text (FF[4], one node per line)."""
    if not 1 <= record.size <= len(LETTERS):
        raise SgfError(f"board size {record.size} cannot be written in SGF (1..52)")
    root = [
        "FF[4]GM[1]CA[UTF-8]AP[soloshop:1]",
        f"SZ[{record.size}]KM[{format_real(record.komi)}]",
    ]
    for key, value in (("RU", record.rules), ("PB", record.black), ("PW", record.white),
                       ("RE", record.result), ("GC", record.comment)):
        if value:
            root.append(f"{key}[{escape_text(value)}]")
    for key, points in (("AB", record.setup_black), ("AW", record.setup_white)):
        if points:
            root.append(key + "".join(f"[{format_point(p, record.size)}]" for p in points))
    lines = ["(;" + "".join(root)]
    for color, point in record.moves:
        if color not in ("b", "w"):
            raise SgfError(f"move colour {color!r} is not 'b' or 'w'")
        lines.append(f";{color.upper()}[{format_point(point, record.size)}]")
    return "\n".join(lines) + ")\n"


def save(path: str | os.PathLike, record: GameRecord) -> None:
    """Write the record atomically (plumbing.files: the old file or the new, never a part)."""
    atomic_write(path, dumps(record))


# ---------------------------------------------------------------- reading


def _parse_value(text: str, i: int) -> tuple[str, int]:
    """Read one bracketed value starting after '['; returns (unescaped value, index after ']')."""
    out = []
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            if i + 1 >= len(text):
                break
            nxt = text[i + 1]
            if nxt == "\r":  # soft line break: backslash-newline disappears
                i += 3 if text[i + 2:i + 3] == "\n" else 2
                continue
            if nxt == "\n":
                i += 3 if text[i + 2:i + 3] == "\r" else 2
                continue
            out.append(nxt)
            i += 2
        elif ch == "]":
            return "".join(out), i + 1
        else:
            out.append(ch)
            i += 1
    raise SgfError("unterminated property value (missing ']')")


def _parse_tree(text: str, i: int, depth: int = 0) -> tuple[list[dict[str, list[str]]], int]:
    """Parse a GameTree starting after '('; return the main line's nodes and the index after ')'."""
    if depth > 10_000:
        raise SgfError("variations nested too deeply")
    nodes: list[dict[str, list[str]]] = []
    main_child_taken = False
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch == ";":
            if main_child_taken:
                raise SgfError(f"node after a variation at offset {i}")
            node: dict[str, list[str]] = {}
            i += 1
            while True:
                while i < len(text) and text[i].isspace():
                    i += 1
                start = i
                while i < len(text) and text[i].isalpha():
                    i += 1
                if start == i:
                    break
                # FF[3] allowed lowercase letters inside identifiers ("AddBlack"); they are ignored.
                ident = "".join(c for c in text[start:i] if c.isupper())
                values = []
                while True:
                    while i < len(text) and text[i].isspace():
                        i += 1
                    if i < len(text) and text[i] == "[":
                        value, i = _parse_value(text, i + 1)
                        values.append(value)
                    else:
                        break
                if not values:
                    raise SgfError(f"property {ident or text[start:i]} has no value at offset {start}")
                node.setdefault(ident, []).extend(values)
            nodes.append(node)
        elif ch == "(":
            child, i = _parse_tree(text, i + 1, depth + 1)
            if not main_child_taken:
                nodes.extend(child)
                main_child_taken = True
        elif ch == ")":
            if not nodes:
                raise SgfError(f"empty game tree at offset {i}")
            return nodes, i + 1
        else:
            raise SgfError(f"unexpected {ch!r} at offset {i}")
    raise SgfError("unterminated game tree (missing ')')")


def parse_point(value: str, size: int) -> Point | None:
    if value == "" or (value == "tt" and size <= 19):
        return None
    if len(value) != 2 or value[0] not in LETTERS or value[1] not in LETTERS:
        raise SgfError(f"'{value}' is not an SGF point")
    x, y = LETTERS.index(value[0]), LETTERS.index(value[1])
    if x >= size or y >= size:
        raise SgfError(f"point '{value}' is off a {size}x{size} board")
    return (x, y)


def _parse_points(values: list[str], size: int) -> list[Point]:
    """Points of a setup property, expanding compressed rectangles ("aa:cc")."""
    points = []
    for value in values:
        if ":" in value:
            a, b = (parse_point(part, size) for part in value.split(":", 1))
            if a is None or b is None:
                raise SgfError(f"'{value}' is not a rectangle of points")
            points.extend((x, y) for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1)
                          for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1))
        else:
            point = parse_point(value, size)
            if point is None:
                raise SgfError("a setup stone cannot be a pass")
            points.append(point)
    return points


def _number(value: str, name: str, kind=float):
    try:
        return kind(value.strip())
    except ValueError:
        raise SgfError(f"{name}[{value}] is not a number") from None


def loads(text: str) -> GameRecord:
    """Parse the first game of an SGF collection; raises SgfError naming what is wrong."""
    start = text.find("(")
    if start < 0:
        raise SgfError("no game tree found (SGF starts with '(;')")
    nodes, _ = _parse_tree(text, start + 1)
    root = nodes[0]
    first = lambda key, default="": root.get(key, [default])[0]  # noqa: E731
    if first("GM", "1").strip() != "1":
        raise SgfError(f"GM[{first('GM')}] is not a Go game (GM[1])")
    size_text = first("SZ", "19")
    if ":" in size_text:
        cols, rows = size_text.split(":", 1)
        if cols.strip() != rows.strip():
            raise SgfError(f"SZ[{size_text}] is not a square board")
        size_text = cols
    size = _number(size_text, "SZ", int)
    if not 1 <= size <= len(LETTERS):
        raise SgfError(f"SZ[{size}] is outside 1..52")
    record = GameRecord(
        size=size,
        komi=_number(first("KM", "0"), "KM"),
        rules=first("RU"),
        black=first("PB"),
        white=first("PW"),
        result=first("RE"),
        comment=first("GC"),
        setup_black=_parse_points(root.get("AB", []), size),
        setup_white=_parse_points(root.get("AW", []), size),
    )
    for index, node in enumerate(nodes):
        if index and any(key in node for key in ("AB", "AW", "AE")):
            raise SgfError(f"setup stones in node {index} (only the root may hold AB/AW)")
        for key in ("B", "W"):
            for value in node.get(key, []):
                record.moves.append((key.lower(), parse_point(value, size)))
    return record


def load(path: str | os.PathLike) -> GameRecord:
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # old files without CA[] are usually Latin-1
    return loads(text)

"""Go board coordinates: the one place that converts between (x, y) points and GTP vertices.

A point is ``(x, y)``: x the column from the left, y the row from the top, both 0-based.
A pass is ``None``. GTP vertices are letters A-T without I for the column and a number
counted from the bottom for the row ("D4", "pass"), case-insensitive.
"""
from __future__ import annotations

COLUMNS = "ABCDEFGHJKLMNOPQRST"  # GTP skips I
MAX_SIZE = len(COLUMNS)

Point = tuple[int, int]


class BadVertex(ValueError):
    """A GTP vertex that is malformed or off the board."""


def to_gtp(point: Point | None, size: int) -> str:
    if point is None:
        return "pass"
    x, y = point
    if not (0 <= x < size and 0 <= y < size):
        raise BadVertex(f"point {point} is off a {size}x{size} board")
    return f"{COLUMNS[x]}{size - y}"


def from_gtp(text: str, size: int) -> Point | None:
    """Parse a GTP vertex; raises BadVertex naming what is wrong."""
    vertex = text.strip().upper()
    if vertex == "PASS":
        return None
    digits = vertex[1:]
    if len(vertex) < 2 or vertex[0] not in COLUMNS or not (digits.isascii() and digits.isdigit()):
        raise BadVertex(f"'{text}' is not a vertex (expected e.g. D4 or pass)")
    x, row = COLUMNS.index(vertex[0]), int(digits)
    if x >= size or not 1 <= row <= size:
        raise BadVertex(f"'{text}' is off a {size}x{size} board")
    return (x, size - row)

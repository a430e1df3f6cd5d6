"""Handicap stone placement: pure functions, no board logic.

GTP v2 (section 4.1.1) fixes where `fixed_handicap` puts its stones and names GNU Go as the
reference implementation; the points and their order below are the ones GNU Go 3.8 answers
with. Stones go on the third line on boards up to 12x12 and on the fourth from 13x13; boards
with no centre point (even sizes) and 7x7 take at most four, the others at most nine.
Points are ``(x, y)`` with ``y`` counted from the top row, as everywhere in engines.go.
"""
from __future__ import annotations

Point = tuple[int, int]

MIN_STONES = 2


class HandicapError(ValueError):
    """A handicap that the board cannot take."""


def max_fixed(size: int) -> int:
    """The most stones `fixed_handicap` places on a size x size board (0: none)."""
    if size < 7:
        return 0
    return 4 if size % 2 == 0 or size == 7 else 9


def fixed_points(size: int, stones: int) -> list[Point]:
    """The fixed handicap points, top row first and left to right (GNU Go's order)."""
    most = max_fixed(size)
    if not most:
        raise HandicapError(f"no fixed handicap on a {size}x{size} board (7x7 or larger)")
    if not MIN_STONES <= stones <= most:
        raise HandicapError(f"{stones} fixed handicap stones on {size}x{size} "
                            f"({MIN_STONES} to {most} allowed)")
    line = 3 if size <= 12 else 4
    low, high, mid = line - 1, size - line, size // 2
    upper_right, lower_left = (high, low), (low, high)
    upper_left, lower_right = (low, low), (high, high)
    corners = [upper_right, lower_left, upper_left, lower_right]
    left_right = [(low, mid), (high, mid)]
    top_bottom = [(mid, low), (mid, high)]
    centre = [(mid, mid)]
    by_count = {
        2: corners[:2],
        3: corners[:3],
        4: corners,
        5: corners + centre,
        6: corners + left_right,
        7: corners + left_right + centre,
        8: corners + left_right + top_bottom,
        9: corners + left_right + top_bottom + centre,
    }
    return sorted(by_count[stones], key=lambda p: (p[1], p[0]))


def check_free_count(size: int, stones: int) -> None:
    """A free handicap takes at least two stones and leaves at least one point empty."""
    if not MIN_STONES <= stones <= size * size - 1:
        raise HandicapError(f"{stones} handicap stones on {size}x{size} "
                            f"({MIN_STONES} to {size * size - 1} allowed)")

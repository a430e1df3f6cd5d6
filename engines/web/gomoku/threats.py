"""Threats on a Gomoku board for the analysis view: where each side makes a five, a four or a
three with its next stone. Pure (board rows in, points out), computed from the rule's win
condition; the engine's search decides the moves, this only shows the board's tension.

This is the readable reference of the core's threat map (gm_board_threats, threats.c), which
the server and the in-page engine answer /threats from; a parity test keeps the two equal.

Kinds, strongest first: `five` (wins at once), `open-four` (two points make a five: the four
cannot be stopped), `four-four` and `four-three` (two threats at once), `four`,
`three-three`, `three` (one more stone makes an open four).
"""
from __future__ import annotations

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
KINDS = ("five", "open-four", "four-four", "four-three", "four", "three-three", "three")


def wins(rule: str, color: str, length: int) -> bool:
    """Does a line of `length` stones of `color` win under `rule`?"""
    if rule == "freestyle" or (rule == "renju" and color == "w"):
        return length >= 5
    return length == 5


class Board:
    """The stones as a mutable grid, so a point can be tried and taken back."""

    def __init__(self, rows: list[str]):
        self.grid = [list(row) for row in rows]
        self.size = len(rows)

    def at(self, x: int, y: int) -> str:
        return self.grid[y][x] if 0 <= x < self.size and 0 <= y < self.size else "#"

    def run(self, x: int, y: int, d, color: str) -> int:
        """Stones of `color` in the unbroken line through (x, y) along d ((x, y) counted)."""
        n = 1
        for sign in (1, -1):
            k = 1
            while self.at(x + sign * k * d[0], y + sign * k * d[1]) == color:
                n, k = n + 1, k + 1
        return n

    def five_points(self, x: int, y: int, d, color: str, rule: str) -> int:
        """Empty points within four steps of (x, y) along d where `color` then makes a five."""
        count = 0
        for k in (-4, -3, -2, -1, 1, 2, 3, 4):
            qx, qy = x + k * d[0], y + k * d[1]
            if self.at(qx, qy) != ".":
                continue
            self.grid[qy][qx] = color
            if wins(rule, color, self.run(qx, qy, d, color)):
                count += 1
            self.grid[qy][qx] = "."
        return count

    def makes_three(self, x: int, y: int, d, color: str, rule: str) -> bool:
        """Does one more stone along d make a line with two five points (an open four)?"""
        for k in (-3, -2, -1, 1, 2, 3):
            qx, qy = x + k * d[0], y + k * d[1]
            if self.at(qx, qy) != ".":
                continue
            self.grid[qy][qx] = color
            open_four = self.five_points(qx, qy, d, color, rule) >= 2
            self.grid[qy][qx] = "."
            if open_four:
                return True
        return False

    def classify(self, x: int, y: int, color: str, rule: str) -> str | None:
        """The strongest threat `color` makes with a stone on the empty point (x, y)."""
        self.grid[y][x] = color
        try:
            if any(wins(rule, color, self.run(x, y, d, color)) for d in DIRECTIONS):
                return "five"
            fours = [self.five_points(x, y, d, color, rule) for d in DIRECTIONS]
            if max(fours) >= 2:
                return "open-four"
            threes = sum(1 for d, f in zip(DIRECTIONS, fours)
                         if f == 0 and self.makes_three(x, y, d, color, rule))
            if sum(fours) >= 2:
                return "four-four"
            if sum(fours) == 1:
                return "four-three" if threes else "four"
            return "three-three" if threes >= 2 else "three" if threes else None
        finally:
            self.grid[y][x] = "."

    def near(self, color: str, reach: int = 4) -> list[tuple[int, int]]:
        """Empty points within `reach` of a stone of `color` along a line (where threats can be)."""
        points = set()
        for y in range(self.size):
            for x in range(self.size):
                if self.grid[y][x] != color:
                    continue
                for d in DIRECTIONS:
                    for k in range(-reach, reach + 1):
                        qx, qy = x + k * d[0], y + k * d[1]
                        if self.at(qx, qy) == ".":
                            points.add((qx, qy))
        return sorted(points, key=lambda p: (p[1], p[0]))


def threats(rows: list[str], color: str, rule: str, excluded=()) -> list[tuple[tuple[int, int], str]]:
    """(point, kind) for every threat of `color`, strongest first; `excluded` points (renju
    forbidden points for black) are left out."""
    board = Board(rows)
    skip = set(excluded)
    found = [(p, kind) for p in board.near(color) if p not in skip
             for kind in [board.classify(p[0], p[1], color, rule)] if kind]
    return sorted(found, key=lambda item: (KINDS.index(item[1]), item[0][1], item[0][0]))

"""The rules of Go, written to be read: the reference the C core is tested against.

- The board is size x size points, (x, y) with x the column from the left and y the row from
  the top (see coords.py). Black moves first; a move is a stone on an empty point or a pass.
- A chain is a maximal set of same-coloured stones connected along lines; its liberties are
  the empty points next to it. After a stone is placed, opposing chains without liberties are
  captured (removed); then, if the stone's own chain has no liberty, the move was suicide,
  which is illegal.
- Simple ko: when a lone stone captures exactly one stone and is left with that single point as
  its only liberty, the opponent may not play there on the very next move.
- Optional positional superko: a move may not recreate any earlier arrangement of stones.
- Two passes in a row end the game. Tromp-Taylor area score: each player counts their stones
  plus the empty regions that touch only their colour; score = black - white - komi.

The Zobrist hash (stones, side to move, ko point) is defined here exactly as the C core
computes it: one splitmix64 stream from ZOBRIST_SEED gives 361 black keys, 361 white keys
(index y * 19 + x for every size), one white-to-move key and 361 ko keys, in that order.
"""
from __future__ import annotations

from engines.zobrist import splitmix64

EMPTY, BLACK, WHITE = ".", "b", "w"
ZOBRIST_SEED = 0x5EED60BA11


def other(color: str) -> str:
    return WHITE if color == BLACK else BLACK


def _zobrist_tables():
    stream = splitmix64(ZOBRIST_SEED)
    black = [next(stream) for _ in range(361)]
    white = [next(stream) for _ in range(361)]
    white_to_move = next(stream)
    ko = [next(stream) for _ in range(361)]
    return {BLACK: black, WHITE: white}, white_to_move, ko


ZOBRIST_STONE, ZOBRIST_WHITE_TO_MOVE, ZOBRIST_KO = _zobrist_tables()


class IllegalMove(ValueError):
    """A move the rules refuse; the message starts with why (occupied, suicide, ko, ...)."""


class Position:
    """Stones, side to move, ko point, capture counts and consecutive passes."""

    def __init__(self, size: int):
        if not 2 <= size <= 19:
            raise IllegalMove(f"wrong size: {size}")
        self.size = size
        self.grid = [[EMPTY] * size for _ in range(size)]
        self.to_move = BLACK
        self.ko = None
        self.captures = {BLACK: 0, WHITE: 0}
        self.passes = 0

    def copy(self) -> "Position":
        new = Position(self.size)
        new.grid = [row[:] for row in self.grid]
        new.to_move, new.ko, new.passes = self.to_move, self.ko, self.passes
        new.captures = dict(self.captures)
        return new

    def on_board(self, point) -> bool:
        x, y = point
        return 0 <= x < self.size and 0 <= y < self.size

    def at(self, point) -> str:
        return self.grid[point[1]][point[0]]

    def neighbors(self, point):
        x, y = point
        for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if 0 <= nx < self.size and 0 <= ny < self.size:
                yield (nx, ny)

    def chain(self, point):
        """The chain through a stone and its liberties, as two sets."""
        color, stones, liberties, todo = self.at(point), {point}, set(), [point]
        while todo:
            for n in self.neighbors(todo.pop()):
                c = self.at(n)
                if c == EMPTY:
                    liberties.add(n)
                elif c == color and n not in stones:
                    stones.add(n)
                    todo.append(n)
        return stones, liberties

    def has_liberty(self, point, besides=None) -> bool:
        """Whether the chain through a stone has a liberty (other than `besides`)."""
        color, seen, todo = self.at(point), {point}, [point]
        while todo:
            for n in self.neighbors(todo.pop()):
                c = self.at(n)
                if c == EMPTY and n != besides:
                    return True
                if c == color and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False

    def why_illegal(self, color: str, point) -> str | None:
        """None when color may play point (None = pass) under simple ko, else the reason."""
        if point is None:
            return None
        if not self.on_board(point):
            return "off board"
        if self.at(point) != EMPTY:
            return "occupied"
        if point == self.ko and color == self.to_move:
            return "ko"
        for n in self.neighbors(point):
            c = self.at(n)
            if c == EMPTY:
                return None                      # a liberty of its own
            if c == color and self.has_liberty(n, besides=point):
                return None                      # joins a chain that keeps a liberty
            if c == other(color) and not self.has_liberty(n, besides=point):
                return None                      # captures
        return "suicide"

    def _place(self, color: str, point):
        """Put a stone down and remove the opposing chains it leaves without liberties."""
        x, y = point
        self.grid[y][x] = color
        captured = []
        for n in self.neighbors(point):
            if self.at(n) == other(color) and not self.has_liberty(n):
                for sx, sy in self.chain(n)[0]:
                    self.grid[sy][sx] = EMPTY
                    captured.append((sx, sy))
        return captured

    def play(self, color: str, point):
        """Play (or pass with point=None); returns the captured points."""
        reason = self.why_illegal(color, point)
        if reason:
            raise IllegalMove(f"{reason}: {color} at {point}")
        self.to_move, self.ko = other(color), None
        if point is None:
            self.passes += 1
            return []
        self.passes = 0
        captured = self._place(color, point)
        self.captures[color] += len(captured)
        if len(captured) == 1:
            # Ko: a lone stone whose only liberty is the point it just captured.
            around = [self.at(n) for n in self.neighbors(point)]
            liberties = [n for n in self.neighbors(point) if self.at(n) == EMPTY]
            if color not in around and liberties == captured:
                self.ko = captured[0]
        return sorted(captured)

    def stones_key(self):
        return tuple("".join(row) for row in self.grid)

    def hash(self) -> int:
        h = 0
        for y, row in enumerate(self.grid):
            for x, c in enumerate(row):
                if c != EMPTY:
                    h ^= ZOBRIST_STONE[c][y * 19 + x]
        if self.to_move == WHITE:
            h ^= ZOBRIST_WHITE_TO_MOVE
        if self.ko is not None:
            h ^= ZOBRIST_KO[self.ko[1] * 19 + self.ko[0]]
        return h

    def area(self) -> int:
        """Tromp-Taylor area, black minus white, without komi."""
        score, seen = 0, set()
        for y in range(self.size):
            for x in range(self.size):
                c = self.grid[y][x]
                if c != EMPTY:
                    score += 1 if c == BLACK else -1
                    continue
                if (x, y) in seen:
                    continue
                region, touches, todo = {(x, y)}, set(), [(x, y)]
                while todo:
                    for n in self.neighbors(todo.pop()):
                        nc = self.at(n)
                        if nc == EMPTY and n not in region:
                            region.add(n)
                            todo.append(n)
                        elif nc != EMPTY:
                            touches.add(nc)
                seen |= region
                if touches == {BLACK}:
                    score += len(region)
                elif touches == {WHITE}:
                    score -= len(region)
        return score


class Game:
    """A position with its history: undo, optional positional superko, komi, the end."""

    def __init__(self, size: int = 9, komi: float = 7.0, superko: bool = False):
        self.komi, self.superko = komi, superko
        self.position = Position(size)
        self.history = []                      # (color, point) per move
        self._positions = [self.position.copy()]
        self._seen = {self.position.stones_key()}

    def why_illegal(self, color: str, point) -> str | None:
        reason = self.position.why_illegal(color, point)
        if reason is None and self.superko and point is not None:
            trial = self.position.copy()
            trial._place(color, point)
            if trial.stones_key() in self._seen:
                return "superko"
        return reason

    def play(self, color: str, point):
        reason = self.why_illegal(color, point)
        if reason:
            raise IllegalMove(f"{reason}: {color} at {point}")
        captured = self.position.play(color, point)
        self.history.append((color, point))
        self._positions.append(self.position.copy())
        self._seen.add(self.position.stones_key())
        return captured

    def undo(self) -> bool:
        if not self.history:
            return False
        self.history.pop()
        self._positions.pop()
        self.position = self._positions[-1].copy()
        self._seen = {p.stones_key() for p in self._positions}
        return True

    def legal_moves(self, color: str):
        size = self.position.size
        return [(x, y) for y in range(size) for x in range(size)
                if self.why_illegal(color, (x, y)) is None]

    @property
    def over(self) -> bool:
        return self.position.passes >= 2

    def tromp_taylor_score(self) -> float:
        return self.position.area() - self.komi

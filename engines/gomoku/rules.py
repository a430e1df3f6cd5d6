"""The rules of Gomoku, written to be read: the reference the C core is tested against.

- The board is size x size points (5..20; 15 and 20 are the usual ones), (x, y) with x the
  column from the left and y the row from the top, 0-based. Black moves first; players
  alternate placing one stone on an empty point. There are no passes and no captures.
- A *line* is a run of stones of one colour along a row, a column or a diagonal.
- Rules (RULES):
  - ``freestyle``: a line of five or more wins.
  - ``standard``: exactly five wins, for both colours; six or more (an overline) does not
    win, and is not forbidden either.
  - ``renju``: white wins with five or more. Black wins with exactly five; black may not play
    an overline, a double-four or a double-three (forbidden points, see below), except that a
    move which makes a five wins first, whatever else it makes.
- The game is drawn when the board is full, or when the side to move has no legal move (in
  renju black's every empty point can be forbidden; the game then ends as a draw rather than
  waiting for a pass the rules do not have).

Renju definitions (black only; "five" means exactly five):

- A *four* is four black stones, together with one empty point, inside five consecutive points
  of a line, such that a black stone on that empty point makes a five. Fours are counted by
  their stones: ``.XXXX.`` is one four (a *straight four*: two points make a five with the same
  four stones), ``X.XXX.X`` is two fours in one line (different stones).
- A *straight four* is four consecutive black stones with an empty point at each end, each of
  which makes a five.
- A *three* is a line that can become a straight four by one more black stone on a point that
  is itself not forbidden (checked with the stones of the three on the board: the definition is
  recursive). A line that already holds a four is not also a three, and one line holds at most
  one three.
- A move at p, counting only fours and threes that contain p: it is an *overline* if it makes a
  line of six or more, a *double-four* if it makes two or more fours, a *double-three* if it
  makes two or more threes. If it makes a five it is never forbidden. When a move is several
  things, the reason named is the first of overline, double-four, double-three.

The Zobrist hash is defined exactly as the C core computes it: one splitmix64 stream from
ZOBRIST_SEED gives 400 black keys, 400 white keys (index y * 20 + x for every size) and one
white-to-move key, in that order. The hash of a position is the XOR of the keys of its stones,
and of the white-to-move key when white is to move. Size and rule are not in the hash.
"""
from __future__ import annotations

from engines.zobrist import splitmix64

EMPTY, BLACK, WHITE, WALL = ".", "b", "w", "#"
RULES = ("freestyle", "standard", "renju")
MIN_SIZE, MAX_SIZE = 5, 20
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
ZOBRIST_SEED = 0x60A0C0F1FE


def other(color: str) -> str:
    return WHITE if color == BLACK else BLACK


def _zobrist_tables():
    stream = splitmix64(ZOBRIST_SEED)
    cells = MAX_SIZE * MAX_SIZE
    black = [next(stream) for _ in range(cells)]
    white = [next(stream) for _ in range(cells)]
    return {BLACK: black, WHITE: white}, next(stream)


ZOBRIST_STONE, ZOBRIST_WHITE_TO_MOVE = _zobrist_tables()


def zobrist_key(color: str, point) -> int:
    x, y = point
    return ZOBRIST_STONE[color][y * MAX_SIZE + x]


class IllegalMove(ValueError):
    """A move or argument the rules refuse. ``reason`` is one of REASONS; the message starts
    with it."""

    reason = "illegal"

    def __init__(self, detail: str = ""):
        super().__init__(f"{self.reason}: {detail}" if detail else self.reason)


class OffBoard(IllegalMove):
    reason = "off board"


class Occupied(IllegalMove):
    reason = "occupied"


class GameOver(IllegalMove):
    reason = "game over"


class Forbidden(IllegalMove):
    """A renju forbidden point for black; ``rule`` is overline, double-four or double-three."""

    reason = "forbidden"

    def __init__(self, rule: str, detail: str = ""):
        self.rule = rule
        super().__init__(f"{rule} {detail}".strip())


class WrongSetup(IllegalMove):
    reason = "wrong setup"


FORBIDDEN_RULES = ("overline", "double-four", "double-three")


class Game:
    """A game of Gomoku under one of RULES: the board, the record, and the result."""

    def __init__(self, size: int = 15, rule: str = "freestyle"):
        if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
            raise WrongSetup(f"size {size!r}: boards are {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}")
        if rule not in RULES:
            raise WrongSetup(f"rule {rule!r}: one of {', '.join(RULES)}")
        self.size, self.rule = size, rule
        self.grid = [[EMPTY] * size for _ in range(size)]
        self.history: list[tuple[int, int]] = []
        self.to_move = BLACK
        self.winner: str | None = None
        self.is_over = False
        self.winning_line: list[tuple[int, int]] = []
        self._hash = 0
        self._forbidden: list | None = None      # forbidden_points() of this position

    # ---- reading the board ---------------------------------------------------------------

    def on_board(self, point) -> bool:
        x, y = point
        return 0 <= x < self.size and 0 <= y < self.size

    def at(self, point) -> str:
        x, y = point
        return self.grid[y][x] if 0 <= x < self.size and 0 <= y < self.size else WALL

    def empty_points(self) -> list[tuple[int, int]]:
        return [(x, y) for y in range(self.size) for x in range(self.size) if self.grid[y][x] == EMPTY]

    def hash(self) -> int:
        return self._hash ^ (ZOBRIST_WHITE_TO_MOVE if self.to_move == WHITE else 0)

    def _line(self, point, direction, reach: int) -> list[str]:
        """The points from -reach to +reach steps from point along direction (off board: WALL)."""
        (x, y), (dx, dy) = point, direction
        return [self.at((x + k * dx, y + k * dy)) for k in range(-reach, reach + 1)]

    def _run(self, point, direction, color) -> list[tuple[int, int]]:
        """The unbroken line of color through point (which is taken to hold color)."""
        (x, y), (dx, dy) = point, direction
        run = [point]
        for sign in (1, -1):
            k = 1
            while self.at((x + sign * k * dx, y + sign * k * dy)) == color:
                run.append((x + sign * k * dx, y + sign * k * dy))
                k += 1
        return sorted(run)

    # ---- wins ----------------------------------------------------------------------------

    def _wins(self, color, length: int) -> bool:
        if self.rule == "freestyle" or (self.rule == "renju" and color == WHITE):
            return length >= 5
        return length == 5

    def makes_five(self, point, color) -> bool:
        """Would a stone of COLOR on the empty POINT win (a five under this rule)?"""
        return bool(self._winning_line(point, color))

    def pass_turn(self) -> None:
        """The other side to move, no stone placed: for analysis only (a threat search asks
        what a side could do if the other passed). The rules have no pass; undo() does not
        take this back, a second pass_turn() does."""
        self.to_move = other(self.to_move)
        self._forbidden = None

    def _winning_line(self, point, color) -> list[tuple[int, int]]:
        """The line that wins for color with a stone at point, or []."""
        for direction in DIRECTIONS:
            run = self._run(point, direction, color)
            if self._wins(color, len(run)):
                return run
        return []

    # ---- renju forbidden points ----------------------------------------------------------

    def _fours(self, point, direction) -> int:
        """Black fours through point (black stone on it) along direction, counted by stones."""
        line = self._line(point, direction, 5)          # index 5 is point
        stone_sets = set()
        for start in range(1, 6):                       # five-point windows holding index 5
            window = line[start:start + 5]
            if window.count(BLACK) == 4 and window.count(EMPTY) == 1 \
                    and line[start - 1] != BLACK and line[start + 5] != BLACK:
                stone_sets.add(frozenset(start + i for i, c in enumerate(window) if c == BLACK))
        return len(stone_sets)

    @staticmethod
    def _straight_four(line: list[str], offset: int) -> bool:
        """Is there a straight four in line (11 points, the stone under study at index 5)
        holding index 5 and index 5 + offset?"""
        for start in range(5 + max(0, offset) - 3, 5 + min(0, offset) + 1):
            if all(c == BLACK for c in line[start:start + 4]) \
                    and line[start - 1] == EMPTY and line[start + 4] == EMPTY \
                    and line[start - 2] != BLACK and line[start + 5] != BLACK:
                return True
        return False

    def _three(self, point, direction) -> bool:
        """Does the black stone on point make a three along direction (recursive definition)?"""
        (x, y), (dx, dy) = point, direction
        line = self._line(point, direction, 5)
        for offset in (-3, -2, -1, 1, 2, 3):
            if line[5 + offset] != EMPTY:
                continue
            with_q = line[:5 + offset] + [BLACK] + line[6 + offset:]
            if self._straight_four(with_q, offset) \
                    and self.forbidden_reason((x + offset * dx, y + offset * dy)) is None:
                return True
        return False

    def _may_be_forbidden(self, point) -> bool:
        """A quick necessary condition (so the reference stays fast enough to test against): an
        overline or a double-four in one line needs four other black stones within five steps
        along one line; two fours or threes in two lines need two other black stones within four
        steps along each of them."""
        crowded = 0
        for direction in DIRECTIONS:
            near = self._line(point, direction, 4)
            far = self._line(point, direction, 5)
            if far.count(BLACK) >= 4:
                return True
            crowded += near.count(BLACK) >= 2
        return crowded >= 2

    def forbidden_reason(self, point) -> str | None:
        """Why black may not play the empty point (overline, double-four, double-three), or
        None. Only renju has forbidden points; the side to move does not matter."""
        if self.rule != "renju" or self.at(point) != EMPTY or not self._may_be_forbidden(point):
            return None
        x, y = point
        self.grid[y][x] = BLACK
        try:
            return self._forbidden_with_stone(point)
        finally:
            self.grid[y][x] = EMPTY

    def _forbidden_with_stone(self, point) -> str | None:
        runs = [len(self._run(point, d, BLACK)) for d in DIRECTIONS]
        if 5 in runs:
            return None                                  # a five wins first
        if max(runs) >= 6:
            return "overline"
        fours = [self._fours(point, d) for d in DIRECTIONS]
        if sum(fours) >= 2:
            return "double-four"
        threes = sum(1 for d, f in zip(DIRECTIONS, fours) if f == 0 and self._three(point, d))
        if threes >= 2:
            return "double-three"
        return None

    def _candidates(self) -> set:
        """The empty points that pass _may_be_forbidden, found from the black stones."""
        near, far = {}, {}
        for y, row in enumerate(self.grid):
            for x, c in enumerate(row):
                if c != BLACK:
                    continue
                for d, (dx, dy) in enumerate(DIRECTIONS):
                    for k in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5):
                        q = (x + k * dx, y + k * dy)
                        if self.at(q) == EMPTY:
                            far[q, d] = far.get((q, d), 0) + 1
                            near[q, d] = near.get((q, d), 0) + (abs(k) <= 4)
        crowded = {}
        for (q, d), n in near.items():
            crowded[q] = crowded.get(q, 0) + (n >= 2)
        return {q for (q, d), n in far.items() if n >= 4} | {q for q, n in crowded.items() if n >= 2}

    def forbidden_points(self) -> list[tuple[int, int]]:
        """The points forbidden for black in this position (renju only), sorted by (y, x).
        Kept until the next play or undo."""
        if self.rule != "renju":
            return []
        if self._forbidden is None:
            points = sorted(self._candidates(), key=lambda p: (p[1], p[0]))
            self._forbidden = [p for p in points if self.forbidden_reason(p)]
        return list(self._forbidden)

    # ---- moves ---------------------------------------------------------------------------

    def why_illegal(self, point) -> IllegalMove | None:
        """The exception a move of the side to move at point would raise, or None."""
        try:
            x, y = point
            x, y = int(x), int(y)
        except (TypeError, ValueError):
            return OffBoard(f"{point!r} is not an (x, y) point")
        if not self.on_board((x, y)):
            return OffBoard(f"{(x, y)} on a {self.size}x{self.size} board")
        if self.is_over:
            return GameOver(f"{(x, y)}: the game is over")
        if self.grid[y][x] != EMPTY:
            return Occupied(f"{(x, y)} holds {'black' if self.grid[y][x] == BLACK else 'white'}")
        if self.to_move == BLACK:
            rule = self.forbidden_reason((x, y))
            if rule:
                return Forbidden(rule, f"at {(x, y)} for black")
        return None

    def legal_moves(self) -> list[tuple[int, int]]:
        """Every point the side to move may play, sorted by (y, x); [] once the game is over."""
        if self.is_over:
            return []
        points = self.empty_points()
        if self.to_move == BLACK and self.rule == "renju":
            forbidden = set(self.forbidden_points())
            points = [p for p in points if p not in forbidden]
        return points

    def _has_legal_move(self) -> bool:
        if self.to_move == WHITE or self.rule != "renju":
            return bool(self.empty_points())
        return len(self.empty_points()) > len(self.forbidden_points())

    def play(self, point) -> None:
        """Place a stone of the side to move at point (x, y); raises an IllegalMove."""
        error = self.why_illegal(point)
        if error:
            raise error
        x, y = int(point[0]), int(point[1])
        color = self.to_move
        self._forbidden = None
        self.grid[y][x] = color
        self._hash ^= zobrist_key(color, (x, y))
        self.history.append((x, y))
        self.to_move = other(color)
        self._judge((x, y), color)

    def _judge(self, point, color) -> None:
        """The result after color's stone on point: a win, a draw or none."""
        self.winning_line = self._winning_line(point, color)
        if self.winning_line:
            self.winner, self.is_over = color, True
        elif not self._has_legal_move():
            self.is_over = True                          # a draw: full board, or no legal move

    def undo(self) -> tuple[int, int] | None:
        """Take back the last move; returns it, or None when there is none."""
        if not self.history:
            return None
        x, y = self.history.pop()
        color = self.grid[y][x]
        self._forbidden = None
        self.grid[y][x] = EMPTY
        self._hash ^= zobrist_key(color, (x, y))
        self.to_move = color
        self.winner, self.is_over, self.winning_line = None, False, []
        return x, y

    def setup(self, moves) -> None:
        """The position after moves (black first, alternating), with no rule checked; only
        the last stone is judged (as Gomocup's BOARD command)."""
        points = [(int(x), int(y)) for x, y in moves]
        if any(not self.on_board(p) for p in points):
            raise OffBoard(f"a point of {points!r} is off the {self.size}x{self.size} board")
        if len(set(points)) != len(points):
            raise Occupied(f"a point is given twice in {points!r}")
        self.__init__(self.size, self.rule)
        for point in points:
            self.grid[point[1]][point[0]] = self.to_move
            self._hash ^= zobrist_key(self.to_move, point)
            self.history.append(point)
            self.to_move = other(self.to_move)
        if points:
            self._judge(points[-1], other(self.to_move))

    @classmethod
    def from_ascii(cls, text: str, rule: str = "renju") -> "Game":
        """A position from rows of '.', 'X' (black) and 'O' (white), set up by setup() with
        the stones in reading order, black and white alternating; the size is the number of
        rows. There must be as many black stones as white ones (black to move) or one more
        (white to move)."""
        rows = [r.replace(" ", "") for r in text.strip().splitlines()]
        game = cls(len(rows), rule)
        stones = {"X": [], "O": []}
        for y, row in enumerate(rows):
            if len(row) != game.size:
                raise WrongSetup(f"row {y} has {len(row)} points, not {game.size}")
            for x, c in enumerate(row):
                if c in stones:
                    stones[c].append((x, y))
        black, white = stones["X"], stones["O"]
        if len(black) - len(white) not in (0, 1):
            raise WrongSetup(f"{len(black)} black and {len(white)} white stones")
        game.setup([p for pair in zip(black, white + [None]) for p in pair if p is not None])
        return game

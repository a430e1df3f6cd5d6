"""The rules of Quoridor, written to be read: the reference the C core is tested against.

- The board is size x size squares, size odd (9 is the game; 5 and 7 are for tests and quick
  games; 3 works too). Squares are (x, y): x the column from a (0), y the row from 1 (0).
  Player 0 starts in the middle of row 1 (e1 on 9x9) and wins on the far row; player 1 starts
  in the middle of the far row and wins on row 1. Player 0 moves first.
- Walls each player gets (DEFAULT_WALLS): 10 on 9x9, 6 on 7x7, 3 on 5x5 (round(10 * size^2 /
  81)); any count 0..20 can be asked for.
- A turn is a pawn step or a wall. A pawn steps to an orthogonal neighbour unless a wall is
  between. Onto the opponent it jumps straight over. If a wall or the board edge is behind
  the opponent, it may step diagonally to either side of the opponent instead, unless a wall
  is between the opponent and that square.
- The variant point, `edge_diagonal` (default True): with it off, the board edge behind the
  opponent allows no diagonal (only a wall behind the opponent does), so a pawn facing its
  opponent at the edge cannot move that way at all.
- A wall is two squares long and lies on the grooves: slot (x, y), 0 <= x, y < size - 1, is
  the wall touching squares (x, y), (x + 1, y), (x, y + 1) and (x + 1, y + 1). Horizontal, it
  is between rows y and y + 1 along columns x and x + 1; vertical, between columns x and x + 1
  beside rows y and y + 1. A wall may not overlap a parallel wall (same slot, or the next slot
  along its length) nor cross a perpendicular wall (same slot). It must leave both pawns a path
  to their goal rows (pawns do not block paths). A player with no walls left moves the pawn.
- The first pawn on its goal row wins, and then no more moves are played.

Refusals are checked in this order and raised as named exceptions that name the move: game
over, off board, illegal pawn move, no walls left, overlap, cross, blocks every path.

Notation: squares a1..i9 (column letter, row number). A wall is named by the square it touches
nearest a1 plus `h` or `v`: `e3v` is the vertical wall between columns e and f beside rows 3
and 4, `e3h` the horizontal wall between rows 3 and 4 along columns e and f. QTP names a wall
by the north-west square of the four it touches instead, with row 9 at the top (QTP `e3h` is
our `e2h`, and QTP `e4v` is our `e3v`: the QTP reference engines' boards put a horizontal wall
below its square and a vertical wall right of its square and the one below);
`qtp_to_wall` and `wall_to_qtp` translate.

The Zobrist hash is defined here exactly as the C core computes it: one splitmix64 stream from
ZOBRIST_SEED gives 81 pawn keys of player 0 then 81 of player 1 (index y * 9 + x), 64
horizontal then 64 vertical wall keys (index y * 8 + x), one player-1-to-move key, and 21
walls-left keys of player 0 then 21 of player 1 (count 0..20). The hash is the XOR of the keys
of both pawns, every wall, both walls-left counts and, when player 1 is to move, that key.
"""
from __future__ import annotations

from collections import deque

from engines.zobrist import splitmix64

SIZES = (3, 5, 7, 9)
MAX_WALLS = 20
ZOBRIST_SEED = 0x5EED0C0A1D0A
COLUMNS = "abcdefghi"


def default_walls(size: int) -> int:
    """Walls each player gets: round(10 * size^2 / 81), so 3 on 5x5, 6 on 7x7, 10 on 9x9."""
    return (10 * size * size + 40) // 81


DEFAULT_WALLS = {size: default_walls(size) for size in SIZES}


# ---- the hash keys -------------------------------------------------------------------------

def _zobrist_tables():
    stream = splitmix64(ZOBRIST_SEED)
    pawn = [[next(stream) for _ in range(81)] for _player in range(2)]
    wall = {o: [next(stream) for _ in range(64)] for o in "hv"}
    to_move = next(stream)
    left = [[next(stream) for _ in range(MAX_WALLS + 1)] for _player in range(2)]
    return pawn, wall, to_move, left


ZOBRIST_PAWN, ZOBRIST_WALL, ZOBRIST_TO_MOVE, ZOBRIST_WALLS_LEFT = _zobrist_tables()


# ---- refusals ------------------------------------------------------------------------------

class IllegalMove(ValueError):
    """A move the rules refuse; the message names the move and says why."""


class GameOver(IllegalMove):
    """A move after a pawn has reached its goal row."""


class OffBoard(IllegalMove):
    """A square or wall slot outside this board, or text that is no move."""


class IllegalPawnMove(IllegalMove):
    """A square the pawn to move cannot reach this turn."""


class NoWallsLeft(IllegalMove):
    """A wall by a player who has placed all of theirs."""


class WallOverlaps(IllegalMove):
    """A wall on a groove segment a parallel wall already covers."""


class WallCrosses(IllegalMove):
    """A wall crossing a perpendicular wall at its middle."""


class WallBlocksPath(IllegalMove):
    """A wall that would leave a pawn no path to its goal row."""


# ---- notation ------------------------------------------------------------------------------

def square_name(square) -> str:
    x, y = square
    return f"{COLUMNS[x]}{y + 1}"


def wall_name(wall) -> str:
    x, y, o = wall
    return f"{COLUMNS[x]}{y + 1}{o}"


def move_name(move) -> str:
    return wall_name(move) if len(move) == 3 else square_name(move)


def parse_move(text: str):
    """'e2' -> (4, 1); 'e3v' -> (4, 2, 'v'). Board bounds are checked by the game."""
    t = text.strip().lower()
    orient = t[-1] if t[-1:] in ("h", "v") else None
    body = t[:-1] if orient else t
    if len(body) < 2 or body[0] not in COLUMNS or not body[1:].isdigit():
        raise OffBoard(f"{text!r} is no move: expected a square like e2 or a wall like e3v")
    x, y = COLUMNS.index(body[0]), int(body[1:]) - 1
    return (x, y, orient) if orient else (x, y)


_QTP_ORIENTATIONS = {"h": "h", "horizontal": "h", "v": "v", "vertical": "v"}


def qtp_to_wall(text: str, size: int = 9) -> str:
    """A QTP wall (the north-west square of the four it touches, row 9 at the top, then the
    orientation: 'e3h', 'E3 h', 'e3 horizontal') in our notation: 'e3h' -> 'e2h', 'e4v' ->
    'e3v'. Both orientations move one row: QTP's horizontal wall lies below its square and
    along the next column, its vertical wall right of its square and along the row below.
    OffBoard for a square no wall of a SIZE board can be named by (row 1, the last column)."""
    parts = text.strip().lower().split()
    if len(parts) == 2 and parts[1] in _QTP_ORIENTATIONS:
        parts = [parts[0] + _QTP_ORIENTATIONS[parts[1]]]
    move = parse_move(parts[0]) if len(parts) == 1 else None
    if move is None or len(move) != 3:
        raise OffBoard(f"{text!r} is no QTP wall: expected a square and h or v, like e3h")
    x, y, o = move
    if not (0 <= x < size - 1 and 1 <= y < size):
        raise OffBoard(f"QTP wall {text!r}: no wall of the {size}x{size} board has that "
                       f"north-west square (columns a-{COLUMNS[size - 2]}, rows 2-{size})")
    return wall_name((x, y - 1, o))


def wall_to_qtp(text: str, size: int = 9) -> str:
    """Our wall name as QTP writes it: 'e2h' -> 'e3h', 'e3v' -> 'e4v' (qtp_to_wall's inverse)."""
    move = parse_move(text)
    if len(move) != 3 or not (0 <= move[0] < size - 1 and 0 <= move[1] < size - 1):
        raise OffBoard(f"{text!r} is no wall of the {size}x{size} board")
    x, y, o = move
    return wall_name((x, y + 1, o))


# ---- the game ------------------------------------------------------------------------------

class Game:
    """A game of Quoridor: pawns, walls, walls left, side to move and the moves played."""

    def __init__(self, size: int = 9, walls: int | None = None, edge_diagonal: bool = True):
        if size not in SIZES:
            raise OffBoard(f"wrong size {size!r}: boards are 3x3, 5x5, 7x7 or 9x9")
        walls = default_walls(size) if walls is None else walls
        if not 0 <= walls <= MAX_WALLS:
            raise OffBoard(f"wrong wall count {walls!r}: 0..{MAX_WALLS}")
        self.size = size
        self.edge_diagonal = edge_diagonal
        self.pawns = [(size // 2, 0), (size // 2, size - 1)]
        self.walls: set = set()              # (x, y, 'h' | 'v')
        self.walls_left = [walls, walls]
        self.to_move = 0
        self.history: list = []              # (move, the mover's square before it)

    def set_position(self, pawns, walls, walls_left, to_move=0):
        """Set up a position (history cleared): pawns as two squares, walls as (x, y, o)."""
        pawns, walls = [tuple(p) for p in pawns], {tuple(w) for w in walls}
        if len(pawns) != 2 or pawns[0] == pawns[1] or not all(map(self.on_board, pawns)):
            raise OffBoard(f"pawns {pawns!r}: two different squares of the board")
        trial = Game(self.size, 0, self.edge_diagonal)
        trial.pawns = pawns
        for wall in sorted(walls):
            trial.walls_left[trial.to_move] = 1
            trial.place_wall(wall)
        self.pawns, self.walls, self.history = pawns, walls, []
        self.walls_left, self.to_move = list(walls_left), to_move

    # ---- geometry ----

    def on_board(self, square) -> bool:
        return 0 <= square[0] < self.size and 0 <= square[1] < self.size

    def neighbours(self, square, walls=None):
        """Squares one step from square with no wall between. The step east of (x, y) is
        closed by a vertical wall at slot (x, y) or (x, y - 1), the step north by a horizontal
        wall at (x, y) or (x - 1, y); west and south are the steps east and north of the
        neighbour."""
        walls = self.walls if walls is None else walls
        x, y = square
        out = []
        if x + 1 < self.size and (x, y, "v") not in walls and (x, y - 1, "v") not in walls:
            out.append((x + 1, y))
        if x > 0 and (x - 1, y, "v") not in walls and (x - 1, y - 1, "v") not in walls:
            out.append((x - 1, y))
        if y + 1 < self.size and (x, y, "h") not in walls and (x - 1, y, "h") not in walls:
            out.append((x, y + 1))
        if y > 0 and (x, y - 1, "h") not in walls and (x - 1, y - 1, "h") not in walls:
            out.append((x, y - 1))
        return out

    def wall_between(self, a, b) -> bool:
        """Is the step between the adjacent squares a and b crossed by a wall?"""
        return b not in self.neighbours(a)

    def goal_row(self, player: int) -> int:
        return self.size - 1 if player == 0 else 0

    def path_length(self, player: int, walls=None):
        """Steps of the shortest path of player's pawn to its goal row (pawns ignored), or
        None when there is none."""
        start, goal = self.pawns[player], self.goal_row(player)
        dist = {start: 0}
        queue = deque([start])
        while queue:
            square = queue.popleft()
            if square[1] == goal:
                return dist[square]
            for t in self.neighbours(square, walls):
                if t not in dist:
                    dist[t] = dist[square] + 1
                    queue.append(t)
        return None

    def shortest_path(self, player: int) -> list:
        """The squares after player's pawn along one shortest path to its goal row (pawns
        ignored), [] if none: the first a breadth-first search finds, trying the neighbours in
        `neighbours` order (east, west, north, south)."""
        start, goal = self.pawns[player], self.goal_row(player)
        parent = {start: None}
        queue = deque([start])
        while queue:
            square = queue.popleft()
            if square[1] == goal:
                path = []
                while parent[square] is not None:
                    path.append(square)
                    square = parent[square]
                return path[::-1]
            for t in self.neighbours(square):
                if t not in parent:
                    parent[t] = square
                    queue.append(t)
        return []

    # ---- pawn moves ----

    def legal_pawn_moves(self) -> list:
        """Squares the pawn to move can reach, sorted by (y, x)."""
        if self.winner is not None:
            return []
        me, opp = self.pawns[self.to_move], self.pawns[1 - self.to_move]
        out = set()
        for t in self.neighbours(me):
            if t != opp:
                out.add(t)
                continue
            dx, dy = opp[0] - me[0], opp[1] - me[1]
            behind = (opp[0] + dx, opp[1] + dy)
            if self.on_board(behind) and not self.wall_between(opp, behind):
                out.add(behind)
            elif self.on_board(behind) or self.edge_diagonal:
                out.update(s for s in self.neighbours(opp) if s != me and s != behind)
        return sorted(out, key=lambda s: (s[1], s[0]))

    # ---- walls ----

    def wall_contacts(self, wall) -> int:
        """How many of the wall's three points (two ends, middle, as groove corners) touch the
        board edge or a point of another wall."""
        corners = set()
        for other in self.walls:
            if other != wall:
                corners.update(_wall_points(other))
        n = self.size
        return sum(1 for p in _wall_points(wall) if p in corners or 0 in p or n in p)

    def why_wall_illegal(self, wall):
        """None, or the exception class that refuses the wall for the side to move."""
        x, y, o = wall
        if self.winner is not None:
            return GameOver
        if not (0 <= x < self.size - 1 and 0 <= y < self.size - 1):
            return OffBoard
        if self.walls_left[self.to_move] == 0:
            return NoWallsLeft
        along = [(x - 1, y, o), (x, y, o), (x + 1, y, o)] if o == "h" else \
                [(x, y - 1, o), (x, y, o), (x, y + 1, o)]
        if any(w in self.walls for w in along):
            return WallOverlaps
        if (x, y, "v" if o == "h" else "h") in self.walls:
            return WallCrosses
        after = self.walls | {wall}
        if self.path_length(0, after) is None or self.path_length(1, after) is None:
            return WallBlocksPath
        return None

    def legal_walls(self) -> list:
        """Every wall the side to move may place, sorted (horizontal first, by y then x)."""
        m = self.size - 1
        walls = [(x, y, o) for o in "hv" for y in range(m) for x in range(m)]
        return [w for w in walls if self.why_wall_illegal(w) is None]

    # ---- state ----

    @property
    def winner(self):
        """0 or 1 once a pawn stands on its goal row, else None."""
        if self.pawns[0][1] == self.size - 1:
            return 0
        if self.pawns[1][1] == 0:
            return 1
        return None

    def hash(self) -> int:
        h = 0
        for player, (x, y) in enumerate(self.pawns):
            h ^= ZOBRIST_PAWN[player][y * 9 + x]
            h ^= ZOBRIST_WALLS_LEFT[player][self.walls_left[player]]
        for x, y, o in self.walls:
            h ^= ZOBRIST_WALL[o][y * 8 + x]
        if self.to_move == 1:
            h ^= ZOBRIST_TO_MOVE
        return h

    # ---- playing ----

    def play(self, move):
        """Play a move for the side to move: notation text, a square (x, y) or a wall
        (x, y, 'h' | 'v'). Raises an IllegalMove subclass naming the move."""
        if isinstance(move, str):
            move = parse_move(move)
        move = tuple(move)
        if len(move) == 3:
            self.place_wall(move)
        else:
            self.move_pawn(move)

    def move_pawn(self, square):
        square = tuple(square)
        name = square_name(square) if self.on_board(square) else repr(square)
        if self.winner is not None:
            raise GameOver(f"pawn move {name}: the game is over")
        if not self.on_board(square):
            raise OffBoard(f"pawn move {name}: off the {self.size}x{self.size} board")
        if square not in self.legal_pawn_moves():
            raise IllegalPawnMove(f"pawn move {name}: player {self.to_move + 1}'s pawn on "
                                  f"{square_name(self.pawns[self.to_move])} cannot reach it")
        self.history.append((square, self.pawns[self.to_move]))
        self.pawns[self.to_move] = square
        self.to_move = 1 - self.to_move

    def place_wall(self, wall):
        wall = tuple(wall)
        why = self.why_wall_illegal(wall)
        if why is not None:
            raise why(f"wall {_safe_wall_name(wall)}: {_WALL_REASONS[why]}")
        self.history.append((wall, self.pawns[self.to_move]))
        self.walls.add(wall)
        self.walls_left[self.to_move] -= 1
        self.to_move = 1 - self.to_move

    def undo(self) -> bool:
        """Take back the last move; False when there is none."""
        if not self.history:
            return False
        move, before = self.history.pop()
        self.to_move = 1 - self.to_move
        if len(move) == 3:
            self.walls.discard(move)
            self.walls_left[self.to_move] += 1
        else:
            self.pawns[self.to_move] = before
        return True

    def moves(self) -> list:
        """The moves played, in notation."""
        return [move_name(move) for move, _ in self.history]


_WALL_REASONS = {
    GameOver: "the game is over",
    OffBoard: "off the board's grooves",
    NoWallsLeft: "no walls left",
    WallOverlaps: "overlaps a wall",
    WallCrosses: "crosses a wall",
    WallBlocksPath: "blocks every path of a pawn to its goal row",
}


def _safe_wall_name(wall) -> str:
    x, y, o = wall
    return wall_name(wall) if 0 <= x < len(COLUMNS) and y >= 0 and o in "hv" else repr(wall)


def _wall_points(wall):
    """The three groove corners of a wall: (column line, row line) from the a1 corner."""
    x, y, o = wall
    if o == "h":
        return [(x, y + 1), (x + 1, y + 1), (x + 2, y + 1)]
    return [(x + 1, y), (x + 1, y + 1), (x + 1, y + 2)]

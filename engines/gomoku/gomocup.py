"""The Gomocup (Piskvork) brain protocol on stdin/stdout, played by GomokuEngine's search.

Commands (case-insensitive; points are 0-based `X,Y`, X the column):

    START N            OK, or ERROR (sizes 5..20)
    RECTSTART W,H      OK for a square supported board, else ERROR
    RESTART            an empty board of the same size: OK
    BEGIN              the brain's first move: X,Y
    TURN X,Y           the opponent's move, then the brain's: X,Y
    BOARD / X,Y,F ... / DONE
                       a position (F 1 own stone, 2 opponent's, 3 a continuous-game marker,
                       which is not a stone here), then the brain's move
    TAKEBACK X,Y       remove that stone: OK
    SWAP2BOARD / X,Y ... / DONE
                       Swap2's opening (exactly five wins): no stone -> three stones
                       `X,Y X,Y X,Y` (black, white, black: the first of the balanced openings,
                       engines/gomoku/openings/, whose stones fit the board); three stones ->
                       SWAP (take black) when a search says white is worse, else white's move;
                       five stones -> SWAP or white's move the same way. Swap2's third option
                       (two more stones) is never chosen.
    INFO KEY VALUE     timeout_turn, timeout_match, time_left (ms), max_memory (bytes),
                       game_type, rule (bitmask: 1 exactly five, 2 continuous, 4 renju); no
                       answer unless the value is malformed; unknown keys are ignored
    ABOUT              name="...", version="...", author="...", country="..."
    END                exit at once, printing nothing

Anything else gets UNKNOWN, a malformed or refused line ERROR with the reason; never a
traceback. Before each move the brain prints a MESSAGE with depth, score, nodes and PV. Output
is flushed after every answer. The brain does not read input while it thinks.

`Brain(depth=D, plain=True)` (`engines gomocup --depth D --plain`) is the match baseline: a
fixed-depth alpha-beta with no VCF, no table and no killer or history moves, whatever the time.
`Brain(nodes=N)` (`--nodes N`) searches every move to N nodes whatever the time: self-play
SPRTs use it so that the load of other programs cannot bias a result.
"""
from __future__ import annotations

import sys

from engines.gomoku.engine import GomokuEngine
from engines.gomoku.rules import IllegalMove

NAME, VERSION = "soloshop-gomoku", "0.1"
DEFAULT_SECONDS = 1.0
RULE_RENJU, RULE_EXACT = 4, 1
OVERHEAD_MB = 40          # the Python process itself, kept out of max_memory


class ProtocolError(ValueError):
    """A line the brain refuses; the message follows ERROR."""


def _point(text: str, size: int) -> tuple[int, int]:
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
        raise ProtocolError(f"expected X,Y, got {text!r}")
    x, y = int(parts[0]), int(parts[1])
    if not (0 <= x < size and 0 <= y < size):
        raise ProtocolError(f"{x},{y} is off the {size}x{size} board")
    return x, y


def rule_name(bits: int) -> str:
    if bits & RULE_RENJU:
        return "renju"
    return "standard" if bits & RULE_EXACT else "freestyle"


class Brain:
    """One protocol session: the board, the budget and the INFO settings."""

    def __init__(self, default_seconds: float | None = None, depth: int | None = None,
                 plain: bool = False, nodes: int | None = None):
        self.default_seconds = default_seconds or DEFAULT_SECONDS
        self.depth, self.plain, self.nodes = depth, plain, nodes
        self.engine: GomokuEngine | None = None
        self.rule = "freestyle"
        self.info: dict[str, int] = {}
        self.board_lines: list[str] | None = None     # inside BOARD or SWAP2BOARD ... DONE
        self.block = ""                                # which of the two
        self.done = False

    # ---- the budget ----------------------------------------------------------------------

    def seconds(self) -> float:
        """Per move: within timeout_turn and a share of time_left, never under 20 ms."""
        budget = self.default_seconds
        turn = self.info.get("timeout_turn")
        if turn is not None:
            budget = max(turn / 1000 * 0.7 - 0.05, 0.02) if turn > 0 else 0.05
        left = self.info.get("time_left")
        if left is not None and self.info.get("timeout_match", 1) > 0:
            budget = min(budget, max(left / 1000 / 25, 0.02))
        return budget

    def _memory_mb(self) -> int:
        limit = self.info.get("max_memory", 0)
        return 64 if limit <= 0 else max(1, min(256, limit // 2**20 // 2 - OVERHEAD_MB // 2))

    # ---- the board -----------------------------------------------------------------------

    def _need_board(self) -> GomokuEngine:
        if self.engine is None:
            raise ProtocolError("no board yet: send START N first")
        return self.engine

    def _start(self, size: int) -> None:
        if not 5 <= size <= 20:
            raise ProtocolError(f"unsupported size {size} (5..20)")
        if self.engine is not None:
            self.engine.close()
        self.engine = GomokuEngine(size, self.rule, tt_megabytes=self._memory_mb())
        self.engine.clear_table()

    def _reset_rule(self, rule: str) -> None:
        """A new rule keeps the stones already played."""
        self.rule = rule
        if self.engine is not None and self.engine.rule != rule:
            moves = self.engine.moves()
            self.engine.reset(rule=rule)
            self.engine.setup(moves)

    def _genmove(self) -> list[str]:
        engine = self._need_board()
        if engine.is_over:
            raise ProtocolError("the game is over")
        result = self._search(engine, play=True)
        x, y = result["move"]
        pv = " ".join(f"{px},{py}" for px, py in result["pv"][:10])
        won = f" win in {result['proven_win_in']}" if result["proven_win_in"] else ""
        return [f"MESSAGE depth {result['depth']} score {result['score']} nodes "
                f"{result['nodes']}{won} pv {pv}", f"{x},{y}"]

    def _search(self, engine: GomokuEngine, play: bool) -> dict:
        """The search of a move (played when PLAY): fixed depth or nodes if set, else timed."""
        budget = ({"depth": self.depth} if self.depth else {"nodes": self.nodes} if self.nodes
                  else {"seconds": self.seconds()})
        run = engine.genmove if play else engine.search
        return run(plain=self.plain, **budget)

    def _opponent_plays(self, point) -> None:
        try:
            self._need_board().play(point)
        except IllegalMove as error:
            raise ProtocolError(f"move {point[0]},{point[1]}: {error}") from None

    # ---- BOARD ... DONE ------------------------------------------------------------------

    def _board_done(self) -> list[str]:
        engine = self._need_board()
        own, opp = [], []
        for line in self.board_lines or []:
            parts = line.replace(" ", "").split(",")
            if len(parts) != 3 or parts[2] not in ("1", "2", "3"):
                raise ProtocolError(f"BOARD line {line!r}: expected X,Y,1|2|3")
            point = _point(",".join(parts[:2]), engine.size)
            if parts[2] != "3":
                (own if parts[2] == "1" else opp).append(point)
        if len(set(own + opp)) != len(own + opp):
            raise ProtocolError("BOARD gives a point twice")
        if len(opp) - len(own) not in (0, 1):
            raise ProtocolError(f"BOARD has {len(own)} own and {len(opp)} opponent stones")
        first, second = (own, opp) if len(own) == len(opp) else (opp, own)
        # black first, alternating: the last stone is the opponent's, the one setup judges
        moves = [p for pair in zip(first, second + [None]) for p in pair if p is not None]
        engine.setup(moves)
        return self._genmove()

    # ---- SWAP2BOARD ... DONE -------------------------------------------------------------

    def _swap2_done(self) -> list[str]:
        engine = self._need_board()
        points = [_point(line, engine.size) for line in self.board_lines or []]
        if len(points) not in (0, 3, 5):
            raise ProtocolError(f"SWAP2BOARD gives {len(points)} stones: expected 0, 3 or 5")
        if len(set(points)) != len(points):
            raise ProtocolError("SWAP2BOARD gives a point twice")
        if not points:
            stones = swap2_opening(engine.size)
            engine.setup(stones)
            return [" ".join(f"{x},{y}" for x, y in stones)]
        engine.setup(points)
        if engine.is_over:
            raise ProtocolError("SWAP2BOARD: the stones already hold a five")
        result = self._search(engine, play=False)
        if result["score"] < 0:           # white (to move) is worse: take black
            return ["SWAP"]
        engine.play(result["move"])
        x, y = result["move"]
        return [f"{x},{y}"]

    # ---- commands ------------------------------------------------------------------------

    def _info(self, args: list[str]) -> list[str]:
        if len(args) < 2:
            raise ProtocolError("INFO needs a key and a value")
        key, value = args[0].lower(), args[1]
        if key in ("timeout_turn", "timeout_match", "time_left", "max_memory", "game_type",
                   "rule"):
            if not value.lstrip("-").isdigit():
                raise ProtocolError(f"INFO {key}: {value!r} is not an integer")
            self.info[key] = int(value)
            if key == "rule":
                self._reset_rule(rule_name(int(value)))
            elif key == "max_memory" and self.engine is not None:
                megabytes = self._memory_mb()
                if self.engine.tt_megabytes != megabytes:   # a repeated limit keeps the table
                    self.engine.set_memory(megabytes)
                    self.engine.clear_table()
        return []

    def _rectstart(self, arg: str) -> list[str]:
        parts = arg.replace(" ", "").split(",")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise ProtocolError(f"RECTSTART expects W,H, got {arg!r}")
        if parts[0] != parts[1]:
            raise ProtocolError(f"rectangular boards ({parts[0]}x{parts[1]}) are not supported")
        self._start(int(parts[0]))
        return ["OK"]

    def _takeback(self, arg: str) -> list[str]:
        engine = self._need_board()
        point = _point(arg, engine.size)
        moves = engine.moves()
        if point not in moves:
            raise ProtocolError(f"TAKEBACK {arg}: no stone there")
        moves.remove(point)
        engine.setup(moves)
        return ["OK"]

    def _command(self, word: str, rest: str) -> list[str]:
        if word == "START":
            if not rest.strip().isdigit():
                raise ProtocolError(f"START expects a size, got {rest!r}")
            self._start(int(rest))
            return ["OK"]
        if word == "RECTSTART":
            return self._rectstart(rest)
        if word == "RESTART":
            self._start(self._need_board().size)
            return ["OK"]
        if word == "BEGIN":
            if self._need_board().moves():
                raise ProtocolError("BEGIN on a board that has stones")
            return self._genmove()
        if word == "TURN":
            self._opponent_plays(_point(rest, self._need_board().size))
            return self._genmove()
        if word in ("BOARD", "SWAP2BOARD"):
            self._need_board()
            self.board_lines, self.block = [], word
            return []
        if word == "TAKEBACK":
            return self._takeback(rest)
        if word == "INFO":
            return self._info(rest.split())
        if word == "ABOUT":
            return [f'name="{NAME}", version="{VERSION}", author="soloshop", country="-"']
        if word == "END":
            self.done = True
            return []
        return [f"UNKNOWN command {word}"]

    def handle(self, line: str) -> list[str]:
        """The answer lines to one input line."""
        line = line.strip()
        if self.board_lines is not None:
            if line.upper() != "DONE":
                self.board_lines.append(line)
                return []
            try:
                return self._board_done() if self.block == "BOARD" else self._swap2_done()
            finally:
                self.board_lines = None
        if not line:
            return []
        word, _, rest = line.partition(" ")
        return self._command(word.upper(), rest.strip())


def swap2_opening(size: int) -> list[tuple[int, int]]:
    """Swap2's three stones: the first balanced opening (of the standard rule's file) of at
    least three stones, moved to this board's centre, its first three stones."""
    from engines.gomoku.openings import load_balanced

    centre = size // 2
    for opening in load_balanced("standard"):
        stones = [(x - 7 + centre, y - 7 + centre) for x, y in opening.moves[:3]]
        if len(stones) == 3 and all(0 <= v < size for p in stones for v in p):
            return stones
    return [(centre, centre), (centre + 1, centre), (centre + 1, centre + 1)]


def run(stdin=None, stdout=None, default_seconds: float | None = None,
        depth: int | None = None, plain: bool = False, nodes: int | None = None) -> int:
    """Read commands until END or end of input; 0."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    brain = Brain(default_seconds, depth=depth, plain=plain, nodes=nodes)
    for line in stdin:
        try:
            answer = brain.handle(line)
        except (ProtocolError, IllegalMove) as error:
            answer = [f"ERROR {error}"]
        except Exception as error:          # never a traceback on the protocol channel
            answer = [f"ERROR internal: {type(error).__name__}: {error}"]
        for out in answer:
            stdout.write(out + "\n")
        stdout.flush()
        if brain.done:
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(run())

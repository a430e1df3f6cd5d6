"""Quoridor's line protocol on stdin/stdout (`engines quoridor`): GTP-shaped, built on
engines/gtp.py. A command is ``[id] name args...``; the reply is ``=[id] text`` or
``?[id] reason`` followed by a blank line. Malformed input gets a ``?`` reply, never a crash.

Colours: ``white`` (also ``w`` or ``1``) is player one, who starts on e1 and moves first;
``black`` (``b`` or ``2``) is player two, starting on e9 (on 9x9). Moves use the project's
notation: a square like ``e2``, a wall like ``e3v`` (rules.py). There is no pass: ``play``
and ``genmove`` are refused for the colour not to move.

Commands: protocol_version, name, version, known_command NAME, list_commands, boardsize N
(5, 7 or 9; clears the board, default walls), walls N (walls each, clears the board),
clear_board, play COLOR MOVE, genmove COLOR, undo, showboard, set_engine NAME (mcts, the
default, alphabeta or reference-ai: the search genmove runs; depth budgets are the
alpha-beta's), time_settings MAIN BYO STONES
(GTP's; the budget becomes BYO / STONES seconds a move, else MAIN / 30), time_left COLOR T
STONES (GTP's: T / STONES seconds, or T / 25 with STONES 0), set_budget seconds X
| nodes N | playouts N | depth D (nodes and playouts are one budget: alpha-beta nodes, or
the tree searches' playouts), final_status (``white wins``, ``black wins`` or ``playing``), winner
(``white``, ``black`` or ``none``), quit.
"""
from __future__ import annotations

import sys

from engines.gtp import GtpError, format_response, parse_command
from engines.quoridor import rules
from engines.quoridor.engine import ENGINES, SHIPPED_ENGINE, QuoridorEngine

NAME = "soloshop-quoridor"
VERSION = "0.2"
COLOURS = {"white": 0, "w": 0, "1": 0, "black": 1, "b": 1, "2": 1}
COLOUR_NAMES = ("white", "black")
TIME_MARGIN = 0.9  # a genmove searches this share of its seconds (less 10 ms)
TIME_SHARE = 25  # time_left with a game clock: the move gets this share of what is left


def parse_colour(text: str) -> int:
    try:
        return COLOURS[text.lower()]
    except KeyError:
        raise GtpError(f"unknown colour {text!r}: white, black, 1 or 2") from None


def render_board(eng: QuoridorEngine) -> str:
    """ASCII board, the last row at the top: W and B pawns, | vertical walls, - horizontal
    walls, + the corners between four squares (so no line of the reply is blank)."""
    n, walls = eng.size, eng.walls
    pawns = {sq: "WB"[p] for p, sq in enumerate(eng.pawns)}

    def blocked_east(x, y):
        return (x, y, "v") in walls or (x, y - 1, "v") in walls

    def blocked_north(x, y):
        return (x, y, "h") in walls or (x - 1, y, "h") in walls

    lines = []
    for y in range(n - 1, -1, -1):
        row = "".join(pawns.get((x, y), ".") + ("|" if x < n - 1 and blocked_east(x, y) else " ")
                      for x in range(n))
        lines.append(f"{y + 1:>2} {row.rstrip()}")
        if y > 0:
            lines.append("   " + "+".join("-" if blocked_north(x, y - 1) else " "
                                         for x in range(n)))
    lines.append("   " + " ".join(rules.COLUMNS[:n]))
    left = eng.walls_left
    lines.append(f"walls left: white {left[0]}, black {left[1]}; "
                 f"{COLOUR_NAMES[eng.to_move]} to move")
    return "\n".join(lines)


class Session:
    """One protocol session: a game, a search budget and the command table."""

    def __init__(self, size: int = 9, seconds: float | None = None, nodes: int | None = None,
                 depth: int | None = None, engine: str = SHIPPED_ENGINE, seed: int = 0,
                 reuse: bool = True, threads: int = 1):
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}: {', '.join(ENGINES)}")
        self.engine = QuoridorEngine(size, seed=seed, threads=threads)
        self.searcher = engine
        self.reuse = reuse      # genmove keeps the tree of the game's last search (our MCTS)
        self.walls: int | None = None
        self.budget = {"seconds": seconds, "nodes": nodes, "depth": depth}
        if seconds is None and nodes is None and depth is None:
            self.budget["seconds"] = 1.0
        self.quit = False
        self.commands = {
            "protocol_version": lambda a: "2", "name": lambda a: NAME,
            "version": lambda a: f"{VERSION} {self.searcher}", "known_command": self.known_command,
            "list_commands": lambda a: "\n".join(sorted(self.commands)),
            "boardsize": self.boardsize, "walls": self.set_walls,
            "clear_board": self.clear_board, "play": self.play, "genmove": self.genmove,
            "undo": self.undo, "showboard": lambda a: "\n" + render_board(self.engine),
            "time_settings": self.time_settings, "time_left": self.time_left,
            "set_budget": self.set_budget, "set_engine": self.set_engine,
            "final_status": self.final_status, "winner": self.winner, "quit": self.do_quit,
        }

    def handle(self, line: str) -> str | None:
        """The reply to one input line (None for an empty or comment line)."""
        cmd = parse_command(line)
        if cmd is None:
            return None
        try:
            fn = self.commands.get(cmd.name)
            if fn is None:
                raise GtpError(f"unknown command {cmd.name!r}" if cmd.name else "no command")
            return format_response(cmd.id, True, fn(cmd.args) or "")
        except GtpError as e:
            return format_response(cmd.id, False, str(e))
        except (rules.IllegalMove, ValueError) as e:
            return format_response(cmd.id, False, str(e) or type(e).__name__)
        except Exception as e:         # noqa: BLE001  (a reply, never a crash of the loop)
            return format_response(cmd.id, False, f"internal error: {type(e).__name__}: {e}")

    # ---- commands --------------------------------------------------------------------------

    @staticmethod
    def _args(args, count: int, usage: str):
        if len(args) != count:
            raise GtpError(f"usage: {usage}")
        return args

    @staticmethod
    def _int(text: str, what: str) -> int:
        if not (text.isascii() and text.lstrip("-").isdigit()):
            raise GtpError(f"{what} must be an integer, not {text!r}")
        return int(text)

    def known_command(self, args):
        (name,) = self._args(args, 1, "known_command NAME")
        return "true" if name in self.commands else "false"

    def boardsize(self, args):
        size = self._int(self._args(args, 1, "boardsize N")[0], "size")
        if size not in (5, 7, 9):
            raise GtpError(f"unacceptable size {size}: 5, 7 or 9")
        self.walls = None
        self.engine.clear(size=size, walls=rules.default_walls(size))

    def set_walls(self, args):
        walls = self._int(self._args(args, 1, "walls N")[0], "walls")
        if not 0 <= walls <= rules.MAX_WALLS:
            raise GtpError(f"unacceptable wall count {walls}: 0..{rules.MAX_WALLS}")
        self.walls = walls
        self.engine.clear(walls=walls)

    def clear_board(self, args):
        self._args(args, 0, "clear_board")
        size = self.engine.size
        self.engine.clear(size=size, walls=rules.default_walls(size) if self.walls is None
                          else self.walls)

    def _colour_to_move(self, text: str) -> int:
        colour = parse_colour(text)
        if self.engine.winner is not None:
            raise GtpError("the game is over")
        if colour != self.engine.to_move:
            raise GtpError(f"it is {COLOUR_NAMES[self.engine.to_move]}'s turn")
        return colour

    def play(self, args):
        colour, move = self._args(args, 2, "play COLOR MOVE")
        self._colour_to_move(colour)
        self.engine.play(move)

    def genmove(self, args):
        self._colour_to_move(self._args(args, 1, "genmove COLOR")[0])
        budget = dict(self.budget)
        if budget["seconds"]:   # answer within the budget: leave room for the reply and the OS
            budget["seconds"] = max(0.01, budget["seconds"] * TIME_MARGIN - 0.01)
        result = self.engine.genmove(engine=self.searcher, reuse=self.reuse, **budget)
        if result["move"] is None:
            raise GtpError("no legal move")
        return result["move"]

    def undo(self, args):
        self._args(args, 0, "undo")
        if not self.engine.undo():
            raise GtpError("cannot undo: no move played")

    def time_settings(self, args):
        main, byo, stones = (self._int(a, "time") for a in self._args(
            args, 3, "time_settings MAIN BYO STONES"))
        seconds = byo / stones if byo > 0 and stones > 0 else main / 30
        self.budget = {"seconds": max(seconds, 0.01), "nodes": None, "depth": None}

    def time_left(self, args):
        colour, left, stones = self._args(args, 3, "time_left COLOR SECONDS STONES")
        parse_colour(colour)
        left, stones = self._int(left, "time"), self._int(stones, "stones")
        if left < 0 or stones < 0:
            raise GtpError("time and stones must not be negative")
        # a game clock: a share of what is left (about 25 moves to go); byo-yomi: per stone
        seconds = left / stones if stones > 0 else left / TIME_SHARE
        self.budget = {"seconds": max(seconds, 0.01), "nodes": None, "depth": None}

    def set_engine(self, args):
        (name,) = self._args(args, 1, "set_engine " + " | ".join(ENGINES))
        if name not in ENGINES:
            raise GtpError(f"unknown engine {name!r}: {', '.join(ENGINES)}")
        self.searcher = name

    def set_budget(self, args):
        kind, value = self._args(args, 2, "set_budget seconds X | nodes N | depth D")
        kind = "nodes" if kind == "playouts" else kind
        if kind == "seconds":
            try:
                seconds = float(value)
            except ValueError:
                raise GtpError(f"seconds must be a number, not {value!r}") from None
            if not 0 < seconds < 1e6:
                raise GtpError("seconds must be positive")
            self.budget = {"seconds": seconds, "nodes": None, "depth": None}
        elif kind in ("nodes", "depth"):
            n = self._int(value, kind)
            if n <= 0:
                raise GtpError(f"{kind} must be positive")
            self.budget = {"seconds": None, "nodes": None, "depth": None, kind: n}
        else:
            raise GtpError("usage: set_budget seconds X | nodes N | depth D")

    def final_status(self, args):
        w = self.engine.winner
        return "playing" if w is None else f"{COLOUR_NAMES[w]} wins"

    def winner(self, args):
        w = self.engine.winner
        return "none" if w is None else COLOUR_NAMES[w]

    def do_quit(self, args):
        self.quit = True


def run(stdin=None, stdout=None, **options) -> int:
    """Serve the protocol until quit or end of input; returns the exit code. OPTIONS: size,
    seconds, nodes, depth, engine, seed, reuse, threads (Session's)."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    session = Session(**options)
    for line in stdin:
        reply = session.handle(line)
        if reply is not None:
            stdout.write(reply)
            stdout.flush()
        if session.quit:
            break
    return 0


def main(argv=None) -> int:
    """python -m engines.quoridor.protocol [--size N] [--seconds X | --nodes N | --depth D]
    [--rollouts N] [--engine mcts|alphabeta|reference-ai] [--seed S] [--threads N]"""
    args, budget = list(sys.argv[1:] if argv is None else argv), {}
    kinds = {"--size": ("size", int), "--seconds": ("seconds", float), "--nodes": ("nodes", int),
             "--depth": ("depth", int), "--engine": ("engine", str), "--seed": ("seed", int),
             "--rollouts": ("nodes", int), "--playouts": ("nodes", int),
             "--threads": ("threads", int)}
    while args:
        flag = args.pop(0)
        if flag not in kinds or not args:
            print(main.__doc__, file=sys.stderr)
            return 2
        key, conv = kinds[flag]
        budget[key] = conv(args.pop(0))
    return run(**budget)


if __name__ == "__main__":
    raise SystemExit(main())

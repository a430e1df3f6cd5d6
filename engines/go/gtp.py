"""GTP v2 for the Go engine: time management, the engine adapter and the stdin/stdout loop.

Layers, top to bottom:

- protocol (pure): ``parse_command`` turns one input line into a ``Command`` (or None for an
  empty/comment line); ``format_response`` builds the ``=``/``?`` reply, blank-line terminated.
- ``allot_seconds`` (pure): how long to think for one move under GTP time settings.
- ``engines.gtp`` (the line protocol) and ``engines.gtp_client`` (``GtpClient``, an engine in a
  subprocess, for the match runner and the referee) are shared with the other games.
- ``GtpSession``: the adapter that maps commands onto a ``GoEngine``; every failure becomes a
  GTP error, never an exception out of ``handle``.
- ``run_gtp``: the stdin/stdout loop behind ``engines gtp go``.
"""
from __future__ import annotations

import io
import math
import sys
import time
from dataclasses import dataclass

from engines.go import handicap
from engines.go.coords import BadVertex, from_gtp, to_gtp
from engines.gtp import Command, GtpError, format_response, parse_command

NAME = "soloshop"
PROTOCOL_VERSION = "2"
DEFAULT_KOMI = 7.5  # until the controller sends `komi`
FREE_HANDICAP_PLAYOUTS = 3000  # search per stone that place_free_handicap chooses itself


# ---------------------------------------------------------------- protocol layer (pure)
# The line protocol itself (Command, parse_command, format_response, GtpError) is engines.gtp.


def parse_color(text: str) -> str:
    color = text.lower()
    if color in ("b", "black"):
        return "b"
    if color in ("w", "white"):
        return "w"
    raise GtpError("syntax error (colour must be black or white)")


def format_score(score: float) -> str:
    """Positive = black ahead, as in ``B+3.5``; an exact tie is ``0``."""
    if score == 0:
        return "0"
    points = f"{abs(score):g}"
    return f"{'B' if score > 0 else 'W'}+{points}"


# ---------------------------------------------------------------- time management (pure)


@dataclass
class TimeSettings:
    main: float = 0.0
    byo_time: float = 0.0
    byo_stones: int = 0

    @property
    def unlimited(self) -> bool:
        # GTP: byo-yomi time > 0 with 0 stones means no limit; all zero also means no limit here
        # (an absolute time of zero cannot be played).
        return (self.byo_time > 0 and self.byo_stones == 0) or (
            self.main == 0 and self.byo_time == 0)


@dataclass
class ClockState:
    """One colour's remaining time: main time, or (once main is spent) the byo-yomi period."""

    main_left: float
    period_left: float
    stones_left: int


SAFETY = 0.02  # seconds kept back for process, pipe and scheduling overhead on every move
SHARE = 0.97   # ... and the share of the rest that is spent (at most 13 ms of overhead measured, quiet)


def allot_seconds(settings: TimeSettings, clock: ClockState, empty_points: int,
                  cap: float | None) -> float | None:
    """Seconds to spend on the next move, or None when there is no limit and no cap.

    In main time: an even share over the moves likely left (a third of the empty points, at
    least 10), plus the byo-yomi share that is safe to use anyway. In byo-yomi: the period's time
    divided by the stones still to play in it. Spends SHARE of it less SAFETY, and respects
    ``cap``.
    """
    if settings.unlimited:
        return cap
    moves_left = max(10, empty_points // 3)
    per_stone = settings.byo_time / settings.byo_stones if settings.byo_stones else 0.0
    if clock.main_left > 0:
        seconds = clock.main_left / moves_left + 0.9 * per_stone
        seconds = min(seconds, clock.main_left * 0.5 + 0.9 * per_stone)
    elif clock.stones_left > 0:
        seconds = clock.period_left / clock.stones_left
    else:
        seconds = 0.0
    seconds = max(0.01, SHARE * seconds - SAFETY)
    return seconds if cap is None else min(seconds, cap)


def spend(settings: TimeSettings, clock: ClockState, elapsed: float) -> ClockState:
    """The clock after a move that took ``elapsed`` seconds (used when no time_left arrives)."""
    if settings.unlimited:
        return clock
    main_left, period_left, stones = clock.main_left, clock.period_left, clock.stones_left
    if main_left > 0:
        main_left -= elapsed
        if main_left > 0:
            return ClockState(main_left, period_left, stones)
        elapsed, main_left = -main_left, 0.0
        period_left, stones = settings.byo_time, settings.byo_stones
    period_left -= elapsed
    stones -= 1
    if stones <= 0:  # period complete: a fresh one starts
        period_left, stones = settings.byo_time, settings.byo_stones
    return ClockState(0.0, max(0.0, period_left), stones)


# ---------------------------------------------------------------- engine adapter


DEFAULT_SECONDS = 1.0  # per move when neither a budget nor time settings say otherwise


@dataclass
class Budget:
    playouts: int | None = None
    seconds: float | None = None  # asked for: per move, and a cap on what time settings allot
    threads: int | None = None


class GtpSession:
    """Maps GTP commands onto a GoEngine. ``handle`` never raises: errors become ``?`` replies."""

    def __init__(self, engine, budget: Budget | None = None):
        self.engine = engine
        self.budget = budget or Budget()
        self.time_settings = TimeSettings()
        self.clocks: dict[str, ClockState] = {}
        self.setup_count = 0  # moves at the start of the history that are SGF setup stones
        self.done = False
        self.handlers = {
            "protocol_version": lambda args: PROTOCOL_VERSION,
            "name": lambda args: NAME,
            "version": self.cmd_version,
            "known_command": lambda args: "true" if args and args[0] in self.handlers else "false",
            "list_commands": lambda args: "\n".join(sorted(self.handlers)),
            "quit": self.cmd_quit,
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "komi": self.cmd_komi,
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "reg_genmove": self.cmd_reg_genmove,
            "undo": self.cmd_undo,
            "showboard": self.cmd_showboard,
            "final_score": self.cmd_final_score,
            "final_status_list": self.cmd_final_status_list,
            "time_settings": self.cmd_time_settings,
            "time_left": self.cmd_time_left,
            "fixed_handicap": self.cmd_fixed_handicap,
            "place_free_handicap": self.cmd_place_free_handicap,
            "set_free_handicap": self.cmd_set_free_handicap,
            "loadsgf": self.cmd_loadsgf,
            "printsgf": self.cmd_printsgf,
            "soloshop-playouts": self.cmd_playouts,
            "soloshop-seconds": self.cmd_seconds,
            "soloshop-threads": self.cmd_threads,
        }

    # -- dispatch

    def handle(self, command: Command) -> tuple[bool, str]:
        handler = self.handlers.get(command.name)
        if handler is None:
            return False, "unknown command"
        try:
            return True, handler(command.args) or ""
        except GtpError as error:
            return False, str(error)
        except Exception as error:  # noqa: BLE001 - a GTP engine must answer, never crash
            return False, f"internal error: {type(error).__name__}: {error}"

    def respond(self, line: str) -> str | None:
        """The full reply to one input line, or None when the line carries no command."""
        command = parse_command(line)
        if command is None:
            return None
        if not command.name:
            return format_response(command.id, False, "syntax error (no command after id)")
        ok, text = self.handle(command)
        return format_response(command.id, ok, text)

    # -- helpers

    @property
    def size(self) -> int:
        return len(self.engine.board())

    def _vertex(self, text: str):
        try:
            return from_gtp(text, self.size)
        except BadVertex as error:
            if "off a" in str(error):
                raise GtpError("illegal move (vertex off the board)") from None
            raise GtpError(f"syntax error ({error})") from None

    def _vertex_list(self, points) -> str:
        return " ".join(to_gtp(p, self.size) for p in points)

    def _args(self, args, count: int, usage: str):
        if len(args) < count:
            raise GtpError(f"syntax error (usage: {usage})")
        return args

    def _number(self, text: str, kind=float):
        try:
            value = kind(text)
        except ValueError:
            raise GtpError(f"syntax error ('{text}' is not a number)") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise GtpError(f"syntax error ('{text}' is not a finite number)")
        return value

    def _reset_game(self) -> None:
        self.setup_count = 0
        self.clocks = {}

    # -- commands

    def cmd_version(self, args):
        try:
            from importlib.metadata import version
            return version("soloshop")
        except Exception:  # noqa: BLE001 - running from a source tree without metadata
            return "dev"

    def cmd_quit(self, args):
        self.done = True
        return ""

    def cmd_boardsize(self, args):
        size = self._number(self._args(args, 1, "boardsize N")[0], int)
        try:
            self.engine.clear(size=size)
        except Exception:  # noqa: BLE001 - the core names its own limits
            raise GtpError("unacceptable size") from None
        self._reset_game()

    def cmd_clear_board(self, args):
        self.engine.clear()
        self._reset_game()

    def cmd_komi(self, args):
        self.engine.set_komi(self._number(self._args(args, 1, "komi K")[0]))

    def cmd_play(self, args):
        color_text, vertex_text = self._args(args, 2, "play COLOR VERTEX")[:2]
        color, point = parse_color(color_text), self._vertex(vertex_text)
        self._play(color, point)

    def _play(self, color, point):
        from engines.go import IllegalMove

        try:
            self.engine.play(color, point)
        except IllegalMove:
            raise GtpError("illegal move") from None

    def _think_budget(self, color: str) -> dict:
        settings = self.time_settings
        seconds = self.budget.seconds
        if seconds is None and self.budget.playouts is None and settings.unlimited:
            seconds = DEFAULT_SECONDS
        if not settings.unlimited:
            clock = self.clocks.get(color) or ClockState(settings.main, settings.byo_time,
                                                         settings.byo_stones)
            empty = sum(row.count(".") for row in self.engine.board())
            seconds = allot_seconds(settings, clock, empty, self.budget.seconds)
        return {"playouts": self.budget.playouts, "seconds": seconds}

    def cmd_genmove(self, args):
        color = parse_color(self._args(args, 1, "genmove COLOR")[0])
        started = time.monotonic()
        move = self.engine.genmove(color, **self._think_budget(color))
        if not self.time_settings.unlimited:
            clock = self.clocks.get(color) or ClockState(
                self.time_settings.main, self.time_settings.byo_time, self.time_settings.byo_stones)
            self.clocks[color] = spend(self.time_settings, clock, time.monotonic() - started)
        if move == "resign":
            return "resign"
        return to_gtp(move, self.size)

    def cmd_reg_genmove(self, args):
        color = parse_color(self._args(args, 1, "reg_genmove COLOR")[0])
        move = self.engine.genmove(color, **self._think_budget(color))
        if move == "resign":
            return "resign"
        self.engine.undo()
        return to_gtp(move, self.size)

    def cmd_undo(self, args):
        if len(self.engine.moves()) <= self.setup_count or not self.engine.undo():
            raise GtpError("cannot undo")

    def cmd_showboard(self, args):
        return render_board(self.engine.board(), self.engine.captures, self.engine.to_move)

    def cmd_final_score(self, args):
        return format_score(self.engine.final_score())

    def cmd_final_status_list(self, args):
        status = self._args(args, 1, "final_status_list alive|dead|seki")[0].lower()
        if status not in ("alive", "dead", "seki"):
            raise GtpError("syntax error (status must be alive, dead or seki)")
        if status == "seki":
            return ""  # seki is not told apart: such stones are reported alive
        dead = set(map(tuple, self.engine.dead_stones()))
        if status == "dead":
            points = sorted(dead, key=lambda p: (p[1], p[0]))
        else:
            points = [(x, y) for y, row in enumerate(self.engine.board())
                      for x, cell in enumerate(row) if cell != "." and (x, y) not in dead]
        return self._vertex_list(points)

    def cmd_time_settings(self, args):
        main, byo, stones = self._args(args, 3, "time_settings MAIN BYO_TIME BYO_STONES")[:3]
        settings = TimeSettings(self._number(main), self._number(byo), self._number(stones, int))
        if settings.main < 0 or settings.byo_time < 0 or settings.byo_stones < 0:
            raise GtpError("syntax error (negative time)")
        self.time_settings = settings
        self.clocks = {}

    def cmd_time_left(self, args):
        color_text, seconds, stones = self._args(args, 3, "time_left COLOR TIME STONES")[:3]
        color, seconds, stones = parse_color(color_text), self._number(seconds), self._number(stones, int)
        if stones == 0:  # still in main time (or absolute time)
            self.clocks[color] = ClockState(seconds, self.time_settings.byo_time,
                                            self.time_settings.byo_stones)
        else:
            self.clocks[color] = ClockState(0.0, seconds, stones)

    # Handicap stones are setup, not moves: they count in setup_count (undo keeps them, printsgf
    # writes them as AB), and white moves next.

    def _require_empty_board(self) -> None:
        if self.engine.moves() or any(c != "." for row in self.engine.board() for c in row):
            raise GtpError("board not empty")

    def _handicap_stones(self, args, usage: str) -> int:
        stones = self._number(self._args(args, 1, usage)[0], int)
        self._require_empty_board()
        return stones

    def _place_handicap(self, points) -> str:
        """Black stones on points, recorded as setup; the reply lists them."""
        for point in points:
            self._play("b", point)
        self.setup_count = len(self.engine.moves())
        return self._vertex_list(points)

    def cmd_fixed_handicap(self, args):
        stones = self._handicap_stones(args, "fixed_handicap NUMBER")
        try:
            points = handicap.fixed_points(self.size, stones)
        except handicap.HandicapError as error:
            raise GtpError(f"invalid number of stones ({error})") from None
        return self._place_handicap(points)

    def cmd_place_free_handicap(self, args):
        """The fixed points as far as they go, then the engine's own choices (it may stop
        early when it passes: GTP allows fewer stones than asked when more cannot matter)."""
        stones = self._handicap_stones(args, "place_free_handicap NUMBER")
        try:
            handicap.check_free_count(self.size, stones)
        except handicap.HandicapError as error:
            raise GtpError(f"invalid number of stones ({error})") from None
        fixed = min(stones, handicap.max_fixed(self.size))
        points = handicap.fixed_points(self.size, fixed) if fixed >= handicap.MIN_STONES else []
        for point in points:
            self._play("b", point)
        playouts = min(FREE_HANDICAP_PLAYOUTS, self.budget.playouts or FREE_HANDICAP_PLAYOUTS)
        while len(points) < stones:
            move = self.engine.genmove("b", playouts=playouts, seconds=None)  # plays it
            if move is None:
                self.engine.undo()   # a pass is no stone: more stones would not matter
            if move in (None, "resign"):
                break
            points.append(tuple(move))
        self.setup_count = len(self.engine.moves())
        return self._vertex_list(points)

    def cmd_set_free_handicap(self, args):
        self._require_empty_board()
        try:
            handicap.check_free_count(self.size, len(args))
        except handicap.HandicapError as error:
            raise GtpError(f"bad vertex list ({error})") from None
        points = []
        for text in args:
            try:
                point = from_gtp(text, self.size)
            except BadVertex as error:
                raise GtpError(f"bad vertex list ({error})") from None
            if point is None:
                raise GtpError("bad vertex list (pass is not a handicap stone)")
            if point in points:
                raise GtpError(f"bad vertex list ({text} repeated)")
            points.append(point)
        self._place_handicap(points)

    def cmd_loadsgf(self, args):
        from engines.go import sgf

        path = self._args(args, 1, "loadsgf FILE [MOVE_NUMBER]")[0]
        upto = self._number(args[1], int) if len(args) > 1 else None
        try:
            record = sgf.load(path)
        except (OSError, sgf.SgfError) as error:
            raise GtpError(f"cannot load file ({error})") from None
        self.replay(record, upto)

    def replay(self, record, upto: int | None = None) -> None:
        """Set the engine to the record's position (before move number ``upto``, 1-based)."""
        try:
            self.engine.clear(size=record.size)
        except Exception:  # noqa: BLE001
            raise GtpError(f"cannot load file (unacceptable size {record.size})") from None
        self._reset_game()
        self.engine.set_komi(record.komi)
        moves = record.moves if upto is None else record.moves[:max(0, upto - 1)]
        setup = [("b", p) for p in record.setup_black] + [("w", p) for p in record.setup_white]
        for color, point in setup + moves:
            try:
                self._play(color, point)
            except GtpError:
                self.engine.clear(size=record.size)
                self._reset_game()
                raise GtpError(f"cannot load file (illegal move {color.upper()} "
                               f"{to_gtp(point, record.size)})") from None
        self.setup_count = len(setup)

    def record(self):
        from engines.go import sgf

        history = list(self.engine.moves())
        setup, moves = history[:self.setup_count], history[self.setup_count:]
        return sgf.GameRecord(
            size=self.size, komi=float(self.engine.komi),
            rules="Chinese", black="", white="",
            setup_black=[p for c, p in setup if c == "b"],
            setup_white=[p for c, p in setup if c == "w"],
            moves=[(c, None if p is None else tuple(p)) for c, p in moves])

    def cmd_printsgf(self, args):
        from engines.go import sgf

        record = self.record()
        if args:
            try:
                sgf.save(args[0], record)
            except OSError as error:
                raise GtpError(f"cannot save file ({error})") from None
            return ""
        return sgf.dumps(record)

    def cmd_playouts(self, args):
        playouts = self._number(self._args(args, 1, "soloshop-playouts N (0 = no limit)")[0], int)
        if playouts < 0:
            raise GtpError("syntax error (playouts must be >= 0)")
        self.budget.playouts = playouts or None

    def cmd_seconds(self, args):
        seconds = self._number(self._args(args, 1, "soloshop-seconds S (0 = no limit)")[0])
        if seconds < 0:
            raise GtpError("syntax error (seconds must be >= 0)")
        if not seconds and self.budget.playouts is None:
            raise GtpError("a budget needs playouts or seconds; set soloshop-playouts first")
        self.budget.seconds = seconds or None

    def cmd_threads(self, args):
        threads = self._number(self._args(args, 1, "soloshop-threads N")[0], int)
        if threads < 1:
            raise GtpError("syntax error (threads must be >= 1)")
        self.engine.set_budget(threads=threads)
        self.budget.threads = threads


def render_board(rows, captures, to_move) -> str:
    """The board as text with GTP coordinates (X black, O white), as showboard prints it."""
    size = len(rows)
    letters = " ".join("ABCDEFGHJKLMNOPQRST"[:size])
    lines = [f"   {letters}"]
    symbol = {".": ".", "b": "X", "w": "O"}
    for y, row in enumerate(rows):
        number = size - y
        lines.append(f"{number:2d} {' '.join(symbol[c] for c in row)} {number}")
    lines.append(f"   {letters}")
    lines.append(f"captures: black {captures.get('b', 0)} white {captures.get('w', 0)}; "
                 f"{'black' if to_move == 'b' else 'white'} to move")
    return "\n".join(lines)


# ---------------------------------------------------------------- stdin/stdout loop


def run_gtp(stdin=None, stdout=None, engine=None, budget: Budget | None = None,
            seed: int = 0, value: bool = True) -> int:
    """Serve GTP until ``quit`` or end of input; returns the process exit code. VALUE: the
    engine this creates searches with the learned network's priors (on the size it knows)."""
    if stdin is None:  # undecodable bytes must become a GTP error, not a UnicodeDecodeError
        stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    stdout = stdout or sys.stdout
    if engine is None:
        try:
            from engines.go import GoEngine
        except ImportError as error:
            print(f"engines gtp go: the Go core is not built ({error}); "
                  "run `make venv` (pip install -e .) to build it", file=sys.stderr)
            return 1
        engine = GoEngine(size=19, komi=DEFAULT_KOMI, seed=seed, value=value)
    if budget and budget.threads:
        engine.set_budget(threads=budget.threads)
    session = GtpSession(engine, budget)
    try:
        for line in stdin:
            reply = session.respond(line)
            if reply is None:
                continue
            stdout.write(reply)
            stdout.flush()
            if session.done:
                break
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the controller went away: nothing left to answer
    finally:
        close = getattr(engine, "close", None)
        if close:
            close()
    return 0

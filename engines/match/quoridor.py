"""The Quoridor adapter: two engines over Quoridor's line protocol (`engines quoridor`, GTP-shaped),
judged move by move by the readable rules (`engines.quoridor.rules`).

Colours are the protocol's: ``white`` is player one (starts on e1, moves first), ``black`` player
two. The runner's candidate colour 'w' is white and 'b' black, so "as black" in a summary means
moving second; pairs swap colours as for every game.

Each side (`Side`) has a command line and limits: seconds per move (``set_budget seconds S``,
else GTP's ``time_settings 0 S 1``), a game clock BASE+INC (``time_settings BASE 0 0`` once,
then ``time_left COLOR T 0`` before every move; the runner keeps the clock and adds the
increment), or a node budget (``set_budget nodes N``). A move over S + tolerance, or a clock
below -tolerance, loses on time.

A game starts from its opening (moves sent with ``play`` to both engines) and ends when a pawn
reaches its goal row, on a forfeit, or in a draw: the same position (pawns, walls, walls left,
side to move) a third time, or no winner after ``max_moves`` plies (default 20 x size, 180 on
9x9). Forfeits and their reasons
(`GameResult.forfeit`): 'illegal' (a move the rules refuse; the rules' reason is recorded),
'crash' (the engine exited), 'time' (over its time), 'timeout' (no answer within --timeout and
no time control to blame), 'garbage' (an answer that is no protocol reply or no move),
'refused' (it refused a setup command, the opening or the other side's legal move).

Openings: 'generate' gives each pair `opening_plies` random legal moves (a pawn step three times
in four, else a wall) from a `random.Random` seeded by the match seed and the board, distinct
within a match; a file has one opening a line (`engines.quoridor.record.parse_openings`); None
starts from the start position. The record of every game is saved as OUT/game-NNN.qdr
(`engines.quoridor.record`) and journaled. Command lines take {seed} and {size} placeholders.
"""
from __future__ import annotations

import hashlib
import math
import os
import random
import shlex
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from engines.gtp_client import GtpClient, GtpClientError
from engines.match.adapter import GameSpec
from engines.match.commands import build_argv, engines_command
from engines.match.pool import Cancelled, stopping
from engines.match.results import GameResult
from engines.quoridor import record as qrecord
from engines.quoridor import rules
from plumbing.errors import NamedError

REPETITIONS = 3  # the same position (pawns, walls, walls left, side to move) this often: a draw
DEFAULT_TOLERANCE = 0.5
DEFAULT_TIMEOUT = 60.0
COLOUR = {"w": "white", "b": "black"}  # the runner's colour -> the protocol's
PLAYER = {"w": 0, "b": 1}


class MatchSetupError(NamedError):
    """A match that cannot start: an engine that does not exist or cannot play."""


class OpeningFileError(NamedError):
    """An opening file that cannot be used: names the file, the line and the move."""


def default_engine_cmd(*args: str) -> str:
    return engines_command("quoridor", *args)


@dataclass
class Side:
    """One player's command line and limits."""

    cmd: str
    seconds: float | None = None  # per move
    tc: tuple[float, float] | None = None  # per game: base seconds, increment per move
    nodes: int | None = None  # a node (or playout) budget per move

    def describe(self) -> str:
        parts = []
        if self.tc:
            parts.append(f"{self.tc[0]:g}+{self.tc[1]:g} s/game")
        if self.seconds:
            parts.append(f"{self.seconds:g} s/move")
        if self.nodes:
            parts.append(f"{self.nodes} nodes/move")
        return ", ".join(parts) or "its own budget"


@dataclass
class QuoridorSettings:
    size: int
    out: Path  # game-NNN.qdr here, the players' stderr under logs/
    candidate: Side
    opponent: Side
    walls: int | None = None  # each player's; None: the size's default
    max_moves: int | None = None  # plies before a draw; None: 20 x size
    tolerance: float = DEFAULT_TOLERANCE
    timeout: float = DEFAULT_TIMEOUT
    openings: str | None = "generate"  # a file, "generate", or None (the start position)
    opening_plies: int = 2

    @property
    def move_limit(self) -> int:
        return self.max_moves or 20 * self.size

    @property
    def wall_count(self) -> int:
        return rules.default_walls(self.size) if self.walls is None else self.walls


@dataclass(frozen=True)
class Opening:
    id: str
    moves: tuple[str, ...] = ()


START = Opening("start")


def generate_openings(size: int, walls: int, count: int, seed: int, plies: int) -> list[Opening]:
    """COUNT distinct openings of PLIES random legal moves each (see the module docstring)."""
    rng = random.Random(f"quoridor-openings:{seed}:{size}:{walls}:{plies}")
    seen, out = set(), []
    for _ in range(200 * count):
        if len(out) == count:
            break
        game = rules.Game(size, walls)
        for _ in range(plies):
            walls_ok = game.walls_left[game.to_move] > 0 and rng.random() < 0.25
            moves = game.legal_walls() if walls_ok else game.legal_pawn_moves()
            game.play(rng.choice(moves))
            if game.winner is not None:
                break
        moves = tuple(game.moves())
        if game.winner is None and moves not in seen:
            seen.add(moves)
            out.append(Opening(f"g{len(out) + 1}:{' '.join(moves)}", moves))
    return out or [START]


def load_openings(path: str, size: int, walls: int | None) -> list[Opening]:
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise OpeningFileError(f"cannot read the opening file {path}: {error.strerror}") from None
    try:
        lines = qrecord.parse_openings(text, size, walls, source=str(path))
    except qrecord.RecordError as error:
        raise OpeningFileError(f"{error} (one opening a line, moves like e2 e8 c3h)") from None
    return [Opening(f"{path}:{i + 1}:{' '.join(m)}", tuple(m)) for i, m in enumerate(lines)]


def _source_id(path: str) -> str:
    try:
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    except OSError:
        digest = "unreadable"
    return f"{path} (sha256 {digest})"


class QuoridorAdapter:
    """Quoridor games between two line-protocol engines, judged by engines.quoridor.rules."""

    game = "quoridor"
    fatal = ()

    def __init__(self, settings: QuoridorSettings):
        self.settings = settings
        self.limit = settings.candidate.seconds
        self.names: dict[str, str] = {}
        (settings.out / "logs").mkdir(parents=True, exist_ok=True)

    def openings(self, pairs: int, seed: int) -> list:
        s = self.settings
        if not s.openings:
            return [START]
        if s.openings == "generate":
            return generate_openings(s.size, s.wall_count, pairs, seed, s.opening_plies)
        return load_openings(s.openings, s.size, s.walls)

    def check(self) -> None:
        """Both engines start and take the board; else MatchSetupError."""
        s = self.settings
        for role, side in (("candidate", self.settings.candidate),
                           ("opponent", self.settings.opponent)):
            argv = build_argv(side.cmd, seed=1, size=s.size)
            if not argv or not (shutil.which(argv[0]) or os.access(argv[0], os.X_OK)):
                raise MatchSetupError(f"the match stopped before any game: the {role} command "
                                      f"{argv[0] if argv else repr(side.cmd)} does not exist "
                                      f"({side.cmd})")
            try:
                with GtpClient(argv, name=role, timeout=min(s.timeout, 60.0),
                               own_session=True) as client:
                    client.command(f"boardsize {s.size}")
                    client.command(f"walls {s.wall_count}")
                    name, version = client.command("name"), client.command("version")
            except (OSError, GtpClientError) as error:
                raise MatchSetupError(f"the match stopped before any game: the {role} "
                                      f"({side.cmd}) cannot play Quoridor on {s.size}x{s.size} "
                                      f"with {s.wall_count} walls: {error}") from None
            self.names[role] = f"{name} {version}".strip()

    def options(self) -> dict:
        s = self.settings
        source = s.openings
        if source and source != "generate":
            source = _source_id(source)
        return {"size": s.size, "walls": s.wall_count, "max_moves": s.move_limit,
                "engine": s.candidate.cmd, "opponent": s.opponent.cmd,
                "seconds": s.candidate.seconds, "tc": s.candidate.tc,
                "nodes": s.candidate.nodes, "opponent_seconds": s.opponent.seconds,
                "opponent_tc": s.opponent.tc, "opponent_nodes": s.opponent.nodes,
                "tolerance": s.tolerance, "timeout": s.timeout, "openings": source,
                "opening_plies": s.opening_plies}

    def conditions(self) -> dict:
        s = self.settings
        return {"candidate": self.names.get("candidate", "candidate"),
                "opponent": self.names.get("opponent", "opponent"),
                "candidate_cmd": s.candidate.cmd, "opponent_cmd": s.opponent.cmd,
                "candidate_limits": s.candidate.describe(),
                "opponent_limits": s.opponent.describe(),
                "size": s.size, "walls": s.wall_count, "seconds": s.candidate.seconds,
                "max_moves": s.move_limit, "tolerance": s.tolerance, "timeout": s.timeout,
                "openings": (f"generated, {s.opening_plies} plies" if s.openings == "generate"
                             else s.openings or "none (start position)")}

    def commands(self) -> list[str]:
        s = self.settings
        return [shlex.join(build_argv(side.cmd, seed=1, size=s.size))
                for side in (s.candidate, s.opponent)]

    def threads_per_game(self) -> int:
        return 1

    def describe(self, c: dict) -> str:
        return (f"Quoridor {c['size']}x{c['size']}, {c['walls']} walls each, draw after "
                f"{c['max_moves']} plies, candidate {c['candidate_limits']}, opponent "
                f"{c['opponent_limits']}, openings {c['openings']}, tolerance "
                f"{c['tolerance']} s, seeds {c['seeds']}, {c['jobs']} game(s) at a time")


class Forfeit(Exception):
    def __init__(self, role: str, kind: str, detail: str):
        super().__init__(detail)
        self.role, self.kind, self.detail = role, kind, detail


def play_one(task: tuple[QuoridorSettings, GameSpec]) -> GameResult:
    """Play one game: the function a pool runs (module level, one picklable argument)."""
    settings, spec = task
    return QuoridorGame(settings, spec).play()


QuoridorAdapter.play_one = staticmethod(play_one)


def _nth(n: int) -> str:
    return {2: "second", 3: "third"}.get(n, f"{n}th")


def other(color: str) -> str:
    return "w" if color == "b" else "b"


@dataclass
class QuoridorGame:
    settings: QuoridorSettings
    spec: GameSpec
    clients: dict = field(default_factory=dict)
    times: dict = field(default_factory=lambda: {"candidate": [], "opponent": []})

    def play(self) -> GameResult:
        s, spec = self.settings, self.spec
        self.role_of = {spec.candidate_color: "candidate",
                        other(spec.candidate_color): "opponent"}
        self.color_of = {v: k for k, v in self.role_of.items()}
        self.sides = {"candidate": s.candidate, "opponent": s.opponent}
        opening = spec.opening or START
        game = rules.Game(s.size, s.wall_count)
        names = {"candidate": "candidate", "opponent": "opponent"}
        forfeit, winner = None, None
        try:
            try:
                for role in ("candidate", "opponent"):
                    names[role] = self._start(role)
                winner, reason, ending = self._play(game, opening)
            except Forfeit as error:
                forfeit = error
                winner = other(self.color_of[error.role])
                reason, ending = f"{error.role} ({error.kind}): {error.detail}", "forfeit"
        finally:
            for client in self.clients.values():
                client.close()
        result = COLOUR[winner] if winner else "draw"
        rec = qrecord.Record(
            size=s.size, walls=s.wall_count, moves=game.moves(),
            white=names[self.role_of["w"]], black=names[self.role_of["b"]], result=result,
            tags={"Opening": " ".join(opening.moves) or "start", "Reason": reason,
                  "Comment": f"match seed {spec.seed}; candidate {s.candidate.describe()}; "
                             f"opponent {s.opponent.describe()}"})
        text = qrecord.dumps(rec)
        path = s.out / f"game-{spec.index:03d}.qdr"
        path.write_text(text)
        points = 0.5 if winner is None else float(winner == spec.candidate_color)
        return GameResult(spec.index, spec.seed, spec.candidate_color, result, winner, points,
                          reason, ending, len(game.history), self.times["candidate"],
                          self.times["opponent"], False, str(path), pair=spec.pair,
                          opening=opening.id, forfeit=forfeit.kind if forfeit else "",
                          forfeited_by=forfeit.role if forfeit else "", record=text,
                          record_format="quoridor")

    # -- talking to the engines

    def _command(self, role: str, line: str, timeout: float | None = None,
                 time_control: bool = False) -> str:
        try:
            return self.clients[role].command(line, timeout=timeout)
        except GtpClientError as error:
            raise self._forfeit(role, error, time_control) from None

    @staticmethod
    def _forfeit(role: str, error: GtpClientError, time_control: bool = False) -> Exception:
        if error.kind == "cancelled":
            return Cancelled(str(error))
        if error.kind == "timeout":
            if time_control:
                return Forfeit(role, "time", f"over its time: {error}")
            return Forfeit(role, "timeout", f"stopped answering: {error}")
        return Forfeit(role, error.kind, str(error))

    def _setup(self, role: str, line: str) -> None:
        """A setup command the engine must accept (a refusal forfeits)."""
        try:
            self.clients[role].command(line)
        except GtpClientError as error:
            if error.kind == "refused":
                raise Forfeit(role, "refused", f"refused '{line}': {error}") from None
            raise self._forfeit(role, error) from None

    def _start(self, role: str) -> str:
        s, side = self.settings, self.sides[role]
        argv = build_argv(side.cmd, seed=self.spec.seed, size=s.size)
        log_path = s.out / "logs" / f"game-{self.spec.index:03d}-{role}.stderr"
        try:
            with open(log_path, "wb") as log:  # the child holds its own copy of the descriptor
                self.clients[role] = GtpClient(argv, name=role, stderr=log, timeout=s.timeout,
                                               own_session=True, cancelled=stopping)
        except OSError as error:
            raise Forfeit(role, "crash", f"cannot start {side.cmd}: {error}") from None
        self._setup(role, f"boardsize {s.size}")
        self._setup(role, f"walls {s.wall_count}")
        name, version = self._command(role, "name"), self._command(role, "version")
        self._limit(role, side)
        return f"{name} {version}".strip()

    def _known(self, role: str, command: str) -> bool:
        return self._command(role, f"known_command {command}") == "true"

    def _limit(self, role: str, side: Side) -> None:
        budget = self._known(role, "set_budget")
        if side.nodes:
            if not budget:
                raise Forfeit(role, "refused", "has no set_budget command for a node budget")
            self._setup(role, f"set_budget nodes {side.nodes}")
        if side.tc:
            self._setup(role, f"time_settings {math.ceil(side.tc[0])} 0 0")
        elif side.seconds:
            self._setup(role, f"set_budget seconds {side.seconds:g}" if budget
                        else f"time_settings 0 {math.ceil(side.seconds)} 1")

    # -- the game

    def _play(self, game: rules.Game, opening: Opening):
        """Play to the end: (winner colour or None, reason, ending kind)."""
        s = self.settings
        for move in opening.moves:
            colour = "w" if game.to_move == 0 else "b"
            game.play(move)
            for role in ("candidate", "opponent"):
                self._tell(role, colour, move, what=f"the opening move {move}")
        clock = {role: side.tc[0] for role, side in self.sides.items() if side.tc}
        seen: dict[int, int] = {}
        while game.winner is None:
            seen[game.hash()] = seen.get(game.hash(), 0) + 1
            if seen[game.hash()] >= REPETITIONS:
                return None, (f"draw: the same position a {_nth(REPETITIONS)} time "
                              f"(move {len(game.history)})"), "repetition"
            if len(game.history) >= s.move_limit:
                return None, f"draw: no winner after {s.move_limit} plies", "max-moves"
            if stopping():
                raise Cancelled("the match is stopping")
            colour = "w" if game.to_move == 0 else "b"
            role = self.role_of[colour]
            reply = self._timed_genmove(role, colour, clock)
            move = self._checked_move(game, role, colour, reply)
            self._tell(self.role_of[other(colour)], colour, move)
        colour = "w" if game.winner == 0 else "b"
        row = s.size if game.winner == 0 else 1
        return colour, f"{COLOUR[colour]} ({self.role_of[colour]}) reached row {row}", "goal"

    def _tell(self, role: str, colour: str, move: str, what: str | None = None) -> None:
        try:
            self.clients[role].command(f"play {COLOUR[colour]} {move}")
        except GtpClientError as error:
            if error.kind == "refused":
                raise Forfeit(role, "refused", f"refused {what or 'the legal move ' + move}: "
                              f"{error}") from None
            raise self._forfeit(role, error) from None

    def _timed_genmove(self, role: str, colour: str, clock: dict) -> str:
        s, side = self.settings, self.sides[role]
        if side.tc:
            self._command(role, f"time_left {COLOUR[colour]} {max(0, math.floor(clock[role]))} 0")
            deadline = max(0.0, clock[role]) + s.tolerance
        elif side.seconds:
            deadline = side.seconds + s.tolerance
        else:
            deadline = s.timeout
        started = time.monotonic()
        reply = self._command(role, f"genmove {COLOUR[colour]}", timeout=deadline,
                              time_control=bool(side.tc or side.seconds))
        elapsed = time.monotonic() - started
        self.times[role].append(elapsed)
        if side.tc:
            clock[role] -= elapsed
            if clock[role] < -s.tolerance:
                raise Forfeit(role, "time", f"lost on time: {-clock[role]:.2f} s over its "
                              f"{side.tc[0]:g}+{side.tc[1]:g} game time (tolerance "
                              f"{s.tolerance:g} s)")
            clock[role] += side.tc[1]
        elif side.seconds and elapsed > side.seconds + s.tolerance:
            raise Forfeit(role, "time", f"took {elapsed:.2f} s for a move (limit "
                          f"{side.seconds:g} s + tolerance {s.tolerance:g} s)")
        return reply

    def _checked_move(self, game: rules.Game, role: str, colour: str, reply: str) -> str:
        """Play REPLY on the referee's game if it is a legal move; else a forfeit."""
        number = len(game.history) + 1
        text = reply.strip()
        try:
            move = rules.parse_move(text) if text and len(text.split()) == 1 else None
        except rules.IllegalMove:
            move = None
        if move is None:
            raise Forfeit(role, "garbage", f"answered genmove {COLOUR[colour]} with {text!r}, "
                          f"no move (move {number})")
        try:
            game.play(move)
        except rules.IllegalMove as error:
            raise Forfeit(role, "illegal", f"played an illegal move {text} ({error}; move "
                          f"{number})") from None
        return rules.move_name(move)

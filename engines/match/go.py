"""The Go adapter: two GTP engines, GNU Go as the usual opponent, `engines.go.referee` as judge.

Each side (candidate, opponent) has its own limits (`Side`): a time per move (byo-yomi, sent as
`time_settings 0 S 1`), a time per game (base + increment: `time_settings BASE 0 0`, then
`time_left` before every move; the runner keeps the clock and adds the increment), a playout
budget (`soloshop-playouts`) or search threads (`soloshop-threads`) when the engine knows them.
A move over S + tolerance, or a game clock below -tolerance, is a time loss.

A game starts from its opening (setup stones and moves sent with `play` to both engines) and
ends on two passes, a resignation, a forfeit or the move limit. Forfeits and their reasons
(`GameResult.forfeit`): 'illegal' (a move the rules forbid, checked here by
`engines.go.rules`), 'crash' (the engine exited), 'time' (over its time), 'timeout' (no answer
to a command within --timeout, with no time control to blame), 'garbage' (an answer that is no
GTP or no vertex), 'refused' (it refused a setup command, the opening or the other side's
legal move). Every read has a deadline, engines run in sessions of their own and are killed on
the way out. The referee (GNU Go's dead-stone list + area count, cross-checked by a play-out)
scores finished games; the SGF is saved and journaled. Command lines take {seed}, {level},
{komi} and {size} placeholders.

`play_one((settings, spec))` is the picklable unit a pool runs: it builds the game inside the
worker.
"""
from __future__ import annotations

import math
import os
import shlex
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from engines.go import rules, sgf
from engines.go.coords import BadVertex, from_gtp, to_gtp
from engines.gtp_client import GtpClient, GtpClientError
from engines.go.referee import GNUGO, Ending, Referee, RefereeError
from engines.match import openings as go_openings
from engines.match.adapter import GameSpec
from engines.match.commands import build_argv, engines_command
from engines.match.players import Forfeit, MoveClock, Side, forfeit_for
from engines.match.pool import Cancelled, stopping
from engines.match.results import GameResult
from plumbing.errors import NamedError

GNUGO_CMD = ("/usr/games/gnugo --mode gtp --level {level} --chinese-rules --komi {komi} "
             "--seed {seed}")
DEFAULT_TOLERANCE = 1.0  # seconds over a move's (or a game's) time before it is a time loss
DEFAULT_TIMEOUT = 120.0  # seconds any command may take when no time control bounds it


class MatchSetupError(NamedError):
    """A match that cannot start (an engine command that does not exist or cannot play)."""


def default_engine_cmd() -> str:
    return engines_command("gtp", "go")


@dataclass
class GoSettings:
    size: int
    komi: float
    level: int  # the default opponent's GNU Go level ({level})
    max_moves: int
    out: Path  # game-NNN.sgf here, the players' stderr under logs/
    candidate: Side
    opponent: Side
    referee_level: int = 10
    tolerance: float = DEFAULT_TOLERANCE
    timeout: float = DEFAULT_TIMEOUT
    openings: str | None = "generate"  # an SGF file or directory, "generate", or None (empty)


class GoAdapter:
    """Go games between two GTP engines, judged by a fresh GNU Go referee each."""

    game = "go"
    fatal = (RefereeError,)

    def __init__(self, settings: GoSettings):
        self.settings = settings
        self.limit = settings.candidate.seconds
        self.names: dict[str, str] = {}
        (settings.out / "logs").mkdir(parents=True, exist_ok=True)

    # -- before any game

    def openings(self, pairs: int, seed: int) -> list:
        s = self.settings
        if not s.openings:
            return [go_openings.EMPTY]
        if s.openings == "generate":
            return go_openings.generate(s.size, pairs, seed)
        return go_openings.load(s.openings, s.size)

    def check(self) -> None:
        """Both engines start and speak GTP, and the referee exists; else MatchSetupError."""
        s = self.settings
        if not (os.access(GNUGO, os.X_OK)):
            raise MatchSetupError(f"the match stopped before any game: the referee {GNUGO} is "
                                  "missing (install Debian's gnugo)")
        for role, side in (("candidate", s.candidate), ("opponent", s.opponent)):
            argv = build_argv(side.cmd, seed=1, level=s.level, komi=f"{s.komi:g}", size=s.size)
            if not argv or not (shutil.which(argv[0]) or os.access(argv[0], os.X_OK)):
                raise MatchSetupError(f"the match stopped before any game: the {role} command "
                                      f"{argv[0] if argv else side.cmd!r} does not exist "
                                      f"({side.cmd})")
            try:
                with GtpClient(argv, name=role, timeout=min(s.timeout, 60.0),
                               own_session=True) as client:
                    client.command(f"boardsize {s.size}")
                    name = client.command("name")
                    version = client.command("version")
            except (OSError, GtpClientError) as error:
                raise MatchSetupError(f"the match stopped before any game: the {role} "
                                      f"({side.cmd}) cannot play: {error}") from None
            self.names[role] = f"{name} {version}".strip()

    def options(self) -> dict:
        """What the games depend on: a resumed match must have the same."""
        s = self.settings
        source = s.openings
        if source and source != "generate":
            source = go_openings.source_id(source)
        return {"size": s.size, "komi": s.komi, "level": s.level, "max_moves": s.max_moves,
                "engine": s.candidate.cmd, "opponent": s.opponent.cmd,
                "seconds": s.candidate.seconds, "tc": s.candidate.tc,
                "playouts": s.candidate.playouts, "threads": s.candidate.threads,
                "opponent_seconds": s.opponent.seconds, "opponent_tc": s.opponent.tc,
                "opponent_playouts": s.opponent.playouts,
                "opponent_threads": s.opponent.threads,
                "referee_level": s.referee_level, "tolerance": s.tolerance,
                "timeout": s.timeout, "openings": source}

    def conditions(self) -> dict:
        s = self.settings
        return {"candidate": self.names.get("candidate", "candidate"),
                "opponent": self.names.get("opponent", "opponent"),
                "candidate_cmd": s.candidate.cmd, "opponent_cmd": s.opponent.cmd,
                "candidate_limits": s.candidate.describe(),
                "opponent_limits": s.opponent.describe(),
                "size": s.size, "komi": s.komi, "seconds": s.candidate.seconds,
                "playouts": s.candidate.playouts, "threads": s.candidate.threads,
                "level": s.level, "referee_level": s.referee_level, "max_moves": s.max_moves,
                "tolerance": s.tolerance, "timeout": s.timeout,
                "openings": s.openings or "none (empty board)"}

    def commands(self) -> list[str]:
        """The command lines a machine playing these games must be able to run."""
        s = self.settings
        return [shlex.join(build_argv(side.cmd, seed=1, level=s.level, komi=f"{s.komi:g}",
                                      size=s.size)) for side in (s.candidate, s.opponent)] + [GNUGO]

    def threads_per_game(self) -> int:
        s = self.settings
        return max(s.candidate.threads or 1, s.opponent.threads or 1)

    def describe(self, c: dict) -> str:
        return (f"{c['size']}x{c['size']}, komi {c['komi']:g}, Chinese rules, candidate "
                f"{c.get('candidate_limits', c['seconds'])}, opponent "
                f"{c.get('opponent_limits', 'no limit')} (level {c['level']}), openings "
                f"{c.get('openings')}, tolerance {c.get('tolerance')} s, seeds {c['seeds']}, "
                f"{c['jobs']} game(s) at a time, referee GNU Go level {c['referee_level']}")


def play_one(task: tuple[GoSettings, GameSpec]) -> GameResult:
    """Play one game: the function a pool runs (module level, one picklable argument)."""
    settings, spec = task
    return GoGame(settings, spec).play()


GoAdapter.play_one = staticmethod(play_one)


@dataclass
class GoGame:
    settings: GoSettings
    spec: GameSpec
    clients: dict = field(default_factory=dict)
    times: dict = field(default_factory=lambda: {"candidate": [], "opponent": []})

    def play(self) -> GameResult:
        s, spec = self.settings, self.spec
        candidate_color = spec.candidate_color
        self.role_of = {candidate_color: "candidate", other(candidate_color): "opponent"}
        self.color_of = {v: k for k, v in self.role_of.items()}
        self.sides = {"candidate": s.candidate, "opponent": s.opponent}
        opening = spec.opening or go_openings.EMPTY
        record = sgf.GameRecord(size=s.size, komi=s.komi, rules="Chinese",
                                setup_black=list(opening.setup_black),
                                setup_white=list(opening.setup_white))
        names = {"candidate": "candidate", "opponent": "opponent"}
        forfeit = None
        try:
            try:
                for role in ("candidate", "opponent"):
                    names[role] = self._start(role)
                record.black, record.white = names[self.role_of["b"]], names[self.role_of["w"]]
                ending = self._play(record, opening)
            except Forfeit as error:
                forfeit = error
                ending = Ending("forfeit", self.color_of[error.role],
                                f"{error.role} ({error.kind}): {error.detail}")
        finally:
            for client in self.clients.values():
                client.close()
        verdict = Referee(level=s.referee_level).judge(record, ending)
        if forfeit is None and verdict.result.endswith("+F"):  # the referee's own check
            forfeit = Forfeit(self.role_of[other(verdict.winner)], "illegal", verdict.reason)
        record.result = verdict.result
        record.comment = (f"{verdict.reason}. Match seed {spec.seed}; opening {opening.id}; "
                          f"candidate {s.candidate.describe()}; opponent "
                          f"{s.opponent.describe()}.")
        path = s.out / f"game-{spec.index:03d}.sgf"
        sgf.save(path, record)
        points = 0.5 if verdict.winner is None else float(verdict.winner == candidate_color)
        return GameResult(spec.index, spec.seed, candidate_color, verdict.result, verdict.winner,
                          points, verdict.reason, ending.kind, len(record.moves),
                          self.times["candidate"], self.times["opponent"], verdict.disputed,
                          str(path), pair=spec.pair, opening=opening.id,
                          forfeit=forfeit.kind if forfeit else "",
                          forfeited_by=forfeit.role if forfeit else "",
                          record=sgf.dumps(record), record_format="sgf")

    # -- talking to the engines

    def _command(self, role: str, line: str, timeout: float | None = None,
                 time_control: bool = False) -> str:
        try:
            return self.clients[role].command(line, timeout=timeout)
        except GtpClientError as error:
            raise self._forfeit(role, error, time_control) from None

    @staticmethod
    def _forfeit(role: str, error: GtpClientError, time_control: bool = False) -> Exception:
        return forfeit_for(role, error, time_control)

    def _start(self, role: str) -> str:
        s, side = self.settings, self.sides[role]
        argv = build_argv(side.cmd, seed=self.spec.seed, level=s.level, komi=f"{s.komi:g}",
                          size=s.size)
        log_path = s.out / "logs" / f"game-{self.spec.index:03d}-{role}.stderr"
        try:
            with open(log_path, "wb") as log:  # the child holds its own copy of the descriptor
                self.clients[role] = GtpClient(argv, name=role, stderr=log, timeout=s.timeout,
                                               own_session=True, cancelled=stopping)
        except OSError as error:
            raise Forfeit(role, "crash", f"cannot start {side.cmd}: {error}") from None
        self._command(role, f"boardsize {s.size}")
        self._command(role, "clear_board")
        self._command(role, f"komi {s.komi:g}")
        name = self._command(role, "name")
        version = self._command(role, "version")
        self._limit(role, side)
        return f"{name} {version}".strip()

    def _optional(self, role: str, *lines: str) -> None:
        """Try LINES in turn until one is accepted (strict engines want integers)."""
        for line in lines:
            try:
                self.clients[role].command(line)
                return
            except GtpClientError as error:
                if error.kind != "refused":
                    raise self._forfeit(role, error) from None

    def _limit(self, role: str, side: Side) -> None:
        if side.playouts and self._command(role, "known_command soloshop-playouts") == "true":
            self._command(role, f"soloshop-playouts {side.playouts}")
        if side.threads and self._command(role, "known_command soloshop-threads") == "true":
            self._command(role, f"soloshop-threads {side.threads}")
        if side.tc:
            base = side.tc[0]
            self._optional(role, f"time_settings {base:g} 0 0",
                           f"time_settings {max(1, math.floor(base))} 0 0")
        elif side.seconds:
            self._optional(role, f"time_settings 0 {side.seconds:g} 1",
                           f"time_settings 0 {math.ceil(side.seconds)} 1")

    # -- the game

    def _play(self, record: sgf.GameRecord, opening) -> Ending:
        s = self.settings
        board = rules.Game(size=s.size, komi=s.komi)
        self._play_opening(board, opening)
        record.moves.extend(opening.moves)
        clock = MoveClock(self.sides, s.tolerance, s.timeout)
        color = other(opening.moves[-1][0]) if opening.moves else "b"
        passes = 0
        while True:
            if stopping():
                raise Cancelled("the match is stopping")
            role = self.role_of[color]
            reply = self._timed_genmove(role, color, clock)
            if reply.strip().lower() == "resign":
                return Ending("resign", color)
            point = self._checked_move(board, role, color, reply, len(record.moves) + 1)
            board.play(color, point)
            self._tell(self.role_of[other(color)], color, point)
            record.moves.append((color, point))
            passes = passes + 1 if point is None else 0
            if passes >= 2:
                return Ending("passes")
            if len(record.moves) >= s.max_moves:
                return Ending("max-moves")
            color = other(color)

    def _play_opening(self, board, opening) -> None:
        """The opening's setup stones and moves, on the referee's board and both engines'."""
        setup = [("b", p) for p in opening.setup_black] + [("w", p) for p in opening.setup_white]
        for color, point in setup + list(opening.moves):
            board.play(color, point)
            for role in ("candidate", "opponent"):
                self._tell(role, color, point, what="the opening")

    def _tell(self, role: str, color: str, point, what: str | None = None) -> None:
        """`play COLOR POINT` to ROLE's engine; a refusal or a failure forfeits for ROLE.
        WHAT names the move in a refusal (default: "the legal move VERTEX")."""
        vertex = to_gtp(point, self.settings.size)
        try:
            self.clients[role].command(f"play {color} {vertex}")
        except GtpClientError as error:
            if error.kind == "refused":
                raise Forfeit(role, "refused", f"refused {what or 'the legal move ' + vertex}: "
                              f"{error}") from None
            raise self._forfeit(role, error) from None

    def _timed_genmove(self, role: str, color: str, clock: MoveClock) -> str:
        """ROLE's answer to genmove under its time control; a time loss forfeits."""
        side = self.sides[role]
        if side.tc:
            self._optional(role, f"time_left {color} {max(0, math.floor(clock.left[role]))} 0")
        started = time.monotonic()
        reply = self._command(role, f"genmove {color}", timeout=clock.deadline(role),
                              time_control=clock.timed(role))
        elapsed = time.monotonic() - started
        self.times[role].append(elapsed)
        clock.charge(role, elapsed)
        return reply

    def _checked_move(self, board, role: str, color: str, reply: str, number: int):
        """The point REPLY names, if it is a vertex and a legal move; else a forfeit."""
        try:
            point = from_gtp(reply, self.settings.size)
        except BadVertex as error:
            raise Forfeit(role, "garbage", f"answered genmove {color} with {error}") from None
        reason = board.why_illegal(color, point)
        if reason:
            raise Forfeit(role, "illegal", f"played an illegal move {reply.strip()} "
                          f"({reason}, move {number})")
        return point


def other(color: str) -> str:
    return "w" if color == "b" else "b"

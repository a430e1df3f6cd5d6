"""The Gomoku adapter: two Gomocup (Piskvork) brains over stdin/stdout, judged by rules.py.

Each side (candidate, opponent) has its own limits (`engines.match.players.Side`): a time per
move (`INFO timeout_turn` in ms, with a match allowance of that times the board's points), or
a time per game (base + increment: `INFO timeout_match` = the base, `INFO time_left` before
every move; `engines.match.players.MoveClock` keeps the clock and adds the increment). Both brains get `INFO max_memory` (the
Gomocup limit, 350 MB, unless --max-memory), `INFO game_type 1` and `INFO rule` (0 freestyle,
1 standard, 4 renju). A move over its time + tolerance, or a game clock below -tolerance, is a
time loss.

A game: `START size` (answer OK) to both, the INFO lines, then each brain is asked for its moves
in turn: `BEGIN` on an empty board, `TURN X,Y` when the brain knows every stone but the
opponent's last, otherwise `BOARD` with every stone (1 its own, 2 the opponent's) and `DONE`,
which is how a brain first sees the opening. The readable rules (`engines.gomoku.rules`) judge
every move: a five wins (as the rule defines it), a full board or a side with no legal move is a
draw (see that module). Forfeits and their reasons (`GameResult.forfeit`): 'illegal' (off the
board, occupied, or renju's forbidden point with its rule: 'forbidden: double-three at ...'),
'crash' (the brain exited or closed its output), 'time', 'timeout' (no answer within --timeout
with no time control to blame), 'garbage' (an answer that is no X,Y, or START not answered OK),
'refused' (ERROR or UNKNOWN to START, BOARD, TURN or BEGIN). Brains run in sessions of their own
and are killed on the way out.

Records: `game-NNN.txt` in the arcade's text format (`# ...` comments with the players, the
reason and the seconds of every move, then `game gomoku`, `size`, `rule`, `moves` named by a
column letter and the row from the bottom, `result` as `b+five`, `w+forfeit` or `draw`), saved
and journaled. Command lines take {seed}, {size} and {rule} placeholders.
"""
from __future__ import annotations

import os
import shlex
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from engines.gomocup_client import GomocupClient
from engines.gomoku import openings as gm_openings
from engines.gomoku import rules
from engines.gtp_client import GtpClientError
from engines.match.adapter import GameSpec
from engines.match.commands import build_argv, engines_command
from engines.match.players import Forfeit, MoveClock, Side, forfeit_for
from engines.match.pool import Cancelled, stopping
from engines.match.results import GameResult
from plumbing.errors import NamedError

DEFAULT_TOLERANCE = 0.5
DEFAULT_TIMEOUT = 60.0
GOMOCUP_MEMORY = 350 * 2**20         # Gomocup's limit, bytes
RULE_BITS = {"freestyle": 0, "standard": 1, "renju": 4}
LETTERS = "abcdefghijklmnopqrst"


class MatchSetupError(NamedError):
    """A match that cannot start (a brain command that does not exist or cannot play)."""


def default_engine_cmd() -> str:
    return engines_command("gomocup")


def baseline_cmd(depth: int = 4) -> str:
    """The reference opponent: this venv's brain as a plain fixed-depth alpha-beta."""
    return engines_command("gomocup", "--depth", str(depth), "--plain")


@dataclass
class GomokuSettings:
    size: int
    rule: str
    out: Path                     # game-NNN.txt here, the brains' stderr under logs/
    candidate: Side
    opponent: Side
    tolerance: float = DEFAULT_TOLERANCE
    timeout: float = DEFAULT_TIMEOUT
    max_memory: int = GOMOCUP_MEMORY
    openings: str | None = "balanced"  # 'balanced', a file, 'generate' or None (empty board)


def point_name(point, size: int) -> str:
    x, y = point
    return f"{LETTERS[x]}{size - y}"


class GomokuAdapter:
    """Gomoku games between two Gomocup brains, judged by the readable rules."""

    game = "gomoku"
    fatal = ()

    def __init__(self, settings: GomokuSettings):
        self.settings = settings
        self.limit = settings.candidate.seconds
        self.names: dict[str, str] = {}
        (settings.out / "logs").mkdir(parents=True, exist_ok=True)

    # -- before any game

    def openings(self, pairs: int, seed: int) -> list:
        s = self.settings
        if not s.openings:
            return [gm_openings.EMPTY]
        if s.openings == "balanced":
            return gm_openings.load(gm_openings.balanced_path(s.rule), s.size, s.rule)
        if s.openings == "generate":
            return generated_openings(s.rule, pairs, seed)
        return gm_openings.load(s.openings, s.size, s.rule)

    def _argv(self, side: Side, seed: int) -> list[str]:
        s = self.settings
        return build_argv(side.cmd, seed=seed, size=s.size, rule=s.rule)

    def check(self) -> None:
        """Both brains start and answer START and ABOUT; else MatchSetupError."""
        s = self.settings
        for role, side in (("candidate", s.candidate), ("opponent", s.opponent)):
            argv = self._argv(side, 1)
            if not argv or not (shutil.which(argv[0]) or os.access(argv[0], os.X_OK)):
                raise MatchSetupError(f"the match stopped before any game: the {role} command "
                                      f"{argv[0] if argv else side.cmd!r} does not exist "
                                      f"({side.cmd})")
            try:
                with GomocupClient(argv, name=role, timeout=min(s.timeout, 60.0),
                                   own_session=True) as client:
                    answer = client.ask(f"START {s.size}")
                    if answer.upper() != "OK":
                        raise GtpClientError(f"answered START {s.size} with {answer!r}")
                    self.names[role] = about_name(client) or role
            except (OSError, GtpClientError) as error:
                raise MatchSetupError(f"the match stopped before any game: the {role} "
                                      f"({side.cmd}) cannot play: {error}") from None

    def options(self) -> dict:
        """What the games depend on: a resumed match must have the same."""
        s = self.settings
        source = s.openings
        if source and source not in ("balanced", "generate"):
            source = gm_openings.source_id(source)
        return {"size": s.size, "rule": s.rule, "engine": s.candidate.cmd,
                "opponent": s.opponent.cmd, "seconds": s.candidate.seconds,
                "tc": s.candidate.tc, "opponent_seconds": s.opponent.seconds,
                "opponent_tc": s.opponent.tc, "tolerance": s.tolerance, "timeout": s.timeout,
                "max_memory": s.max_memory, "openings": source}

    def conditions(self) -> dict:
        s = self.settings
        return {"candidate": self.names.get("candidate", "candidate"),
                "opponent": self.names.get("opponent", "opponent"),
                "candidate_cmd": s.candidate.cmd, "opponent_cmd": s.opponent.cmd,
                "candidate_limits": s.candidate.describe(),
                "opponent_limits": s.opponent.describe(),
                "size": s.size, "rule": s.rule, "seconds": s.candidate.seconds,
                "tolerance": s.tolerance, "timeout": s.timeout, "max_memory": s.max_memory,
                "openings": s.openings or "none (empty board)"}

    def commands(self) -> list[str]:
        """The command lines a machine playing these games must be able to run."""
        s = self.settings
        return [shlex.join(self._argv(side, 1)) for side in (s.candidate, s.opponent)]

    def threads_per_game(self) -> int:
        return 1

    def describe(self, c: dict) -> str:
        return (f"{c['size']}x{c['size']} {c['rule']}, candidate {c['candidate_limits']}, "
                f"opponent {c['opponent_limits']}, openings {c['openings']}, tolerance "
                f"{c['tolerance']} s, seeds {c['seeds']}, {c['jobs']} game(s) at a time, "
                f"judged by engines.gomoku.rules")


def about_name(client: GomocupClient) -> str:
    """name="X", version="Y" from ABOUT as 'X Y'; '' when the brain does not know ABOUT."""
    try:
        answer = client.ask("ABOUT")
    except GtpClientError as error:
        if error.kind == "refused":
            return ""
        raise
    fields = {}
    for part in answer.split(","):
        key, _, value = part.partition("=")
        fields[key.strip().lower()] = value.strip().strip('"')
    return " ".join(v for v in (fields.get("name"), fields.get("version")) if v) or answer


def generated_openings(rule: str, pairs: int, seed: int) -> list:
    """PAIRS random openings (no balance check), reproducible by SEED."""
    import random

    rng = random.Random(f"gomoku-match/{rule}/{seed}")
    out, seen = [], set()
    while len(out) < pairs:
        moves = gm_openings.random_opening(rng, rule)
        if moves and gm_openings.canonical(moves) not in seen:
            seen.add(gm_openings.canonical(moves))
            out.append(gm_openings.Opening(f"generated-{seed}-{len(out) + 1}", tuple(moves)))
    return out


def play_one(task: tuple[GomokuSettings, GameSpec]) -> GameResult:
    """Play one game: the function a pool runs (module level, one picklable argument)."""
    settings, spec = task
    return GomokuGame(settings, spec).play()


GomokuAdapter.play_one = staticmethod(play_one)


@dataclass
class GomokuGame:
    settings: GomokuSettings
    spec: GameSpec
    clients: dict = field(default_factory=dict)
    times: dict = field(default_factory=lambda: {"candidate": [], "opponent": []})
    known: dict = field(default_factory=lambda: {"candidate": 0, "opponent": 0})

    def play(self) -> GameResult:
        s, spec = self.settings, self.spec
        self.role_of = {spec.candidate_color: "candidate",
                        rules.other(spec.candidate_color): "opponent"}
        self.color_of = {v: k for k, v in self.role_of.items()}
        self.sides = {"candidate": s.candidate, "opponent": s.opponent}
        opening = spec.opening or gm_openings.EMPTY
        game = rules.Game(s.size, s.rule)
        for point in opening.placed(s.size):
            game.play(point)
        names = {"candidate": "candidate", "opponent": "opponent"}
        forfeit = None
        try:
            try:
                for role in ("candidate", "opponent"):
                    names[role] = self._start(role)
                self._play(game)
                winner = game.winner
                result = f"{winner}+five" if winner else "draw"
                reason = (f"{'black' if winner == 'b' else 'white'} made five" if winner
                          else "a draw: " + ("the board is full" if not game.empty_points()
                                             else "black has no legal move"))
                ending = "five" if winner else "draw"
            except Forfeit as error:
                forfeit = error
                winner = self.color_of["opponent" if error.role == "candidate" else "candidate"]
                result = f"{winner}+forfeit"
                reason = f"{error.role} ({error.kind}): {error.detail}"
                ending = "forfeit"
        finally:
            for client in self.clients.values():
                client.close()
        text = self._record(game, opening, names, result, reason)
        path = s.out / f"game-{spec.index:03d}.txt"
        path.write_text(text)
        points = 0.5 if winner is None else float(winner == spec.candidate_color)
        return GameResult(spec.index, spec.seed, spec.candidate_color, result, winner, points,
                          reason, ending, len(game.history), self.times["candidate"],
                          self.times["opponent"], False, str(path), pair=spec.pair,
                          opening=opening.id, forfeit=forfeit.kind if forfeit else "",
                          forfeited_by=forfeit.role if forfeit else "", record=text,
                          record_format="soloshop-gomoku-text")

    def _record(self, game, opening, names, result, reason) -> str:
        s, spec = self.settings, self.spec
        moves = [point_name(p, s.size) for p in game.history]
        lines = ["# soloshop gomoku record", f"# black: {names[self.role_of['b']]} "
                 f"({self.role_of['b']}), white: {names[self.role_of['w']]} "
                 f"({self.role_of['w']})",
                 f"# {reason}", f"# match seed {spec.seed}; opening {opening.id} "
                 f"({len(opening.moves)} stones); candidate {s.candidate.describe()}; "
                 f"opponent {s.opponent.describe()}",
                 "# seconds a move: candidate " + " ".join(f"{t:.2f}" for t in
                                                           self.times["candidate"]),
                 "# seconds a move: opponent " + " ".join(f"{t:.2f}" for t in
                                                          self.times["opponent"]),
                 "game gomoku", f"size {s.size}", f"rule {s.rule}"]
        lines += ["moves " + " ".join(moves[i:i + 20]) for i in range(0, len(moves), 20)]
        lines.append(f"result {result}")
        return "\n".join(lines) + "\n"

    # -- talking to the brains

    def _ask(self, role: str, *lines: str, timeout: float | None = None,
             time_control: bool = False) -> str:
        try:
            return self.clients[role].ask(*lines, timeout=timeout)
        except GtpClientError as error:
            raise self._forfeit(role, error, time_control) from None

    def _send(self, role: str, *lines: str) -> None:
        try:
            self.clients[role].send(*lines)
        except GtpClientError as error:
            raise self._forfeit(role, error) from None

    @staticmethod
    def _forfeit(role: str, error: GtpClientError, time_control: bool = False) -> Exception:
        return forfeit_for(role, error, time_control)

    def _start(self, role: str) -> str:
        s, side = self.settings, self.sides[role]
        argv = build_argv(side.cmd, seed=self.spec.seed, size=s.size, rule=s.rule)
        log_path = s.out / "logs" / f"game-{self.spec.index:03d}-{role}.stderr"
        try:
            with open(log_path, "wb") as log:  # the child holds its own copy of the descriptor
                self.clients[role] = GomocupClient(argv, name=role, stderr=log,
                                                   timeout=s.timeout, own_session=True,
                                                   cancelled=stopping)
        except OSError as error:
            raise Forfeit(role, "crash", f"cannot start {side.cmd}: {error}") from None
        answer = self._ask(role, f"START {s.size}")
        if answer.upper() != "OK":
            raise Forfeit(role, "garbage", f"answered START {s.size} with {answer!r}")
        self._send(role, *self._info(side))
        try:
            return about_name(self.clients[role]) or role
        except GtpClientError as error:
            raise self._forfeit(role, error) from None

    def _info(self, side: Side) -> list[str]:
        s = self.settings
        if side.tc:
            turn = match = round(side.tc[0] * 1000)
        else:
            turn = round((side.seconds or s.timeout) * 1000)
            match = turn * s.size * s.size
        return [f"INFO timeout_turn {turn}", f"INFO timeout_match {match}",
                f"INFO max_memory {s.max_memory}", "INFO game_type 1",
                f"INFO rule {RULE_BITS[s.rule]}"]

    # -- the game

    def _play(self, game) -> None:
        s = self.settings
        clock = MoveClock(self.sides, s.tolerance, s.timeout)
        while not game.is_over:
            if stopping():
                raise Cancelled("the match is stopping")
            role = self.role_of[game.to_move]
            reply = self._timed_move(role, game, clock)
            point = self._checked_move(game, role, reply)
            game.play(point)
            self.known[role] = len(game.history)

    def _request(self, role: str, game) -> list[str]:
        """What asks ROLE for its move: BEGIN, TURN with the opponent's last, or BOARD."""
        history, known = game.history, self.known[role]
        if not history:
            return ["BEGIN"]
        if known == len(history) - 1:
            x, y = history[-1]
            return [f"TURN {x},{y}"]
        mine = len(history) % 2       # the brain's stones are those of the side to move
        board = [f"{x},{y},{1 if i % 2 == mine else 2}" for i, (x, y) in enumerate(history)]
        return ["BOARD", *board, "DONE"]

    def _timed_move(self, role: str, game, clock: MoveClock) -> str:
        """ROLE's answer under its time control; a time loss forfeits."""
        if self.sides[role].tc:
            self._send(role, f"INFO time_left {max(0, round(clock.left[role] * 1000))}")
        started = time.monotonic()
        reply = self._ask(role, *self._request(role, game), timeout=clock.deadline(role),
                          time_control=clock.timed(role))
        elapsed = time.monotonic() - started
        self.times[role].append(elapsed)
        clock.charge(role, elapsed)
        return reply

    def _checked_move(self, game, role: str, reply: str):
        """The point REPLY names, if it is X,Y and a legal move; else a forfeit."""
        number = len(game.history) + 1
        parts = reply.replace(" ", "").split(",")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise Forfeit(role, "garbage", f"answered move {number} with {reply[:80]!r}, "
                          "not X,Y")
        point = (int(parts[0]), int(parts[1]))
        error = game.why_illegal(point)
        if error:
            raise Forfeit(role, "illegal", f"played {point[0]},{point[1]} at move {number}: "
                          f"{error}")
        return point

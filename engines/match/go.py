"""The Go adapter: two GTP engines, GNU Go as the usual opponent, `engines.go.referee` as judge.

The candidate (default: our `engines gtp go`) gets a per-move time limit through
`time_settings 0 S 1` (S seconds of byo-yomi for every move); the opponent (default: GNU Go at
the level, Chinese rules, komi, seeded) plays unlimited. A game ends on two passes, a
resignation, a forfeit (illegal move, crash, or far over the time limit) or the move limit; the
referee (GNU Go's dead-stone list + area count, cross-checked by a play-out) scores it, and its
SGF is saved. Command lines take {seed}, {level}, {komi} and {size} placeholders.
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from engines.go import sgf
from engines.go.coords import BadVertex, from_gtp
from engines.go.gtp import GtpClient, GtpClientError
from engines.go.referee import Ending, Referee, RefereeError
from engines.match.commands import build_argv, engines_command
from engines.match.results import GameResult

GNUGO_CMD = ("/usr/games/gnugo --mode gtp --level {level} --chinese-rules --komi {komi} "
             "--seed {seed}")
OVERTIME_FACTOR = 10  # a move this many times over the limit (+5 s) forfeits: a hung engine
UNLIMITED = 300.0  # seconds a move may take without a limit before the player forfeits


def default_engine_cmd() -> str:
    return engines_command("gtp", "go")


@dataclass
class GoSettings:
    size: int
    komi: float
    seconds: float | None  # the candidate's limit per move
    level: int  # the default opponent's GNU Go level ({level})
    engine_cmd: str
    opponent_cmd: str
    max_moves: int
    out: Path  # game-NNN.sgf here, the players' stderr under logs/
    playouts: int | None = None
    threads: int | None = None
    referee_level: int = 10


class GoAdapter:
    """Go games between two GTP engines, judged by a fresh GNU Go referee each."""

    fatal = (GtpClientError, RefereeError, OSError)

    def __init__(self, settings: GoSettings, referee: Referee | None = None):
        self.settings = settings
        self.limit = settings.seconds
        self.referee = referee or Referee(level=settings.referee_level)
        self.names: dict[str, str] = {}
        (settings.out / "logs").mkdir(parents=True, exist_ok=True)

    def conditions(self) -> dict:
        s = self.settings
        return {"candidate": self.names.get("candidate", "candidate"),
                "opponent": self.names.get("opponent", "opponent"),
                "candidate_cmd": s.engine_cmd, "opponent_cmd": s.opponent_cmd,
                "size": s.size, "komi": s.komi, "seconds": s.seconds, "playouts": s.playouts,
                "threads": s.threads, "level": s.level, "referee_level": s.referee_level,
                "max_moves": s.max_moves}

    def describe(self, c: dict) -> str:
        return (f"{c['size']}x{c['size']}, komi {c['komi']:g}, Chinese rules, "
                f"{c['seconds']} s/move limit for the candidate, opponent level {c['level']}, "
                f"seeds {c['seeds']}, {c['jobs']} game(s) at a time, referee GNU Go level "
                f"{c['referee_level']}")

    def play_game(self, index: int, seed: int, candidate_first: bool,
                  stop: threading.Event) -> GameResult:
        s = self.settings
        candidate_color = "b" if candidate_first else "w"
        role_of = {candidate_color: "candidate", other(candidate_color): "opponent"}
        record = sgf.GameRecord(size=s.size, komi=s.komi, rules="Chinese")
        clients: dict[str, GtpClient] = {}
        times: dict[str, list[float]] = {"candidate": [], "opponent": []}
        try:
            clients["candidate"] = self._start("candidate", s.engine_cmd, seed, index)
            self._limit_candidate(clients["candidate"])
            clients["opponent"] = self._start("opponent", s.opponent_cmd, seed, index)
            record.black, record.white = self.names[role_of["b"]], self.names[role_of["w"]]
            ending = self._play(clients, role_of, record, times, stop)
        finally:
            for client in clients.values():
                client.close()
        verdict = self.referee.judge(record, ending)
        record.result = verdict.result
        record.comment = (f"{verdict.reason}. Match seed {seed}; candidate limit "
                          f"{s.seconds} s/move; opponent level {s.level}.")
        path = s.out / f"game-{index:03d}.sgf"
        sgf.save(path, record)
        points = 0.5 if verdict.winner is None else float(verdict.winner == candidate_color)
        return GameResult(index, seed, candidate_color, verdict.result, verdict.winner, points,
                          verdict.reason, ending.kind, len(record.moves), times["candidate"],
                          times["opponent"], verdict.disputed, str(path))

    def _start(self, role: str, template: str, seed: int, index: int) -> GtpClient:
        s = self.settings
        argv = build_argv(template, seed=seed, level=s.level, komi=f"{s.komi:g}", size=s.size)
        with open(s.out / "logs" / f"game-{index:03d}-{role}.stderr", "wb") as log:
            # the child holds its own copy of the descriptor
            client = GtpClient(argv, name=role, stderr=log, timeout=UNLIMITED)
        try:
            client.command(f"boardsize {s.size}")
            client.command("clear_board")
            client.command(f"komi {s.komi:g}")
            name = client.command("name")
            version = client.command("version")
            self.names.setdefault(role, f"{name} {version}".strip())
        except GtpClientError:
            client.close()
            raise
        return client

    def _limit_candidate(self, client: GtpClient) -> None:
        s = self.settings
        if s.playouts and client.command("known_command soloshop-playouts") == "true":
            client.command(f"soloshop-playouts {s.playouts}")
        if s.threads and client.command("known_command soloshop-threads") == "true":
            client.command(f"soloshop-threads {s.threads}")
        if s.seconds:
            try:
                client.command(f"time_settings 0 {s.seconds:g} 1")
            except GtpClientError:  # strict GTP wants integer seconds
                client.command(f"time_settings 0 {math.ceil(s.seconds)} 1")

    def _play(self, clients, role_of, record, times, stop: threading.Event) -> Ending:
        s = self.settings
        color, passes = "b", 0
        hard_limit = (OVERTIME_FACTOR * s.seconds + 5) if s.seconds else UNLIMITED
        while True:
            if stop.is_set():
                raise KeyboardInterrupt
            role = role_of[color]
            started = time.monotonic()
            try:
                reply = clients[role].command(
                    f"genmove {color}", timeout=hard_limit if role == "candidate" else UNLIMITED)
            except GtpClientError as error:
                return Ending("forfeit", color, str(error))
            times[role].append(time.monotonic() - started)
            if reply.lower() == "resign":
                return Ending("resign", color)
            try:
                point = from_gtp(reply, s.size)
            except BadVertex as error:
                return Ending("forfeit", color, f"{role} answered genmove with {error}")
            try:
                clients[role_of[other(color)]].command(f"play {color} {reply}")
            except GtpClientError as error:
                return Ending("forfeit", color, f"move {reply} rejected: {error}")
            record.moves.append((color, point))
            passes = passes + 1 if point is None else 0
            if passes >= 2:
                return Ending("passes")
            if len(record.moves) >= s.max_moves:
                return Ending("max-moves")
            color = other(color)


def other(color: str) -> str:
    return "w" if color == "b" else "b"

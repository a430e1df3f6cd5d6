"""Go match runner: two GTP engines, alternating colours, fixed seeds, an independent referee.

    .venv/bin/python bench/go_match.py --games 50 --size 9 --seconds 0.5 --level 10 --out var/match

The candidate (default: our `engines gtp go`) gets a per-move time limit through
`time_settings 0 S 1` (S seconds of byo-yomi for every move); the opponent (default: GNU Go at
--level, Chinese rules, komi 7, seeded) plays unlimited. A game ends on two passes, a resignation,
a forfeit (illegal move, crash, or far over the time limit) or the move limit; the referee
(engines.go.referee: GNU Go's dead-stone list + area count, cross-checked by a play-out) scores
it, and its SGF is saved. The summary gives the win rate with a Wilson 95% interval, results per
colour, time per move and the conditions. Any GTP commands work: `--engine` and `--opponent` take
command lines with {seed}, {level}, {komi} and {size} placeholders.
"""
from __future__ import annotations

import json
import math
import os
import platform
import shlex
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from a source tree

from engines.go import sgf  # noqa: E402
from engines.go.coords import BadVertex, from_gtp  # noqa: E402
from engines.go.gtp import GtpClient, GtpClientError  # noqa: E402
from engines.go.referee import Ending, Referee, RefereeError  # noqa: E402

GNUGO_CMD = ("/usr/games/gnugo --mode gtp --level {level} --chinese-rules --komi {komi} "
             "--seed {seed}")
OVERTIME_FACTOR = 10  # a move this many times over the limit (+5 s) forfeits: a hung engine


def default_engine_cmd() -> str:
    local = ROOT / ".venv" / "bin" / "engines"
    return f"{local if local.exists() else 'engines'} gtp go"


# ---------------------------------------------------------------- pure parts


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a win rate (draws count as half a win)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def build_argv(template: str, **values) -> list[str]:
    """Split a command line first, then fill placeholders per argument (no shell involved)."""
    return [part.format(**values) for part in shlex.split(template)]


@dataclass
class GameResult:
    index: int
    seed: int
    candidate_color: str
    result: str
    winner: str | None
    points: float  # 1 win, 0.5 draw, 0 loss, from the candidate's side
    reason: str
    ending: str
    moves: int
    candidate_seconds: list[float] = field(default_factory=list)
    opponent_seconds: list[float] = field(default_factory=list)
    disputed: bool = False
    sgf: str = ""


def summarize(results: list[GameResult], conditions: dict, limit: float | None) -> dict:
    games = len(results)
    wins = sum(r.points for r in results)
    low, high = wilson_interval(wins, games)
    per_colour = {}
    for color, label in (("b", "black"), ("w", "white")):
        mine = [r for r in results if r.candidate_color == color]
        per_colour[label] = {"games": len(mine), "wins": sum(r.points for r in mine)}
    cand = [s for r in results for s in r.candidate_seconds]
    opp = [s for r in results for s in r.opponent_seconds]
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "wilson95": [low, high],
        "per_colour": per_colour,
        "endings": {kind: sum(r.ending == kind for r in results)
                    for kind in sorted({r.ending for r in results})},
        "candidate_seconds_per_move": {
            "mean": sum(cand) / len(cand) if cand else 0.0,
            "max": max(cand, default=0.0),
            "over_limit": sum(s > limit for s in cand) if limit else 0,
        },
        "opponent_seconds_per_move": {"mean": sum(opp) / len(opp) if opp else 0.0},
        "disputed_games": [r.index for r in results if r.disputed],
        "conditions": conditions,
    }


def format_summary(summary: dict) -> str:
    c = summary["conditions"]
    low, high = summary["wilson95"]
    colours = summary["per_colour"]
    cand = summary["candidate_seconds_per_move"]
    lines = [
        f"{c['candidate']} vs {c['opponent']}: {summary['wins']:g}/{summary['games']} "
        f"= {100 * summary['win_rate']:.1f}% (Wilson 95%: {100 * low:.1f}%-{100 * high:.1f}%)",
        f"  as black {colours['black']['wins']:g}/{colours['black']['games']}, "
        f"as white {colours['white']['wins']:g}/{colours['white']['games']}; endings "
        + ", ".join(f"{k} {v}" for k, v in summary["endings"].items()),
        f"  candidate {cand['mean']:.3f} s/move (max {cand['max']:.3f} s, "
        f"{cand['over_limit']} over the limit); opponent "
        f"{summary['opponent_seconds_per_move']['mean']:.3f} s/move",
        f"  disputed by the referee's cross-check: {summary['disputed_games'] or 'none'}",
        f"  conditions: {c['size']}x{c['size']}, komi {c['komi']:g}, Chinese rules, "
        f"{c['seconds']} s/move limit for the candidate, opponent level {c['level']}, "
        f"seeds {c['seeds']}, {c['jobs']} game(s) at a time, referee GNU Go level "
        f"{c['referee_level']}; {c['machine']}",
        f"  candidate: {c['candidate_cmd']}",
        f"  opponent:  {c['opponent_cmd']}",
    ]
    return "\n".join(lines)


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"load average {load} at the end")


def write_json(path: Path, data) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w") as out:
        json.dump(data, out, indent=1)
    os.replace(tmp, path)


# ---------------------------------------------------------------- playing


@dataclass
class MatchSettings:
    size: int
    komi: float
    seconds: float | None
    level: int
    engine_cmd: str
    opponent_cmd: str
    base_seed: int
    max_moves: int
    out: Path
    playouts: int | None = None
    threads: int | None = None


class Match:
    def __init__(self, settings: MatchSettings, referee: Referee):
        self.settings = settings
        self.referee = referee
        self.stop = threading.Event()
        self.names: dict[str, str] = {}

    def _start(self, role: str, template: str, seed: int, index: int) -> GtpClient:
        s = self.settings
        argv = build_argv(template, seed=seed, level=s.level, komi=f"{s.komi:g}", size=s.size)
        log = open(s.out / "logs" / f"game-{index:03d}-{role}.stderr", "wb")
        try:
            client = GtpClient(argv, name=role, stderr=log, timeout=300)
        finally:
            log.close()  # the child holds its own copy of the descriptor
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

    def play_game(self, index: int) -> GameResult:
        s = self.settings
        seed = s.base_seed + index
        candidate_color = "b" if index % 2 == 0 else "w"
        record = sgf.GameRecord(size=s.size, komi=s.komi, rules="Chinese")
        clients: dict[str, GtpClient] = {}
        times = {"candidate": [], "opponent": []}
        try:
            candidate = clients["candidate"] = self._start("candidate", s.engine_cmd, seed, index)
            self._limit_candidate(candidate)
            clients["opponent"] = self._start("opponent", s.opponent_cmd, seed, index)
            role_of = {candidate_color: "candidate",
                       ("w" if candidate_color == "b" else "b"): "opponent"}
            record.black = self.names[role_of["b"]]
            record.white = self.names[role_of["w"]]
            ending = self._play(clients, role_of, record, times)
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

    def _play(self, clients, role_of, record, times) -> Ending:
        s = self.settings
        color, passes = "b", 0
        hard_limit = (OVERTIME_FACTOR * s.seconds + 5) if s.seconds else 300
        while True:
            if self.stop.is_set():
                raise KeyboardInterrupt
            other = "w" if color == "b" else "b"
            role = role_of[color]
            started = time.monotonic()
            try:
                reply = clients[role].command(
                    f"genmove {color}", timeout=hard_limit if role == "candidate" else 300)
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
                clients[role_of[other]].command(f"play {color} {reply}")
            except GtpClientError as error:
                return Ending("forfeit", color, f"move {reply} rejected: {error}")
            record.moves.append((color, point))
            passes = passes + 1 if point is None else 0
            if passes >= 2:
                return Ending("passes")
            if len(record.moves) >= s.max_moves:
                return Ending("max-moves")
            color = other


def progress_line(result: GameResult, done: int, total: int, wins: float) -> str:
    colour = "B" if result.candidate_color == "b" else "W"
    cand = result.candidate_seconds
    mean = sum(cand) / len(cand) if cand else 0.0
    outcome = {1.0: "win", 0.5: "draw", 0.0: "loss"}[result.points]
    flag = "  DISPUTED" if result.disputed else ""
    return (f"game {result.index + 1:3d} ({done}/{total})  seed {result.seed}  candidate {colour}  "
            f"{result.result:8s} {outcome:4s}  {result.moves:3d} moves  "
            f"{mean:.3f} s/move  running {wins:g}/{done}{flag}")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--games", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--size", default=9, show_default=True, type=click.Choice(["9", "13", "19"]))
@click.option("--komi", default=7.0, show_default=True, type=float)
@click.option("--seconds", default=0.5, show_default=True, type=click.FloatRange(min=0),
              help="Candidate's time limit per move (0 = none).")
@click.option("--playouts", default=None, type=click.IntRange(min=1),
              help="Candidate's playout budget per move (if it knows soloshop-playouts).")
@click.option("--threads", default=None, type=click.IntRange(1, 64),
              help="Candidate's search threads (if it knows soloshop-threads).")
@click.option("--level", default=10, show_default=True, type=click.IntRange(1, 10),
              help="GNU Go level for the default opponent ({level}).")
@click.option("--seed", "base_seed", default=1, show_default=True, type=int,
              help="Game i uses seed SEED+i.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(1, 8))
@click.option("--out", default="var/go-match", show_default=True,
              type=click.Path(file_okay=False, path_type=Path))
@click.option("--engine", "engine_cmd", default=None, help="Candidate GTP command line.")
@click.option("--opponent", "opponent_cmd", default=GNUGO_CMD, show_default=True)
@click.option("--referee-level", default=10, show_default=True, type=click.IntRange(1, 10))
@click.option("--max-moves", default=None, type=int, help="Default: 3 x board points.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def main(games, size, komi, seconds, playouts, threads, level, base_seed, jobs, out, engine_cmd,
         opponent_cmd, referee_level, max_moves, as_json):
    """Play GAMES games between two GTP engines and report the candidate's win rate."""
    size = int(size)
    (out / "logs").mkdir(parents=True, exist_ok=True)
    settings = MatchSettings(size=size, komi=komi, seconds=seconds or None, level=level,
                             engine_cmd=engine_cmd or default_engine_cmd(),
                             opponent_cmd=opponent_cmd, base_seed=base_seed,
                             max_moves=max_moves or 3 * size * size, out=out, playouts=playouts,
                             threads=threads)
    match = Match(settings, Referee(level=referee_level))
    results: list[GameResult] = []
    lock = threading.Lock()
    log = sys.stderr if as_json else sys.stdout
    started = time.monotonic()
    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = [pool.submit(match.play_game, i) for i in range(games)]
    try:
        for future in as_completed(futures):
            result = future.result()
            with lock:
                results.append(result)
                wins = sum(r.points for r in results)
                print(progress_line(result, len(results), games, wins), file=log, flush=True)
    except KeyboardInterrupt:
        match.stop.set()
        print("interrupted: stopping after the games in progress", file=sys.stderr)
    except (GtpClientError, RefereeError, OSError) as error:
        match.stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
        raise click.ClickException(f"the match stopped: {error}") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    results.sort(key=lambda r: r.index)
    conditions = {
        "candidate": match.names.get("candidate", "candidate"),
        "opponent": match.names.get("opponent", "opponent"),
        "candidate_cmd": settings.engine_cmd, "opponent_cmd": settings.opponent_cmd,
        "size": size, "komi": komi, "seconds": seconds or None, "playouts": playouts, "threads": threads,
        "level": level, "seeds": f"{base_seed}..{base_seed + games - 1}", "jobs": jobs,
        "referee_level": referee_level, "max_moves": settings.max_moves,
        "machine": machine(), "python": platform.python_version(),
        "wall_seconds": round(time.monotonic() - started, 1),
    }
    summary = summarize(results, conditions, seconds or None)
    write_json(out / "results.json",
               {"summary": summary, "games": [asdict(r) for r in results]})
    if as_json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary))
        print(f"  SGFs and results.json in {out}")
    if len(results) < games:
        raise SystemExit(1)


if __name__ == "__main__":
    main()

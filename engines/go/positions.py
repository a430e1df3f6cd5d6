"""Misread positions: how our Go engine judges positions from the games it lost.

A 50-game match against GNU Go takes 16 minutes and moves by +-4.6 points from run to run, too
coarse to see a change in how the engine reads capturing races and life and death, where its
losses come from. A fixed set of such positions is kept instead, each with a verdict that does
not depend on our engine (the benchmark entry point is bench/go_positions.py):

- `collect` replays every game our engine lost by resignation in a match's results (the `--out`
  of `engines match go`) and takes the last position, within its last WINDOW moves, where our
  engine (at PLAYOUTS) still gave itself at least an even chance. GNU Go 3.8 level 10 then plays
  that position out against itself with two seeds and the referee (engines.go.referee) scores
  both; the position is kept only when both continuations agree with the game's winner.
- `run` searches every kept position with our engine and reports the win rate it gives the
  side that actually wins: above 0.5 the position is read right.

A positions file is a JSON list, one position a line: source, size, komi, moves ("b E5"),
to_move, winner, found_winrate.
"""
from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Callable

from engines.go import sgf
from engines.go.coords import from_gtp, to_gtp
from engines.gtp_client import GtpClient
from engines.go.referee import GNUGO, Ending, Referee
from plumbing.errors import NamedError
from plumbing.files import atomic_write


class PositionsError(NamedError):
    """An input of the positions benchmark is missing or is not what it should be."""


def other(color: str) -> str:
    return "w" if color == "b" else "b"


def engine_at(size: int, komi: float, moves: list, seed: int = 1, threads: int = 1):
    """A GoEngine with MOVES played (the caller closes it)."""
    from engines.go import GoEngine

    e = GoEngine(size=size, komi=komi, seed=seed, threads=threads)
    for color, point in moves:
        e.play(color, point)
    return e


def continue_with_gnugo(size: int, komi: float, moves: list, seed: int,
                        level: int = 10) -> str | None:
    """GNU Go plays both sides from the position to the end; the referee names the winner."""
    rec = sgf.GameRecord(size=size, komi=komi, moves=list(moves))
    argv = [GNUGO, "--mode", "gtp", "--level", str(level), "--chinese-rules", "--komi",
            f"{komi:g}", "--seed", str(seed)]
    ending = Ending("max-moves")
    with GtpClient(argv, name="GNU Go") as g:
        g.command(f"boardsize {size}")
        g.command("clear_board")
        for color, point in moves:
            g.command(f"play {color} {to_gtp(point, size)}")
        color, passes = other(moves[-1][0]) if moves else "b", 0
        for _ in range(3 * size * size):
            reply = g.command(f"genmove {color}").strip().lower()
            if reply == "resign":
                ending = Ending("resign", loser=color)
                break
            point = from_gtp(reply, size)
            rec.moves.append((color, point))
            passes = passes + 1 if point is None else 0
            if passes == 2:
                ending = Ending("passes")
                break
            color = other(color)
    return Referee().judge(rec, ending).winner


def misread_position(rec: sgf.GameRecord, ours: str, playouts: int, window: int):
    """(move index, our win rate) of the last position before one of our last `window` moves
    where our engine gives itself at least 0.5; None when there is none."""
    ends = [i for i, (c, _) in enumerate(rec.moves) if c == ours][-window:]
    for i in reversed(ends):
        with engine_at(rec.size, rec.komi, rec.moves[:i]) as e:
            rate = e.analyze(ours, playouts=playouts)["winrate"]
        if rate >= 0.5:
            return i, rate
    return None


# ---------------------------------------------------------------- the positions file


def write_positions(path: Path, positions: list[dict]) -> None:
    """One position a line; the file is replaced whole, so an interrupted collect loses nothing."""
    atomic_write(path, "[\n" + ",\n".join(json.dumps(p) for p in positions) + "\n]\n")


def load_positions(path: Path) -> list[dict]:
    """The positions of PATH with their moves as (color, point)."""
    if not path.exists():
        raise PositionsError(f"{path} is missing: build it with `go_positions.py collect RUN...`")
    out = []
    for p in json.loads(path.read_text()):
        moves = [(color, from_gtp(vertex, p["size"]))
                 for color, vertex in (text.split() for text in p["moves"])]
        out.append({**p, "moves": moves})
    return out


# ---------------------------------------------------------------- collect and run


def lost_games(run: Path, base: Path):
    """(game, record) for every game of match RUN our engine lost by resignation; relative SGF
    paths in its results.json are read from BASE (where the match ran)."""
    summary = run / "results.json"
    if not summary.exists():
        raise PositionsError(f"{summary} is missing: is {run} the --out of `engines match go`?")
    for game in json.loads(summary.read_text())["games"]:
        ours, winner = game["candidate_color"], game["winner"]
        if winner in (None, ours) or game.get("ending") != "resign":
            continue
        path = Path(game["sgf"])
        yield game, path, sgf.load(path if path.is_absolute() else base / path)


def collect(runs: list[Path], out: Path, playouts: int, window: int, base: Path = Path("."),
            echo: Callable[[str], None] = print) -> list[dict]:
    """Add the misread positions of RUNS' lost games to OUT (kept across calls); returns all."""
    kept = json.loads(out.read_text()) if out.exists() else []
    seen = {p["source"] for p in kept}
    for run in runs:
        for game, path, rec in lost_games(run, base):
            ours, winner = game["candidate_color"], game["winner"]
            found = misread_position(rec, ours, playouts, window)
            if not found:
                echo(f"{path}: no misread position in the last {window} moves")
                continue
            index, rate = found
            source = f"{path} before move {index + 1}"
            if source in seen:
                continue
            verdicts = [continue_with_gnugo(rec.size, rec.komi, rec.moves[:index], seed)
                        for seed in (1, 2)]
            agree = all(v == winner for v in verdicts)
            echo(f"{source}: ours {rate:.2f}, game won by {winner}, GNU Go continuations "
                 f"{verdicts} -> {'kept' if agree else 'dropped'}")
            if agree:
                kept.append({"source": source, "size": rec.size, "komi": rec.komi,
                             "moves": [f"{c} {to_gtp(p, rec.size)}" for c, p in rec.moves[:index]],
                             "to_move": ours, "winner": winner, "found_winrate": round(rate, 3)})
                seen.add(source)
                write_positions(out, kept)
    return kept


def winner_winrate(p: dict, playouts: int, seeds: int, threads: int) -> float:
    """The mean win rate our engine gives the side that wins position P, over SEEDS seeds."""
    rates = []
    for seed in range(1, seeds + 1):
        with engine_at(p["size"], p["komi"], p["moves"], seed=seed, threads=threads) as e:
            rate = e.analyze(p["to_move"], playouts=playouts)["winrate"]
        rates.append(rate if p["winner"] == p["to_move"] else 1.0 - rate)
    return sum(rates) / len(rates)


def run(positions: list[dict], playouts: int, seeds: int, threads: int,
        echo: Callable[[str], None] | None = None) -> dict:
    """Search every position; the summary of the win rates given to the side that wins.
    ECHO, if given, gets a line per position."""
    rows, t0 = [], time.time()
    for k, p in enumerate(positions, 1):
        mean = winner_winrate(p, playouts, seeds, threads)
        rows.append({"source": p["source"], "winner_winrate": round(mean, 3)})
        if echo:
            verdict = "right" if mean > 0.5 else "misread"
            echo(f"{k:3}/{len(positions)}  {mean:.2f}  {verdict}  {p['source']}")
    return {
        "positions": len(rows), "read_right": sum(r["winner_winrate"] > 0.5 for r in rows),
        "mean_winner_winrate": round(sum(r["winner_winrate"] for r in rows) / max(1, len(rows)), 3),
        "conditions": {"playouts": playouts, "seeds": seeds, "threads": threads,
                       "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                       "seconds": round(time.time() - t0, 1)},
        "rows": rows,
    }

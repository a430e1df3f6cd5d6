"""Misread positions: how our Go engine judges positions from its lost games.

A 50-game match against GNU Go takes 16 minutes and moves by +-4.6 points from run to run, too
coarse to see a change in how the engine reads capturing races and life and death, where its
losses come from. This file keeps a fixed set of such positions instead, each with a verdict
that does not depend on our engine:

    .venv/bin/python bench/go_positions.py collect var/go-match-9x9-k var/go-match-9x9-l
    .venv/bin/python bench/go_positions.py run [--playouts 25000 --seeds 3]

`collect` replays every game our engine lost by resignation and takes the last position,
within its last --window moves, where our engine (at --playouts) still gave itself at least
an even chance. GNU Go 3.8 level 10 then plays that position out against itself with two seeds
and the referee (engines/go/referee.py) scores both; the position is kept only when both
continuations agree with the game's winner. `run` searches every kept position with our
engine and reports the win rate it gives the side that actually wins: above 0.5 the position
is read right. The positions (move lists) live in bench/go_positions.json.
"""
from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from a source tree

from engines.go import GoEngine, sgf  # noqa: E402
from engines.go.coords import from_gtp, to_gtp  # noqa: E402
from engines.go.gtp import GtpClient  # noqa: E402
from engines.go.referee import Ending, Referee  # noqa: E402

POSITIONS = ROOT / "bench" / "go_positions.json"
GNUGO = "/usr/games/gnugo"


def other(color: str) -> str:
    return "w" if color == "b" else "b"


def engine_at(size: int, komi: float, moves: list, seed: int = 1, threads: int = 1) -> GoEngine:
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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Positions from lost games where our engine misjudged the outcome."""


@main.command()
@click.argument("runs", nargs=-1, required=True,
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--playouts", default=25000, show_default=True,
              help="Our engine's budget when looking.")
@click.option("--window", default=10, show_default=True,
              help="How many of our last moves to look back.")
@click.option("--out", default=str(POSITIONS), show_default=True, type=click.Path(path_type=Path))
def collect(runs, playouts, window, out):
    """Collect misread positions from the lost games of match RUNS (bench/go_match.py --out)."""
    kept = json.loads(out.read_text()) if out.exists() else []
    seen = {p["source"] for p in kept}
    for run in runs:
        summary = run / "results.json"
        if not summary.exists():
            raise click.ClickException(
                f"{summary} is missing: is {run} a bench/go_match.py output?")
        for game in json.loads(summary.read_text())["games"]:
            ours, winner = game["candidate_color"], game["winner"]
            if winner in (None, ours) or game.get("ending") != "resign":
                continue
            path = Path(game["sgf"])
            rec = sgf.load(path if path.is_absolute() else ROOT / path)
            found = misread_position(rec, ours, playouts, window)
            if not found:
                click.echo(f"{path}: no misread position in the last {window} moves")
                continue
            index, rate = found
            source = f"{path} before move {index + 1}"
            if source in seen:
                continue
            verdicts = [continue_with_gnugo(rec.size, rec.komi, rec.moves[:index], seed)
                        for seed in (1, 2)]
            agree = all(v == winner for v in verdicts)
            click.echo(f"{source}: ours {rate:.2f}, game won by {winner}, GNU Go continuations "
                       f"{verdicts} -> {'kept' if agree else 'dropped'}")
            if agree:
                kept.append({"source": source, "size": rec.size, "komi": rec.komi,
                             "moves": [f"{c} {to_gtp(p, rec.size)}" for c, p in rec.moves[:index]],
                             "to_move": ours, "winner": winner, "found_winrate": round(rate, 3)})
                seen.add(source)
                write_positions(out, kept)
    click.echo(f"{len(kept)} positions in {out}")


def write_positions(path: Path, positions: list[dict]) -> None:
    """One position a line; the file is replaced whole, so an interrupted collect loses nothing."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text("[\n" + ",\n".join(json.dumps(p) for p in positions) + "\n]\n")
    tmp.replace(path)


def load_positions(path: Path) -> list[dict]:
    if not path.exists():
        raise click.ClickException(
            f"{path} is missing: build it with `go_positions.py collect RUN...`")
    out = []
    for p in json.loads(path.read_text()):
        moves = [(color, from_gtp(vertex, p["size"]))
                 for color, vertex in (text.split() for text in p["moves"])]
        out.append({**p, "moves": moves})
    return out


@main.command()
@click.option("--positions", "path", default=str(POSITIONS), show_default=True,
              type=click.Path(path_type=Path))
@click.option("--playouts", default=25000, show_default=True,
              help="Per position and seed (about what 0.436 s on two threads gives in a match).")
@click.option("--seeds", default=3, show_default=True, type=click.IntRange(1, 100))
@click.option("--threads", default=1, show_default=True, type=click.IntRange(1, 64))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def run(path, playouts, seeds, threads, as_json):
    """Search every position; report the win rate given to the side that wins."""
    positions = load_positions(path)
    rows, t0 = [], time.time()
    for k, p in enumerate(positions, 1):
        rates = []
        for seed in range(1, seeds + 1):
            with engine_at(p["size"], p["komi"], p["moves"], seed=seed, threads=threads) as e:
                rate = e.analyze(p["to_move"], playouts=playouts)["winrate"]
            rates.append(rate if p["winner"] == p["to_move"] else 1.0 - rate)
        mean = sum(rates) / len(rates)
        rows.append({"source": p["source"], "winner_winrate": round(mean, 3)})
        if not as_json:
            verdict = "right" if mean > 0.5 else "misread"
            click.echo(f"{k:3}/{len(positions)}  {mean:.2f}  {verdict}  {p['source']}")
    right = sum(r["winner_winrate"] > 0.5 for r in rows)
    summary = {
        "positions": len(rows), "read_right": right,
        "mean_winner_winrate": round(sum(r["winner_winrate"] for r in rows) / max(1, len(rows)), 3),
        "conditions": {"playouts": playouts, "seeds": seeds, "threads": threads,
                       "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                       "seconds": round(time.time() - t0, 1)},
        "rows": rows,
    }
    if as_json:
        click.echo(json.dumps(summary, indent=1))
    else:
        click.echo(f"read right: {right}/{len(rows)}; mean win rate given to the winner "
                   f"{summary['mean_winner_winrate']:.3f} ({playouts} playouts x {seeds} seeds, "
                   f"{threads} thread(s), {summary['conditions']['seconds']} s)")


if __name__ == "__main__":
    main()

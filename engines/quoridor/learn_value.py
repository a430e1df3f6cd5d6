"""Learn the Quoridor tree search's leaf value from self-play.

The leaf value (core/value.c) is a logistic model: a few facts of the position from the side
to move's view (both shortest paths, both walls in hand, the gain of each side's best wall
now) made into features by the core, weighed by VALUE_WEIGHTS (core/value_weights.h). Here
the engine plays itself at a small playout budget from random openings, and the weights are
fitted by logistic regression (Newton's method, a little L2) to whether the side to move went
on to win. The features come from the core itself (qr_leaf_facts, qr_value_features), so
training and play see the same description of a position.

    python -m engines.quoridor.learn_value selfplay --games 2000 -o var/quoridor-value/games.jsonl
    python -m engines.quoridor.learn_value fit var/quoridor-value/games.jsonl \\
        -o engines/quoridor/core/value_weights.h

With `selfplay --reference ROLLOUTS`, one side of each game is the reference method instead
(core/mcts.c's copy of quoridor-ai), which spends its walls early on corridors and traps:
self-play alone rarely reaches positions where one side holds many more walls than the other.
Those games' winners are confounded with the players' strength, though (the side that spent its
walls was the weaker bot). `selfplay --start-from GAMES` replays a position taken from such games
(game and ply drawn by the seed) and lets the engine play both sides from there, so the winner
says what the position is worth between equal players; `fit` learns only from the positions
after the replayed start.

Games are JSON lines: {"seed", "size", "walls", "playouts", "moves", "winner"} (winner 0 for
the player starting on e1, 1, or null for a game without one, which the fit leaves out),
{"reference": {"player", "rollouts"}} for a game against the reference method, and {"start": N}
for a game whose first N moves were replayed from another game.
"""
from __future__ import annotations

import json
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import click
import numpy as np

from engines.quoridor import rules
from engines.quoridor._core import ffi, lib
from engines.quoridor.engine import QuoridorEngine
from plumbing.cli import named_errors
from plumbing.errors import NamedError
from plumbing.files import atomic_write, read_json_lines

FEATURE_NAMES = ["bias", "paths", "walls", "gain", "threat", "no walls me", "no walls opp",
                 "paths near end", "first walls"]
assert len(FEATURE_NAMES) == lib.QR_VALUE_FEATURES


class NoPositions(NamedError):
    """The game records hold no decided game to learn from."""


@dataclass(frozen=True)
class SelfPlay:
    """How one self-play game is played."""
    size: int = 9
    playouts: int = 2000
    opening_plies: int = 4      # random legal moves first (a wall a quarter of the time)
    sample_plies: int = 10      # then moves drawn by the search's visits, for variety
    max_plies: int = 180
    reference: tuple[int, ...] = ()  # rollout levels of the reference method: when given, one side
                                     # of each game is that bot (level and colour by the seed)


def start_position(records: list[dict], seed: int, margin: int = 4) -> list[str]:
    """The moves that lead to the start of game SEED when starting from other games: a game of
    RECORDS and a ply in it, at least MARGIN plies from either end, drawn by the seed."""
    rng = random.Random(f"quoridor-value-start:{seed}")
    usable = [r for r in records if len(r["moves"]) > 2 * margin]
    if not usable:
        raise NoPositions(f"no game of more than {2 * margin} moves to start from")
    moves = rng.choice(usable)["moves"]
    return moves[:rng.randint(margin, len(moves) - margin)]


def _opponent(conf: SelfPlay, seed: int):
    """(the bot's player, its rollouts) for a game against the reference method, or None."""
    if not conf.reference:
        return None
    return seed % 2, conf.reference[(seed // 2) % len(conf.reference)]


def play_game(conf: SelfPlay, seed: int, start: list[str] | None = None) -> dict:
    """One game of the engine against itself; its record as a dict (see the module doc).
    With START (moves), the game replays them instead of a random opening."""
    rng = random.Random(f"quoridor-value:{seed}")
    eng = QuoridorEngine(size=conf.size, seed=seed, mcts_megabytes=32)
    walls = eng.walls_left[0]
    for move in start or ():
        eng.play(move)
    first = len(start) if start else conf.opening_plies     # where the searched moves begin
    for _ in range(0 if start else conf.opening_plies):
        use_wall = eng.walls_left[eng.to_move] > 0 and rng.random() < 0.25
        options = eng.legal_walls() if use_wall else eng.legal_pawn_moves()
        eng.play(rng.choice(options or eng.legal_pawn_moves()))
        if eng.winner is not None:
            break
    bot = _opponent(conf, seed)
    while eng.winner is None and len(eng.moves()) < conf.max_plies:
        if bot and eng.to_move == bot[0]:
            r = eng.search(playouts=bot[1], engine="reference-ai")
        else:
            r = eng.search(playouts=conf.playouts, engine="mcts")
        move = r["move"]
        if len(eng.moves()) < first + conf.sample_plies and r["candidate_visits"]:
            names = [c[0] for c in r["candidates"]]
            move = rng.choices(names, weights=r["candidate_visits"])[0]
        if move is None:
            break
        eng.play(move)
    out = {"seed": seed, "size": conf.size, "walls": walls, "playouts": conf.playouts,
           "moves": eng.moves(), "winner": eng.winner}
    if bot:
        out["reference"] = {"player": bot[0], "rollouts": bot[1]}
    if start:
        out["start"] = len(start)
    return out


def _play(task):
    return play_game(*task)


def selfplay(conf: SelfPlay, games: int, seed: int, jobs: int, echo=print,
             start_from: list[dict] | None = None) -> list[dict]:
    """GAMES games on JOBS processes, seeds SEED.., with a progress line now and then; with
    START_FROM (game records), each game starts from a position of one of them."""
    tasks = [(conf, seed + i, start_position(start_from, seed + i) if start_from else None)
             for i in range(games)]
    out, start = [], time.monotonic()
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for rec in pool.imap_unordered(_play, tasks):
            out.append(rec)
            if len(out) % max(1, games // 20) == 0 or len(out) == games:
                echo(f"selfplay: {len(out)}/{games} games, {time.monotonic() - start:.0f} s")
    return sorted(out, key=lambda r: r["seed"])


@dataclass
class Samples:
    x: np.ndarray        # (n, QR_VALUE_FEATURES) features
    y: np.ndarray        # (n,) 1 when the side to move won
    chance: np.ndarray   # (n,) the compiled value's chance
    game: np.ndarray     # (n,) which game (for the held-out split)


def samples(records) -> Samples:
    """Every position of every decided game where a wall is still in hand (a race without
    walls has its own exact value), from the game's replayed start on."""
    facts = ffi.new("int[]", lib.QR_LEAF_FACTS)
    feats = ffi.new("double[]", lib.QR_VALUE_FEATURES)
    x, y, chance, game = [], [], [], []
    for gi, rec in enumerate(records):
        if rec.get("winner") not in (0, 1):
            continue
        eng = QuoridorEngine(size=rec["size"], walls=rec.get("walls"))
        for ply, move in enumerate(rec["moves"]):
            b = eng.board
            if ply >= rec.get("start", 0) and lib.qr_leaf_facts(b, facts) == lib.QR_OK and (
                    facts[lib.QR_FACT_WALLS_ME] or facts[lib.QR_FACT_WALLS_OPP]):
                lib.qr_value_features(facts, feats)
                x.append(list(feats))
                y.append(1.0 if rec["winner"] == b.to_move else 0.0)
                chance.append(lib.qr_value_chance(facts))
                game.append(gi)
            eng.play(move)
    if not x:
        raise NoPositions("no decided game with a wall in hand: play more self-play games")
    return Samples(np.array(x), np.array(y), np.array(chance), np.array(game))


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, iterations: int = 30) -> np.ndarray:
    """Logistic regression weights by Newton's method (the bias is not shrunk)."""
    w = np.zeros(x.shape[1])
    shrink = np.full(x.shape[1], l2 * len(y))
    shrink[0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + shrink * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(shrink) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def predict(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(x @ w)))


def write_header(w: np.ndarray, path: Path, source: str) -> None:
    names = ", ".join(FEATURE_NAMES)
    lines = ["/* Generated by engines/quoridor/learn_value.py - do not edit. The leaf value's",
             f"   weights (QR_FEATURE_* order: {names}),",
             f"   fitted to {source}. */",
             "static const double VALUE_WEIGHTS[QR_VALUE_FEATURES] = {",
             "    " + ", ".join(f"{v:.4f}" for v in w) + ",",
             "};"]
    atomic_write(path, "\n".join(lines) + "\n")


def read_records(path: Path) -> list[dict]:
    return read_json_lines(path, NoPositions, "write it with `learn_value selfplay`")


def _rollout_levels(ctx, param, text: str) -> tuple[int, ...]:
    """--reference's comma list as rollout counts, each at least 1."""
    try:
        levels = tuple(int(v) for v in text.split(",") if v.strip())
    except ValueError:
        raise click.BadParameter(f"{text!r}: give rollout counts such as 2500,20000") from None
    if any(v < 1 for v in levels):
        raise click.BadParameter(f"{text!r}: rollouts must be at least 1")
    return levels


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Learn the Quoridor tree search's leaf value from self-play (see the module doc)."""


@main.command("selfplay")
@click.option("--games", default=2000, show_default=True, type=click.IntRange(1))
@click.option("--playouts", default=2000, show_default=True, type=click.IntRange(1),
              help="Our MCTS's playouts a move.")
@click.option("--size", default=9, show_default=True, type=click.Choice(["5", "7", "9"]))
@click.option("--seed", default=1, show_default=True, help="Game i uses seed SEED+i.")
@click.option("--jobs", default=2, show_default=True, type=click.IntRange(1, 64))
@click.option("--reference", default="", metavar="ROLLOUTS[,ROLLOUTS...]", callback=_rollout_levels,
              help="Play against the reference method (quoridor-ai's) at these rollouts a "
                   "move instead of self-play: game i's bot takes player i % 2 and the "
                   "levels in turn, so the data holds its early walls and corridors.")
@click.option("--start-from", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Start each game from a position of these game records (game and ply "
                   "by the seed) instead of a random opening; the engine plays both sides.")
@click.option("--sample-plies", default=SelfPlay.sample_plies, show_default=True,
              type=click.IntRange(0), help="Moves drawn by the search's visits after the "
                                           "opening (or the start), for variety.")
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
def selfplay_cmd(games, playouts, size, seed, jobs, reference, start_from, sample_plies, out):
    """Play GAMES self-play games (or games against the reference method) and write them as
    JSON lines to OUT."""
    conf = SelfPlay(size=int(size), playouts=playouts, reference=reference,
                    sample_plies=sample_plies)
    with named_errors():
        starts = read_records(start_from) if start_from else None
        if starts and any(r.get("size", 9) != conf.size for r in starts):
            raise NoPositions(f"{start_from} holds games of another size than --size {size}")
        recs = selfplay(conf, games, seed, jobs, echo=click.echo, start_from=starts)
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(out, "".join(json.dumps(r) + "\n" for r in recs))
    decided = sum(r["winner"] in (0, 1) for r in recs)
    click.echo(f"wrote {out}: {len(recs)} games, {decided} decided")


@main.command("fit")
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--holdout", default=0.1, show_default=True, help="Share of games kept out to measure the fit.")
@click.option("--l2", default=1e-3, show_default=True, help="Weight shrinkage a position.")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the C weights here.")
def fit_cmd(games, holdout, l2, out):
    """Fit the value's weights to the self-play GAMES; report the held-out log loss of the
    compiled weights and of the fit."""
    with named_errors():
        records = [r for path in games for r in read_records(path)]
        s = samples(records)
    ngames = int(s.game.max()) + 1
    test = np.isin(s.game, np.arange(ngames)[np.random.default_rng(0).random(ngames) < holdout])
    w = fit(s.x[~test], s.y[~test], l2)
    click.echo(f"{len(records)} games, {len(s.y)} positions ({int((~test).sum())} to fit, "
               f"{int(test.sum())} held out)")
    if test.any():
        for name, p in (("compiled weights", s.chance[test]), ("fitted weights", predict(w, s.x[test]))):
            acc = float(np.mean((p > 0.5) == (s.y[test] > 0.5)))
            click.echo(f"held out, {name}: log loss {log_loss(p, s.y[test]):.4f}, "
                       f"the winner called {acc:.1%}")
    w = fit(s.x, s.y, l2)
    for name, v in zip(FEATURE_NAMES, w):
        click.echo(f"  {name:>15} {v:+.4f}")
    if out:
        write_header(w, out, f"{len(s.y)} positions of {len(records)} self-play games")
        click.echo(f"wrote {out}")


if __name__ == "__main__":
    sys.exit(main())

"""Learn the Go engine's move priors from game records.

Every legal move of a position is a "team" of features: its 3x3 shape (with atari bits,
canonical under the 8 symmetries) and one value from each tactical class group (capture,
escape, self-atari, atari, two-liberty marks, own eye, distance to the last two moves, line).
A generalized Bradley-Terry model gives each feature a strength gamma; the probability that
the player chooses a move is the product of its features' gammas over the sum for all legal
moves. The gammas are fitted by minorization-maximization (Hunter 2004, as Coulom used for
move patterns in 2007), one feature group at a time, with one virtual win and one virtual
loss against a gamma-1 opponent so that rare features stay near neutral.

The result is C source (engines/go/core/shape_gammas.h) that the search reads when it expands
a node. The features themselves come from the C core (go_game_move_classes), so training and
play see exactly the same description of a move.

    python -m engines.go.learn_priors --player "GNU Go" var/go-selfplay -o engines/go/core/shape_gammas.h

The teacher can be any player named in the records' PB/PW, our own engine too: games it played
against itself at many times the playouts of a match teach the fast search what the slow one
chooses (expert iteration). `--skip N` leaves out the first N moves of every game (a match's
generated opening moves were not chosen by either player). The held-out games are scored by
the fitted table and by the table the core was built with, so a refit shows what it gains.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click
import numpy as np

from engines.go import sgf
from engines.go._core import ffi, lib
from plumbing.cli import named_errors
from plumbing.errors import NamedError
from plumbing.files import atomic_write

GROUPS = 9          # GO_CLASS_GROUPS in internal.h
VALUES = 5          # GO_CLASS_VALUES
GROUP_NAMES = ["capture", "escape", "self-atari", "atari", "two-liberty mark", "own eye",
               "distance to last move", "distance to the move before", "line"]


class NoSamples(NamedError):
    """No move of the player to learn from was found in the game records."""


def _warn(text: str) -> None:
    print(text, file=sys.stderr)


@dataclass
class Samples:
    """Candidates of every training position: shape key, classes, position index, chosen flag."""
    keys: np.ndarray      # uint32 (n,)
    classes: np.ndarray   # uint8 (n, GROUPS)
    pos: np.ndarray       # int64 (n,): which position the candidate belongs to
    chosen: np.ndarray    # bool (n,)
    games: np.ndarray     # int64 (n,): which game (for the held-out split)
    built: np.ndarray     # float (n,): the gamma of the table the core was built with


def sgf_files(paths) -> list[Path]:
    out = []
    for p in map(Path, paths):
        out.extend(sorted(p.rglob("*.sgf")) if p.is_dir() else [p])
    return out


def extract(files, player: str, warn=_warn, skip: int = 0) -> Samples:
    """Replay each game; at every move of `player` (matched against PB/PW) after the first
    SKIP moves of the game, list all legal moves.

    An unreadable file is skipped with a line to WARN; no move at all is NoSamples."""
    keys, classes, pos, chosen, games, built = [], [], [], [], [], []
    xy = ffi.new("int[]", 2 * 361)
    kbuf = ffi.new("uint32_t[]", 361)
    cbuf = ffi.new("uint8_t[]", 361 * GROUPS)
    gbuf = ffi.new("float[]", 361)
    cap, ncap = ffi.new("int[]", 2 * 361), ffi.new("int *")
    npos = 0
    for gi, path in enumerate(files):
        try:
            rec = sgf.load(path)
        except (OSError, ValueError) as exc:
            warn(f"skipping {path}: {exc}")
            continue
        teacher = {c for c, name in (("b", rec.black), ("w", rec.white)) if player.lower() in name.lower()}
        if not teacher or rec.setup_black or rec.setup_white:
            continue
        game = ffi.gc(lib.go_game_new(rec.size, float(rec.komi), 0), lib.go_game_free)
        for number, (color, point) in enumerate(rec.moves):
            c = 1 if color == "b" else 2
            if (number >= skip and color in teacher and point is not None
                    and lib.go_game_to_move(game) == c):
                n = lib.go_game_move_classes(game, xy, kbuf, cbuf, gbuf)
                pts = np.frombuffer(ffi.buffer(xy, 8 * n), dtype=np.int32).reshape(n, 2)
                hit = (pts[:, 0] == point[0]) & (pts[:, 1] == point[1])
                if hit.any():
                    keys.append(np.frombuffer(ffi.buffer(kbuf, 4 * n), dtype=np.uint32).copy())
                    classes.append(np.frombuffer(ffi.buffer(cbuf, n * GROUPS), dtype=np.uint8)
                                   .reshape(n, GROUPS).copy())
                    pos.append(np.full(n, npos))
                    chosen.append(hit)
                    games.append(np.full(n, gi))
                    built.append(np.frombuffer(ffi.buffer(gbuf, 4 * n), dtype=np.float32).copy())
                    npos += 1
            x, y = point if point is not None else (-1, -1)
            if lib.go_game_play(game, c, x, y, cap, ncap) != 0:
                break   # an illegal move in the record: keep what came before it
    if not npos:
        raise NoSamples(f"no moves of a player matching {player!r} in {len(files)} file(s)")
    return Samples(np.concatenate(keys), np.concatenate(classes), np.concatenate(pos),
                   np.concatenate(chosen), np.concatenate(games), np.concatenate(built))


@dataclass
class Model:
    shape_keys: np.ndarray    # uint32, the shapes rated on their own
    shape_gamma: np.ndarray   # float, same order
    rare_gamma: float
    class_gamma: np.ndarray   # (GROUPS, VALUES)


def feature_matrix(s: Samples, shape_keys: np.ndarray) -> np.ndarray:
    """Feature indices per candidate: column 0 the shape (unrated shapes share the last slot),
    columns 1.. the class values offset into one flat gamma vector."""
    nshape = len(shape_keys) + 1
    idx = np.searchsorted(shape_keys, s.keys)
    known = (idx < len(shape_keys)) & (shape_keys[np.minimum(idx, len(shape_keys) - 1)] == s.keys)
    col0 = np.where(known, idx, nshape - 1)
    cols = [col0] + [nshape + g * VALUES + s.classes[:, g].astype(np.int64) for g in range(GROUPS)]
    return np.stack(cols, axis=1)


def fit(s: Samples, min_count: int, iterations: int, echo=None) -> Model:
    """Fit the gammas by minorization-maximization; ECHO (if given) gets the log-likelihood
    every five iterations."""
    keys, counts = np.unique(s.keys[s.chosen], return_counts=True)
    shape_keys = keys[counts >= min_count].astype(np.uint32)
    feats = feature_matrix(s, shape_keys)
    nfeat = len(shape_keys) + 1 + GROUPS * VALUES
    gamma = np.ones(nfeat)
    wins = np.bincount(feats[s.chosen].ravel(), minlength=nfeat).astype(float)
    npos = int(s.pos.max()) + 1
    groups = [np.arange(len(shape_keys) + 1)] + [
        len(shape_keys) + 1 + g * VALUES + np.arange(VALUES) for g in range(GROUPS)]
    for it in range(iterations):
        for col, members in enumerate(groups):
            team = np.prod(gamma[feats], axis=1)
            total = np.bincount(s.pos, weights=team, minlength=npos)
            share = team / gamma[feats[:, col]] / total[s.pos]
            c = np.bincount(feats[:, col], weights=share, minlength=nfeat)[members]
            g = gamma[members]
            gamma[members] = (wins[members] + 1.0) / (c + 2.0 / (g + 1.0))
        if echo and (it % 5 == 4 or it == iterations - 1):
            echo(f"  iteration {it + 1}: log-likelihood per move {log_likelihood(s, feats, gamma):.4f}")
    nshape = len(shape_keys) + 1
    return Model(shape_keys, gamma[:nshape - 1].copy(), float(gamma[nshape - 1]),
                 gamma[nshape:].reshape(GROUPS, VALUES).copy())


def model_gamma_vector(m: Model) -> np.ndarray:
    return np.concatenate([m.shape_gamma, [m.rare_gamma], m.class_gamma.ravel()])


def log_likelihood(s: Samples, feats: np.ndarray, gamma: np.ndarray) -> float:
    team = np.prod(gamma[feats], axis=1)
    npos = int(s.pos.max()) + 1
    total = np.bincount(s.pos, weights=team, minlength=npos)
    picked = np.bincount(s.pos, weights=np.where(s.chosen, team, 0.0), minlength=npos)
    ok = picked > 0
    return float(np.mean(np.log(picked[ok] / total[ok])))


def accuracy(s: Samples, m: Model | None) -> tuple[float, float]:
    """Share of positions where the chosen move ranks first, and within the top 5, by model M
    (None: by the table the core was built with)."""
    team = s.built if m is None else np.prod(model_gamma_vector(m)[feature_matrix(s, m.shape_keys)], axis=1)
    order = np.lexsort((-team, s.pos))          # by position, then falling gamma
    pos, chosen = s.pos[order], s.chosen[order]
    start = np.r_[0, np.flatnonzero(np.diff(pos)) + 1]
    rank = np.arange(len(pos)) - np.repeat(start, np.diff(np.r_[start, len(pos)]))
    r = rank[chosen]
    return float(np.mean(r == 0)), float(np.mean(r < 5))


def subset(s: Samples, mask: np.ndarray) -> Samples:
    _, pos = np.unique(s.pos[mask], return_inverse=True)
    return Samples(s.keys[mask], s.classes[mask], pos, s.chosen[mask], s.games[mask], s.built[mask])


def write_header(m: Model, path: Path, source: str) -> None:
    scale = float(np.exp(np.mean(np.log(m.shape_gamma)))) if len(m.shape_gamma) else 1.0
    lines = [
        "/* Generated by engines/go/learn_priors.py - do not edit. Move strengths (gammas) of a",
        f"   generalized Bradley-Terry model fitted to {source}. */",
        f"static const uint32_t SHAPE_KEYS[] = {{{', '.join(str(int(k)) for k in m.shape_keys) or '0'}}};",
        f"static const float SHAPE_GAMMAS[] = {{{', '.join(_cfloat(g / scale) for g in m.shape_gamma) or '1.0f'}}};",
        f"static const float SHAPE_GAMMA_RARE = {_cfloat(m.rare_gamma / scale)};",
        f"static const float CLASS_GAMMAS[{GROUPS}][{VALUES}] = {{",
    ]
    for g in range(GROUPS):
        row = m.class_gamma[g] / m.class_gamma[g][0]
        lines.append("    {" + ", ".join(_cfloat(v) for v in row) + f"}}, /* {GROUP_NAMES[g]} */")
    lines.append("};")
    atomic_write(path, "\n".join(_wrap(lines)) + "\n")


def _cfloat(v: float) -> str:
    text = f"{v:.4g}"
    return (text if any(ch in text for ch in ".e") else text + ".0") + "f"


def _wrap(lines, width=100):
    for line in lines:
        while len(line) > width:
            cut = line.rfind(", ", 0, width - 1) + 1
            yield line[:cut]
            line = "    " + line[cut:].lstrip()
        yield line


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--player", default="GNU Go", show_default=True,
              help="Learn the moves of the player whose PB/PW name contains this.")
@click.option("--min-count", default=3, show_default=True, help="Shapes chosen fewer times share one gamma.")
@click.option("--iterations", default=25, show_default=True)
@click.option("--holdout", default=0.1, show_default=True, help="Share of games kept out to measure accuracy.")
@click.option("--skip", default=0, show_default=True, type=click.IntRange(min=0),
              help="Moves at the start of every game not learned from (a match's generated opening).")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the C table here.")
def main(paths, player, min_count, iterations, holdout, skip, out):
    """Fit move-prior gammas to the moves PLAYER chose in the SGF files under PATHS."""
    files = sgf_files(paths)
    with named_errors():
        s = extract(files, player, warn=lambda text: click.echo(text, err=True), skip=skip)
    ngames = int(s.games.max()) + 1
    test_games = np.arange(ngames)[np.random.default_rng(0).random(ngames) < holdout]
    is_test = np.isin(s.games, test_games)
    train, test = subset(s, ~is_test), subset(s, is_test)
    click.echo(f"{len(files)} files, {int(s.pos.max()) + 1} positions of {player!r} "
               f"({int(train.pos.max()) + 1} to train, {int(test.pos.max()) + 1 if is_test.any() else 0} held out)")
    m = fit(train, min_count, iterations, echo=click.echo)
    if is_test.any():
        for name, model in (("fitted table", m), ("table built in", None)):
            top1, top5 = accuracy(test, model)
            click.echo(f"held out, {name}: the chosen move ranks first {top1:.1%}, in the top 5 {top5:.1%}")
    click.echo(f"{len(m.shape_keys)} shapes rated, others share gamma {m.rare_gamma:.3g}")
    if out:
        write_header(fit(s, min_count, iterations, echo=None), out,
                     f"{int(s.pos.max()) + 1} moves of {player} in {len(files)} games")
        click.echo(f"wrote {out}")


if __name__ == "__main__":
    sys.exit(main())

"""Learn the Go engine's move priors from game records.

Every legal move of a position is a "team" of features: its 3x3 shape (with atari bits,
canonical under the 8 symmetries), one value from each tactical class group (capture,
escape, self-atari, atari, two-liberty marks, own eye, distance to the last two moves, line)
and its largest rated large pattern (the stones and edges around it out to one of
GO_PATTERN_SIZES sizes, known by a hash; canonical: the smallest of its 8 symmetric hashes).
A large pattern is rated when it surrounds at least --pattern-min-count chosen moves; each
smaller size of a rated pattern is then rated too, so the core finds a move's largest one by
growing it until a size is not in the table.
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
the fitted table and by the table the core was built with, so a refit shows what it gains;
games that open with the same SKIP moves (a match plays each opening twice) are held out
together, so no position of a held-out game was trained on.

`--patterns-only` fits the large patterns alone on top of the shapes and classes the core was
built with (their gammas held fixed), and writes them into a copy of that table: a teacher
then adds what the 3x3 square cannot see without moving the rest of the prior.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click
import numpy as np

from engines.cbuild import c_float
from engines.go import sgf
from engines.go._core import ffi, lib
from plumbing.cli import named_errors
from plumbing.errors import NamedError
from plumbing.files import atomic_write

GROUPS = 9          # GO_CLASS_GROUPS in internal.h
VALUES = 5          # GO_CLASS_VALUES
SIZES, SYMS = lib.GO_PATTERN_SIZES, lib.GO_PATTERN_SYMS
GROUP_NAMES = ["capture", "escape", "self-atari", "atari", "two-liberty mark", "own eye",
               "distance to last move", "distance to the move before", "line"]


class NoSamples(NamedError):
    """No move of the player to learn from was found in the game records."""


class TableHasPatterns(NamedError):
    """--patterns-only needs a built-in table without large patterns to hold fixed."""


BUILT_TABLE = Path(__file__).parent / "core" / "shape_gammas.h"


def _warn(text: str) -> None:
    print(text, file=sys.stderr)


@dataclass
class Samples:
    """Candidates of every training position: shape key, classes, position index, chosen flag."""
    keys: np.ndarray      # uint32 (n,)
    classes: np.ndarray   # uint8 (n, GROUPS)
    pos: np.ndarray       # int64 (n,): which position the candidate belongs to
    chosen: np.ndarray    # bool (n,)
    games: np.ndarray     # int64 (n,): which opening (games that share one are held out together)
    built: np.ndarray     # float (n,): the gamma of the table the core was built with
    patterns: np.ndarray  # uint64 (n, SIZES): canonical hash of each size of large pattern
    variants: np.ndarray  # uint64 (positions, SYMS, SIZES): the chosen move's hashes, every symmetry
    board_size: int       # the records' board size; 0 when they mix sizes


def sgf_files(paths) -> list[Path]:
    out = []
    for p in map(Path, paths):
        out.extend(sorted(p.rglob("*.sgf")) if p.is_dir() else [p])
    return out


def extract(files, player: str, warn=_warn, skip: int = 0) -> Samples:
    """Replay each game; at every move of `player` (matched against PB/PW) after the first
    SKIP moves of the game, list all legal moves.

    An unreadable file is skipped with a line to WARN; no move at all is NoSamples."""
    keys, classes, pos, chosen, games, built, patterns, variants = [], [], [], [], [], [], [], []
    xy = ffi.new("int[]", 2 * 361)
    kbuf = ffi.new("uint32_t[]", 361)
    cbuf = ffi.new("uint8_t[]", 361 * GROUPS)
    gbuf = ffi.new("float[]", 361)
    hbuf = ffi.new("uint64_t[]", 361 * SYMS * SIZES)
    cap, ncap = ffi.new("int[]", 2 * 361), ffi.new("int *")
    npos, board_sizes, openings = 0, set(), {}
    for path in files:
        try:
            rec = sgf.load(path)
        except (OSError, ValueError) as exc:
            warn(f"skipping {path}: {exc}")
            continue
        teacher = {c for c, name in (("b", rec.black), ("w", rec.white)) if player.lower() in name.lower()}
        if not teacher or rec.setup_black or rec.setup_white:
            continue
        gi = openings.setdefault((rec.size, tuple(rec.moves[:skip])) if skip else path, len(openings))
        game = ffi.gc(lib.go_game_new(rec.size, float(rec.komi), 0), lib.go_game_free)
        for number, (color, point) in enumerate(rec.moves):
            c = 1 if color == "b" else 2
            if (number >= skip and color in teacher and point is not None
                    and lib.go_game_to_move(game) == c):
                n = lib.go_game_move_classes(game, xy, kbuf, cbuf, gbuf)
                pts = np.frombuffer(ffi.buffer(xy, 8 * n), dtype=np.int32).reshape(n, 2)
                hit = (pts[:, 0] == point[0]) & (pts[:, 1] == point[1])
                if hit.any():
                    if lib.go_game_move_patterns(game, hbuf) != n:   # the same moves, by contract
                        raise RuntimeError(f"{path}: the core listed moves for patterns and classes apart")
                    hashes = np.frombuffer(ffi.buffer(hbuf, 8 * n * SYMS * SIZES),
                                           dtype=np.uint64).reshape(n, SYMS, SIZES)
                    patterns.append(hashes.min(axis=1))
                    variants.append(hashes[hit][0].copy())
                    board_sizes.add(rec.size)
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
                   np.concatenate(chosen), np.concatenate(games), np.concatenate(built),
                   np.concatenate(patterns), np.stack(variants),
                   board_sizes.pop() if len(board_sizes) == 1 else 0)


@dataclass
class Model:
    shape_keys: np.ndarray    # uint32, the shapes rated on their own
    shape_gamma: np.ndarray   # float, same order
    rare_gamma: float
    class_gamma: np.ndarray   # (GROUPS, VALUES)
    pattern_keys: np.ndarray  # uint64, canonical hashes of the rated large patterns (sorted)
    pattern_gamma: np.ndarray # float, same order
    pattern_none: float       # the gamma of a move with no rated large pattern
    pattern_variants: np.ndarray  # uint64 (patterns, SYMS): each rated pattern's hash per symmetry
    board_size: int           # the patterns' board (the edges are in them); 0: any
    base: str | None = None   # --patterns-only: the C text of the built-in shapes and classes
                              # the patterns were fitted on top of (then the shape and class
                              # fields are unused)


def known_index(keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Index of each value in the sorted KEYS; len(KEYS) where it is not there."""
    if not len(keys):
        return np.zeros(len(values), dtype=np.int64)
    idx = np.searchsorted(keys, values)
    hit = (idx < len(keys)) & (keys[np.minimum(idx, len(keys) - 1)] == values)
    return np.where(hit, idx, len(keys))


def pattern_index(patterns: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Per candidate, the index in KEYS of its largest rated pattern; len(KEYS) for none. Like
    the core, it grows the pattern while each size is rated (the rated set holds every smaller
    size of a rated pattern, so this is the largest one)."""
    idx = np.full(len(patterns), len(keys), dtype=np.int64)
    growing = np.ones(len(patterns), dtype=bool)
    for size in range(SIZES):
        found = known_index(keys, patterns[:, size])
        growing &= found < len(keys)
        idx = np.where(growing, found, idx)
    return idx


def feature_matrix(s: Samples, shape_keys: np.ndarray, pattern_keys: np.ndarray) -> np.ndarray:
    """Feature indices per candidate into one flat gamma vector: column 0 the shape (unrated
    shapes share the slot after the rated ones), columns 1..GROUPS the class values, the last
    column the largest rated large pattern (none: the slot after the rated ones)."""
    nshape = len(shape_keys) + 1
    cols = [known_index(shape_keys, s.keys)]
    cols += [nshape + g * VALUES + s.classes[:, g].astype(np.int64) for g in range(GROUPS)]
    cols.append(nshape + GROUPS * VALUES + pattern_index(s.patterns, pattern_keys))
    return np.stack(cols, axis=1)


def rated_patterns(s: Samples, min_count: int) -> tuple[np.ndarray, np.ndarray]:
    """Canonical hashes of the large patterns (any size) around at least MIN_COUNT chosen
    moves, sorted, and each one's hashes through every symmetry (for the core's table)."""
    canon = s.variants.min(axis=1).ravel()                       # (positions * SIZES,)
    every = s.variants.transpose(0, 2, 1).reshape(-1, SYMS)      # the same order
    keys, first, counts = np.unique(canon, return_index=True, return_counts=True)
    keep = counts >= min_count
    return keys[keep], every[first[keep]]


def mm_step(wins: np.ndarray, c: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """One minorization-maximization update of a feature group's gammas: WINS (times chosen)
    over C (summed share of the team's strength), with one virtual win and one virtual loss
    against a gamma-1 opponent so that rare features stay near neutral."""
    return (wins + 1.0) / (c + 2.0 / (gamma + 1.0))


def fit(s: Samples, min_count: int, iterations: int, echo=None, pattern_min_count: int = 5) -> Model:
    """Fit the gammas by minorization-maximization; ECHO (if given) gets the log-likelihood
    every five iterations."""
    keys, counts = np.unique(s.keys[s.chosen], return_counts=True)
    shape_keys = keys[counts >= min_count].astype(np.uint32)
    pattern_keys, pattern_variants = rated_patterns(s, pattern_min_count)
    feats = feature_matrix(s, shape_keys, pattern_keys)
    nshape, npattern = len(shape_keys) + 1, len(pattern_keys) + 1
    nfeat = nshape + GROUPS * VALUES + npattern
    gamma = np.ones(nfeat)
    wins = np.bincount(feats[s.chosen].ravel(), minlength=nfeat).astype(float)
    npos = int(s.pos.max()) + 1
    groups = [np.arange(nshape)] + [nshape + g * VALUES + np.arange(VALUES) for g in range(GROUPS)]
    groups.append(nshape + GROUPS * VALUES + np.arange(npattern))
    for it in range(iterations):
        for col, members in enumerate(groups):
            team = np.prod(gamma[feats], axis=1)
            total = np.bincount(s.pos, weights=team, minlength=npos)
            share = team / gamma[feats[:, col]] / total[s.pos]
            c = np.bincount(feats[:, col], weights=share, minlength=nfeat)[members]
            gamma[members] = mm_step(wins[members], c, gamma[members])
        if echo and (it % 5 == 4 or it == iterations - 1):
            echo(f"  iteration {it + 1}: log-likelihood per move {log_likelihood(s, feats, gamma):.4f}")
    classes = gamma[nshape:nshape + GROUPS * VALUES].reshape(GROUPS, VALUES).copy()
    patterns = gamma[nshape + GROUPS * VALUES:]
    return Model(shape_keys, gamma[:nshape - 1].copy(), float(gamma[nshape - 1]), classes,
                 pattern_keys, patterns[:-1].copy(), float(patterns[-1]), pattern_variants, s.board_size)


def built_table_base(path: Path | None = None) -> str:
    """The shapes and classes of the table the core was built with (PATH: BUILT_TABLE), as C
    text, for --patterns-only (which holds them fixed and adds patterns)."""
    path = path or BUILT_TABLE
    text = path.read_text()
    if "#define PATTERN_COUNT 0\n" not in text:
        raise TableHasPatterns(f"{path} already rates large patterns; --patterns-only fits them on "
                               "top of a table without any (fit everything instead, or build the "
                               "core with the pattern section emptied)")
    return text[:text.index("#define PATTERN_COUNT")]


def fit_patterns(s: Samples, iterations: int, base: str, echo=None, pattern_min_count: int = 5) -> Model:
    """Fit only the large patterns by MM, each move's team being its built-in gamma (shape
    times classes, BASE's table) times its largest rated pattern's gamma."""
    keys, variants = rated_patterns(s, pattern_min_count)
    idx = pattern_index(s.patterns, keys)
    n = len(keys) + 1
    gamma = np.ones(n)
    wins = np.bincount(idx[s.chosen], minlength=n).astype(float)
    npos = int(s.pos.max()) + 1
    for it in range(iterations):
        total = np.bincount(s.pos, weights=s.built * gamma[idx], minlength=npos)
        c = np.bincount(idx, weights=s.built / total[s.pos], minlength=n)
        gamma = mm_step(wins, c, gamma)
        if echo and (it % 5 == 4 or it == iterations - 1):
            echo(f"  iteration {it + 1}: log-likelihood per move {mean_log_share(s, s.built * gamma[idx]):.4f}")
    return Model(np.zeros(0, np.uint32), np.zeros(0), 1.0, np.ones((GROUPS, VALUES)),
                 keys, gamma[:-1].copy(), float(gamma[-1]), variants, s.board_size, base)


def model_gamma_vector(m: Model) -> np.ndarray:
    return np.concatenate([m.shape_gamma, [m.rare_gamma], m.class_gamma.ravel(),
                           m.pattern_gamma, [m.pattern_none]])


def log_likelihood(s: Samples, feats: np.ndarray, gamma: np.ndarray) -> float:
    return mean_log_share(s, np.prod(gamma[feats], axis=1))


def mean_log_share(s: Samples, team: np.ndarray) -> float:
    """Mean log of the chosen move's share of its position's total (candidate gammas TEAM)."""
    npos = int(s.pos.max()) + 1
    total = np.bincount(s.pos, weights=team, minlength=npos)
    picked = np.bincount(s.pos, weights=np.where(s.chosen, team, 0.0), minlength=npos)
    ok = picked > 0
    return float(np.mean(np.log(picked[ok] / total[ok])))


def team_gamma(s: Samples, m: Model | None) -> np.ndarray:
    """Each candidate's gamma by model M (None: by the table the core was built with)."""
    if m is None:
        return s.built.astype(float)
    if m.base is not None:
        return s.built * np.r_[m.pattern_gamma, m.pattern_none][pattern_index(s.patterns, m.pattern_keys)]
    return np.prod(model_gamma_vector(m)[feature_matrix(s, m.shape_keys, m.pattern_keys)], axis=1)


def accuracy(s: Samples, m: Model | None) -> tuple[float, float]:
    """Share of positions where the chosen move ranks first, and within the top 5, by model M
    (None: by the table the core was built with)."""
    team = team_gamma(s, m)
    order = np.lexsort((-team, s.pos))          # by position, then falling gamma
    pos, chosen = s.pos[order], s.chosen[order]
    start = np.r_[0, np.flatnonzero(np.diff(pos)) + 1]
    rank = np.arange(len(pos)) - np.repeat(start, np.diff(np.r_[start, len(pos)]))
    r = rank[chosen]
    return float(np.mean(r == 0)), float(np.mean(r < 5))


def subset(s: Samples, mask: np.ndarray) -> Samples:
    _, pos = np.unique(s.pos[mask], return_inverse=True)
    positions = np.unique(s.pos[mask])
    return Samples(s.keys[mask], s.classes[mask], pos, s.chosen[mask], s.games[mask], s.built[mask],
                   s.patterns[mask], s.variants[positions], s.board_size)


def write_header(m: Model, path: Path, source: str) -> None:
    if m.base is not None:
        comment_end = m.base.index("*/") + 2
        lines = [m.base[:comment_end - 2].rstrip() + f"\n   Large patterns fitted on top of them to {source}. */",
                 *m.base[comment_end:].strip("\n").splitlines()]
        atomic_write(path, "\n".join(lines + list(_wrap(_pattern_table(m)))) + "\n")
        return
    scale = float(np.exp(np.mean(np.log(m.shape_gamma)))) if len(m.shape_gamma) else 1.0
    lines = [
        "/* Generated by engines/go/learn_priors.py - do not edit. Move strengths (gammas) of a",
        f"   generalized Bradley-Terry model fitted to {source}. */",
        f"static const uint32_t SHAPE_KEYS[] = {{{', '.join(str(int(k)) for k in m.shape_keys) or '0'}}};",
        f"static const float SHAPE_GAMMAS[] = {{{', '.join(c_float(g / scale) for g in m.shape_gamma) or '1.0f'}}};",
        f"static const float SHAPE_GAMMA_RARE = {c_float(m.rare_gamma / scale)};",
        f"static const float CLASS_GAMMAS[{GROUPS}][{VALUES}] = {{",
    ]
    for g in range(GROUPS):
        row = m.class_gamma[g] / m.class_gamma[g][0]
        lines.append("    {" + ", ".join(c_float(v) for v in row) + f"}}, /* {GROUP_NAMES[g]} */")
    lines.append("};")
    lines += _pattern_table(m)
    atomic_write(path, "\n".join(_wrap(lines)) + "\n")


def _pattern_table(m: Model) -> list[str]:
    """Every symmetric variant of each rated large pattern with its gamma (the core cannot turn
    a hash), the gamma of moves with none, the board size they were learned on (their edges are
    that board's) and the hashing's fingerprint the table is valid for."""
    hashes, gammas = [], []
    for variants, g in zip(m.pattern_variants, m.pattern_gamma):
        for h in np.unique(variants):
            hashes.append(int(h))
            gammas.append(g)
    scale = float(np.exp(np.mean(np.log(m.pattern_gamma)))) if len(m.pattern_gamma) else 1.0
    bits = max(4, int(np.ceil(np.log2(2 * len(hashes) + 1))))   # at most half full
    return [
        f"#define PATTERN_COUNT {len(hashes)}",
        f"#define PATTERN_HASH_BITS {bits}",
        f"#define PATTERN_BOARD_SIZE {m.board_size}",
        f"static const uint64_t PATTERN_FINGERPRINT = {int(lib.go_pattern_fingerprint())}u;",
        f"static const uint64_t PATTERN_HASHES[] = {{{', '.join(f'{h}u' for h in hashes) or '0'}}};",
        f"static const float PATTERN_GAMMAS[] = {{{', '.join(c_float(g / scale) for g in gammas) or '1.0f'}}};",
        f"static const float PATTERN_GAMMA_NONE = {c_float(m.pattern_none / scale)};",
    ]


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
@click.option("--pattern-min-count", default=5, show_default=True,
              help="Large patterns chosen fewer times are not rated (a move's largest rated one counts).")
@click.option("--iterations", default=25, show_default=True)
@click.option("--holdout", default=0.1, show_default=True, help="Share of games kept out to measure accuracy.")
@click.option("--skip", default=0, show_default=True, type=click.IntRange(min=0),
              help="Moves at the start of every game not learned from (a match's generated opening).")
@click.option("--patterns-only", is_flag=True,
              help="Fit only the large patterns, holding the built-in table's shapes and classes "
                   "fixed; -o writes them into a copy of that table.")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the C table here.")
def main(paths, player, min_count, pattern_min_count, iterations, holdout, skip, patterns_only, out):
    """Fit move-prior gammas to the moves PLAYER chose in the SGF files under PATHS."""
    files = sgf_files(paths)
    with named_errors():
        base = built_table_base() if patterns_only else None
        s = extract(files, player, warn=lambda text: click.echo(text, err=True), skip=skip)

    def fit_all(samples, echo):
        if base is not None:
            return fit_patterns(samples, iterations, base, echo=echo, pattern_min_count=pattern_min_count)
        return fit(samples, min_count, iterations, echo=echo, pattern_min_count=pattern_min_count)

    ngames = int(s.games.max()) + 1
    test_games = np.arange(ngames)[np.random.default_rng(0).random(ngames) < holdout]
    is_test = np.isin(s.games, test_games)
    train, test = subset(s, ~is_test), subset(s, is_test)
    click.echo(f"{len(files)} files, {int(s.pos.max()) + 1} positions of {player!r} "
               f"({int(train.pos.max()) + 1} to train, {int(test.pos.max()) + 1 if is_test.any() else 0} held out)")
    m = fit_all(train, click.echo)
    if is_test.any():
        for name, model in (("fitted table", m), ("table built in", None)):
            top1, top5 = accuracy(test, model)
            loss = -mean_log_share(test, team_gamma(test, model))
            click.echo(f"held out, {name}: the chosen move ranks first {top1:.1%}, in the top 5 "
                       f"{top5:.1%}; log loss {loss:.3f}")
    shapes = ("the built-in shapes and classes held fixed" if base is not None else
              f"{len(m.shape_keys)} shapes rated, others share gamma {m.rare_gamma:.3g}")
    click.echo(f"{shapes}; {len(m.pattern_keys)} large patterns rated, moves with none get {m.pattern_none:.3g}")
    if out:
        write_header(fit_all(s, None), out,
                     f"{int(s.pos.max()) + 1} moves of {player} in {len(files)} games")
        click.echo(f"wrote {out}")


if __name__ == "__main__":
    sys.exit(main())

"""Gomoku openings for matches: Gomocup's offset form, read from a file or generated.

File format (Gomocup's opening files, so they load in its manager too): one opening a line,
`X,Y` pairs from the board's centre separated by commas (`0,0, 1,-1, -1,1`), black's stone
first, then alternating; Y grows downwards as in the brain protocol. Blank lines are skipped.
An opening's id is `FILE:LINE`. A point off the board, a point twice, a move the rule refuses
(renju's forbidden points) or a five is an `OpeningError` naming the file and line.

The balanced openings kept in the repo (`engines/gomoku/openings/balanced-RULE.txt`, 100 each,
15x15) come from `generate_balanced` (`python -m engines.gomoku.openings RULE`), which is
reproducible from its seed: random 3- to 5-stone openings in the centre's 7x7 square, each
stone within two points of an earlier one, one per class of the board's eight symmetries,
kept when the engine's own search at a fixed depth (no time budget, so the same on every
machine) finds no proven win and scores the position within BALANCE_MARGIN of zero for the
side to move. See `engines/gomoku/openings/README.md` for the figures of the kept files.
"""
from __future__ import annotations

import argparse
import hashlib
import random
from dataclasses import dataclass
from pathlib import Path

from engines.gomoku import rules
from plumbing.errors import NamedError

Point = tuple[int, int]
OPENINGS_DIR = Path(__file__).with_name("openings")
BALANCED_SEED = 15
BALANCED_DEPTH = 7
BALANCE_MARGIN = 40      # evaluation units: one open two is about 8 windows x 8


class OpeningError(NamedError):
    """An opening file that cannot be used; names the file and line."""


@dataclass(frozen=True)
class Opening:
    id: str
    moves: tuple[Point, ...]        # absolute (x, y) on a 15x15 board; see `placed`

    def placed(self, size: int) -> tuple[Point, ...]:
        """The moves on a SIZE board (the offsets kept around its centre)."""
        shift = size // 2 - 7
        return tuple((x + shift, y + shift) for x, y in self.moves)

    def offsets(self) -> str:
        return ", ".join(f"{x - 7},{y - 7}" for x, y in self.moves)


EMPTY = Opening("empty", ())


def balanced_path(rule: str) -> Path:
    return OPENINGS_DIR / f"balanced-{rule}.txt"


def load_balanced(rule: str) -> list[Opening]:
    return load(balanced_path(rule), 15, rule)


def source_id(path: str | Path) -> str:
    """The opening source as the journal records it: the path and a hash of its content."""
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    return f"{path} (sha256 {digest})"


def parse_offsets(text: str, where: str) -> list[Point]:
    """`X,Y, X,Y, ...` from the centre -> [(dx, dy)]."""
    numbers = [part.strip() for part in text.split(",")]
    if len(numbers) % 2 or not all(n.lstrip("-").isdigit() for n in numbers):
        raise OpeningError(f"{where}: {text.strip()!r} is not X,Y pairs from the centre "
                           "(e.g. 0,0, 1,-1)")
    values = [int(n) for n in numbers]
    return list(zip(values[0::2], values[1::2]))


def check_opening(moves: list[Point], size: int, rule: str, where: str) -> None:
    """Every move legal under RULE on a SIZE board, and no five; else OpeningError."""
    game = rules.Game(size, rule)
    for number, point in enumerate(moves, start=1):
        error = game.why_illegal(point)
        if error:
            raise OpeningError(f"{where}: move {number} {point}: {error}")
        game.play(point)
        if game.is_over:
            raise OpeningError(f"{where}: move {number} {point} ends the game")


def load(path: str | Path, size: int, rule: str) -> list[Opening]:
    """The openings of a file, for a SIZE board under RULE."""
    path = Path(path)
    if not path.is_file():
        raise OpeningError(f"{path}: no such opening file (one opening a line: X,Y pairs "
                           "from the centre)")
    openings = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        centre = size // 2
        moves = [(dx + centre, dy + centre) for dx, dy in parse_offsets(line, where)]
        check_opening(moves, size, rule, where)
        openings.append(Opening(f"{path.name}:{number}",
                                tuple((x - centre + 7, y - centre + 7) for x, y in moves)))
    if not openings:
        raise OpeningError(f"{path}: no opening in this file")
    return openings


# ---- generating ----------------------------------------------------------------------------

def _symmetries(moves) -> list[tuple[Point, ...]]:
    """The opening under the eight symmetries of the square (about 7,7)."""
    out = []
    for swap in (False, True):
        for sx in (1, -1):
            for sy in (1, -1):
                image = []
                for x, y in moves:
                    dx, dy = (y - 7, x - 7) if swap else (x - 7, y - 7)
                    image.append((7 + sx * dx, 7 + sy * dy))
                out.append(tuple(image))
    return out


def canonical(moves) -> tuple:
    """One key for an opening and its seven mirror images (black's and white's stone sets)."""
    return min((tuple(sorted(m[0::2])), tuple(sorted(m[1::2]))) for m in _symmetries(moves))


def random_opening(rng: random.Random, rule: str) -> list[Point] | None:
    """3 to 5 alternating stones in the centre's 7x7, each within two points of an earlier
    one; None when a drawn move is not legal under RULE."""
    game = rules.Game(15, rule)
    moves: list[Point] = []
    for _ in range(rng.randint(3, 5)):
        choices = [(x, y) for y in range(4, 11) for x in range(4, 11)
                   if game.at((x, y)) == rules.EMPTY
                   and (not moves or any(max(abs(x - a), abs(y - b)) <= 2 for a, b in moves))]
        point = rng.choice(choices)
        if game.why_illegal(point):
            return None
        game.play(point)
        moves.append(point)
    return None if game.is_over else moves


def evaluate(moves, rule: str, depth: int = BALANCED_DEPTH) -> dict:
    """The engine's fixed-depth search of the position after MOVES (side to move's view)."""
    from engines.gomoku.engine import GomokuEngine

    with GomokuEngine(15, rule, tt_megabytes=16) as engine:
        engine.setup(moves)
        return engine.search(depth=depth)


def candidates(rule: str, seed: int = BALANCED_SEED):
    """The generator's distinct random openings (one per symmetry class), in order."""
    rng = random.Random(f"gomoku-openings/{rule}/{seed}")
    seen: set = set()
    while True:
        moves = random_opening(rng, rule)
        if moves is not None and canonical(moves) not in seen:
            seen.add(canonical(moves))
            yield moves


def generate_balanced(rule: str, count: int = 100, seed: int = BALANCED_SEED,
                      depth: int = BALANCED_DEPTH, margin: int = BALANCE_MARGIN):
    """COUNT openings the engine scores within MARGIN of zero at DEPTH, reproducible by SEED
    (for a given search); yields (moves, score, tried) as each is kept."""
    kept = 0
    for tried, moves in enumerate(candidates(rule, seed), start=1):
        if kept == count:
            return
        result = evaluate(moves, rule, depth)
        if not result["proven_win_in"] and abs(result["score"]) <= margin:
            kept += 1
            yield moves, result["score"], tried


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Write the balanced openings of a rule.")
    parser.add_argument("rule", choices=rules.RULES)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=BALANCED_SEED)
    parser.add_argument("--depth", type=int, default=BALANCED_DEPTH)
    parser.add_argument("--margin", type=int, default=BALANCE_MARGIN)
    args = parser.parse_args(argv)
    lines, scores, tried = [], [], 0
    for moves, score, tried in generate_balanced(args.rule, args.count, args.seed, args.depth,
                                                 args.margin):
        lines.append(Opening("", tuple(moves)).offsets())
        scores.append(score)
    from plumbing.files import atomic_write

    path = balanced_path(args.rule)
    atomic_write(path, "\n".join(lines) + "\n")
    print(f"{path}: {len(lines)} openings kept of {tried} distinct ones tried (seed "
          f"{args.seed}, depth {args.depth}, |score| <= {args.margin}); scores from "
          f"{min(scores)} to {max(scores)}, mean {sum(scores) / len(scores):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

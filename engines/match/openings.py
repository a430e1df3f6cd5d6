"""Go openings for a match: read from SGF, or generated from a seed. Each is played twice.

- From a file: one SGF file holding one or more game trees (a collection), or a directory of
  `.sgf` files (sorted by name). An opening is a tree's setup stones (AB/AW) and the moves of
  its main line. A malformed tree, a point off the board, an illegal move or a board of another
  size is an `OpeningError` naming the file and the line of the bad node, raised before any
  game is played.
- Generated: 2 to 4 alternating moves (black first) on distinct points of the board's centre
  region, from a `random.Random` seeded by the match seed and the board size, so the same seed
  gives the same openings; no opening comes twice in a match.

The runner treats an opening as opaque except for its `id` (journal, resume, reports).
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from pathlib import Path

from engines.go import rules, sgf
from engines.go.coords import to_gtp
from plumbing.errors import NamedError

Point = tuple[int, int]


class OpeningError(NamedError):
    """An opening file that cannot be used; names the file and line."""


@dataclass(frozen=True)
class GoOpening:
    id: str
    setup_black: tuple[Point, ...] = ()
    setup_white: tuple[Point, ...] = ()
    moves: tuple[tuple[str, Point | None], ...] = field(default_factory=tuple)

    def describe(self, size: int) -> str:
        parts = [f"AB {' '.join(to_gtp(p, size) for p in self.setup_black)}"] \
            if self.setup_black else []
        if self.setup_white:
            parts.append(f"AW {' '.join(to_gtp(p, size) for p in self.setup_white)}")
        parts += [f"{c.upper()} {to_gtp(p, size)}" for c, p in self.moves]
        return ", ".join(parts) or "empty board"

    def to_json(self) -> dict:
        return {"id": self.id, "setup_black": [list(p) for p in self.setup_black],
                "setup_white": [list(p) for p in self.setup_white],
                "moves": [[c, None if p is None else list(p)] for c, p in self.moves]}


EMPTY = GoOpening("empty")


# ---------------------------------------------------------------- generated


def centre_region(size: int) -> list[Point]:
    margin = max(1, size // 4) if size >= 5 else 0
    return [(x, y) for y in range(margin, size - margin) for x in range(margin, size - margin)]


def generate(size: int, count: int, seed: int, min_moves: int = 2,
             max_moves: int = 4) -> list[GoOpening]:
    """COUNT distinct openings of MIN..MAX_MOVES legal moves in the centre, reproducible by
    SEED."""
    rng = random.Random(f"go-openings/{size}/{seed}")
    region = centre_region(size)
    seen: set[tuple] = set()
    openings: list[GoOpening] = []
    attempts = 0
    while len(openings) < count:
        attempts += 1
        if attempts > 100 * count + 1000:
            raise OpeningError(f"cannot generate {count} distinct openings on a {size}x{size} "
                               f"board (found {len(openings)}); use fewer games or --openings")
        length = rng.randint(min_moves, max_moves)
        points = rng.sample(region, min(length, len(region)))
        moves = tuple(("bw"[i % 2], p) for i, p in enumerate(points))
        if moves in seen or _why_illegal(size, (), (), moves) is not None:
            continue
        seen.add(moves)
        text = " ".join(to_gtp(p, size) for _, p in moves)
        openings.append(GoOpening(f"gen{len(openings) + 1}:{text}", moves=moves))
    return openings


def _why_illegal(size, setup_black, setup_white, moves) -> tuple[int, str] | None:
    """(index in moves, reason) of the first illegal move (-1: a setup stone), or None."""
    game = rules.Game(size=size)
    for point in setup_black:
        if game.why_illegal("b", point):
            return -1, f"setup stone {to_gtp(point, size)} is on an occupied point"
        game.play("b", point)
    for point in setup_white:
        if game.why_illegal("w", point):
            return -1, f"setup stone {to_gtp(point, size)} is on an occupied point"
        game.play("w", point)
    for index, (color, point) in enumerate(moves):
        reason = game.why_illegal(color, point)
        if reason:
            return index, f"{color.upper()} {to_gtp(point, size)} is illegal ({reason})"
        game.play(color, point)
    return None


# ---------------------------------------------------------------- from SGF


def source_id(path: str | Path) -> str:
    """The opening source as the journal records it: the path and a hash of its content."""
    path = Path(path)
    files = sorted(path.glob("*.sgf")) if path.is_dir() else [path]
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode() + b"\0" + file.read_bytes())
    return f"{path} (sha256 {digest.hexdigest()[:16]})"


def load(path: str | Path, size: int) -> list[GoOpening]:
    """The openings of an SGF file or a directory of .sgf files, for a SIZE board."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.sgf"))
        if not files:
            raise OpeningError(f"{path}: no .sgf files in this directory")
    elif path.exists():
        files = [path]
    else:
        raise OpeningError(f"{path}: no such opening file or directory")
    openings = []
    for file in files:
        openings.extend(load_file(file, size))
    return openings


def load_file(path: Path, size: int) -> list[GoOpening]:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    trees = split_collection(text, path)
    if not trees:
        raise OpeningError(f"{path}:1: no game tree (an SGF game starts with '(;')")
    return [_opening(path, text, start, end, number, size)
            for number, (start, end) in enumerate(trees, start=1)]


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def split_collection(text: str, path: Path) -> list[tuple[int, int]]:
    """(start, end) offsets of each top-level game tree of an SGF collection."""
    trees, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "[":  # a property value: skip it, escapes included
            j = i + 1
            while j < len(text) and text[j] != "]":
                j += 2 if text[j] == "\\" else 1
            if j >= len(text):
                raise OpeningError(f"{path}:{_line(text, i)}: unterminated property value "
                                   "(missing ']')")
            i = j + 1
            continue
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise OpeningError(f"{path}:{_line(text, i)}: ')' without a game tree")
            if depth == 0:
                trees.append((start, i + 1))
        elif depth == 0 and not ch.isspace():
            raise OpeningError(f"{path}:{_line(text, i)}: unexpected {ch!r} between game trees")
        i += 1
    if depth:
        raise OpeningError(f"{path}:{_line(text, start)}: unterminated game tree (missing ')')")
    return trees


def _node_starts(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(offset, parenthesis depth) of each node (';' outside values) of the tree."""
    nodes, depth, i = [], 0, start
    while i < end:
        ch = text[i]
        if ch == "[":
            while i < end and text[i] != "]":
                i += 2 if text[i] == "\\" else 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == ";":
            nodes.append((i, depth))
        i += 1
    return nodes


def _opening(path: Path, text: str, start: int, end: int, number: int, size: int) -> GoOpening:
    tree = text[start:end]
    nodes = _node_starts(text, start, end)
    try:
        record = sgf.loads(tree)
    except sgf.SgfError as error:
        offset = start
        for k, (node, _) in enumerate(nodes):  # the first node whose tree, cut after it, fails
            if _prefix(text, start, nodes, k) is None:
                offset = node
                break
        raise OpeningError(f"{path}:{_line(text, offset)}: game {number}: {error}") from None
    root_line = _line(text, nodes[0][0] if nodes else start)
    if record.size != size:
        raise OpeningError(f"{path}:{root_line}: game {number} is for a {record.size}x"
                           f"{record.size} board, the match is on {size}x{size}")
    illegal = _why_illegal(size, record.setup_black, record.setup_white, record.moves)
    if illegal is not None:
        index, reason = illegal
        offset = nodes[0][0]
        if index >= 0:  # the first node whose record holds move INDEX
            for k in range(len(nodes)):
                prefix = _prefix(text, start, nodes, k)
                if prefix is not None and len(prefix.moves) > index:
                    offset = nodes[k][0]
                    break
        raise OpeningError(f"{path}:{_line(text, offset)}: game {number}: {reason}")
    return GoOpening(f"{path.name}#{number}", tuple(record.setup_black),
                     tuple(record.setup_white), tuple(record.moves))


def _prefix(text: str, start: int, nodes, k: int) -> sgf.GameRecord | None:
    """The record of the tree cut after node K and closed, or None if that does not parse."""
    if k + 1 < len(nodes):
        piece = text[start:nodes[k + 1][0]] + ")" * nodes[k + 1][1]
    else:
        piece = text[start:]
    try:
        return sgf.loads(piece)
    except sgf.SgfError:
        return None

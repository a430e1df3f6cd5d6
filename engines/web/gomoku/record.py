"""Gomoku records as the API receives them: move names, games, budgets, the text format and
Gomocup position strings. Pure: no engine, no I/O.

Move names: a column letter from `a` at the left and the row number counted from the bottom,
as on the board's labels (`h8` is the centre of 15x15); `resign` may end a record. Points are
(x, y) from the top-left, 0-based, as the engine takes them.

Gomocup position strings (what Gomocup's opening files hold):
- the offset form, `0,0, 1,-1, ...`: X,Y pairs from the centre, Y growing downwards as in
  the brain protocol's 0-based `X,Y`, black first;
- the pos form, `h8i7j9`: move names run together (this notation's letters and numbers).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engines.web import record_moves, record_text
from engines.web.errors import ApiError
from engines.web.record_moves import parse_moves

SIZES = (15, 20)
RULES = ("freestyle", "standard", "renju")
LETTERS = "abcdefghijklmnopqrst"
RESIGN = record_moves.RESIGN
Point = tuple[int, int]
Move = Point | str          # a point, or RESIGN
NAME_PATTERN = "^([A-Ta-t](1[0-9]|20|[1-9])|[Rr][Ee][Ss][Ii][Gg][Nn])$"
_POS_MOVE = re.compile(r"([a-t])(1[0-9]|20|[1-9])")


def point_name(point: Point, size: int) -> str:
    x, y = point
    return f"{LETTERS[x]}{size - y}"


def move_name(move: Move, size: int) -> str:
    return RESIGN if move == RESIGN else point_name(move, size)


def parse_point(text: str, size: int, field: str) -> Point:
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in LETTERS or not text[1:].isdigit():
        raise ApiError(f"{field}: {text!r} is no point: write a column letter and a row number "
                       f"like h8", field=field)
    x, row = LETTERS.index(text[0]), int(text[1:])
    if x >= size or not 1 <= row <= size:
        raise ApiError(f"{field}: {text} is off a {size}x{size} board (a1 to "
                       f"{LETTERS[size - 1]}{size})", field=field)
    return x, size - row


def parse_move(raw, size: int, field: str) -> Move:
    """A schema-valid move (name, `resign` or [x, y]) as a point or RESIGN."""
    if isinstance(raw, list):
        x, y = raw
        if x >= size or y >= size:
            raise ApiError(f"{field}: point [{x}, {y}] is off a {size}x{size} board", field=field)
        return (x, y)
    if raw.strip().lower() == RESIGN:
        return RESIGN
    return parse_point(raw, size, field)


@dataclass(frozen=True)
class GomokuGame:
    size: int
    rule: str
    moves: tuple[Move, ...]

    @staticmethod
    def color(ply: int) -> str:
        """The colour of move number `ply` (0-based): black starts."""
        return "b" if ply % 2 == 0 else "w"

    @property
    def to_move(self) -> str:
        return self.color(len(self.moves))

    @property
    def resigned(self) -> bool:
        return bool(self.moves) and self.moves[-1] == RESIGN

    @property
    def stones(self) -> tuple[Point, ...]:
        return tuple(m for m in self.moves if m != RESIGN)

    def with_move(self, move: Move) -> "GomokuGame":
        return GomokuGame(self.size, self.rule, self.moves + (move,))

    def names(self) -> list[str]:
        return [move_name(m, self.size) for m in self.moves]

    def to_json(self) -> dict:
        return {"size": self.size, "rule": self.rule, "moves": self.names()}


def parse_game(raw: dict, max_moves: int, field: str = "game") -> GomokuGame:
    """A schema-valid game object as a GomokuGame; ApiError names the bad move."""
    size = raw["size"]
    moves = parse_moves(raw["moves"], max_moves, lambda m, f: parse_move(m, size, f), field)
    return GomokuGame(size, raw.get("rule", "freestyle"), moves)


# ---- text records -------------------------------------------------------------------------

def game_to_text(game: GomokuGame, result: str | None) -> str:
    return record_text.dumps("gomoku", [("size", game.size), ("rule", game.rule),
                                        ("result", result)], game.names())


def game_from_text(text: str, max_moves: int, field: str = "text") -> GomokuGame:
    """A text record, or a Gomocup position string (offset or pos form), as a game."""
    stripped = text.strip()
    if stripped and "\n" not in stripped and not stripped.lower().startswith(("game", "#", "size")):
        return game_from_gomocup(stripped, 15, "freestyle", max_moves, field)
    values = record_text.loads(text, "gomoku", ("size", "rule", "result"), field)
    size, rule = values.get("size", "15"), values.get("rule", "freestyle").lower()
    if size not in {str(s) for s in SIZES}:
        raise ApiError(f"{field}: size {size!r}: the arcade plays 15 or 20", field=field)
    if rule not in RULES:
        raise ApiError(f"{field}: rule {rule!r}: one of {', '.join(RULES)}", field=field)
    return parse_game({"size": int(size), "rule": rule, "moves": values["moves"]}, max_moves,
                      field)


def gomocup_offsets(game: GomokuGame) -> str:
    """The stones in Gomocup's offset form, from the centre (Y downwards)."""
    c = game.size // 2
    return ", ".join(f"{x - c},{y - c}" for x, y in game.stones)


def gomocup_pos(game: GomokuGame) -> str:
    return "".join(point_name(p, game.size) for p in game.stones)


def game_from_gomocup(text: str, size: int, rule: str, max_moves: int,
                      field: str = "text") -> GomokuGame:
    """A Gomocup position string as a game on size x size."""
    compact = text.replace(" ", "").lower()
    if re.fullmatch(r"-?\d+,-?\d+(,-?\d+,-?\d+)*,?", compact):
        numbers = [int(v) for v in compact.strip(",").split(",")]
        c = size // 2
        moves = []
        for i in range(0, len(numbers), 2):
            x, y = numbers[i] + c, numbers[i + 1] + c
            if not (0 <= x < size and 0 <= y < size):
                raise ApiError(f"{field}: offset {numbers[i]},{numbers[i + 1]} is off a "
                               f"{size}x{size} board", field=field)
            moves.append([x, y])
        return parse_game({"size": size, "rule": rule, "moves": moves}, max_moves, field)
    if re.fullmatch(r"([a-t](1[0-9]|20|[1-9]))+", compact):
        names = [m.group(0) for m in _POS_MOVE.finditer(compact)]
        return parse_game({"size": size, "rule": rule, "moves": names}, max_moves, field)
    raise ApiError(f"{field}: not a record: expected the text format (lines `size 15`, "
                   f"`rule renju`, `moves h8 h9 ...`) or a Gomocup position (`0,0, 1,-1` or "
                   f"`h8i7`)", field=field)

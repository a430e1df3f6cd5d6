"""Quoridor records as the API receives them: games, moves and the text format. Pure.

Moves are in the project's notation (engines/quoridor/rules.py): a square `e2`, a wall named by
the square it touches nearest a1 plus `h` or `v` (`e3v`), or `resign` as a record's last move.
Player 1 starts on e1 (on 9x9) and moves first; player 2 starts on the far row.
"""
from __future__ import annotations

from dataclasses import dataclass

from engines.quoridor import rules
from engines.web import record_moves, record_text
from engines.web.errors import ApiError
from engines.web.record_moves import parse_moves

SIZES = (5, 7, 9)
RESIGN = record_moves.RESIGN
MOVE_PATTERN = "^([a-iA-I][1-9][hvHV]?|[Rr][Ee][Ss][Ii][Gg][Nn])$"


def normalise_move(raw: str, size: int, field: str) -> str:
    """A schema-valid move text as the notation's lower-case name, checked against the board."""
    text = raw.strip().lower()
    if text == RESIGN:
        return RESIGN
    move = rules.parse_move(text)
    limit = size - 1 if len(move) == 3 else size
    if not (move[0] < limit and move[1] < limit):
        what = "wall" if len(move) == 3 else "square"
        last = rules.move_name((limit - 1, limit - 1, "v") if len(move) == 3 else (limit - 1, limit - 1))
        raise ApiError(f"{field}: {what} {text} is off a {size}x{size} board (up to {last})",
                       field=field)
    return rules.move_name(move)


@dataclass(frozen=True)
class QuoridorGame:
    size: int
    walls: int
    edge_diagonal: bool
    moves: tuple[str, ...]

    @staticmethod
    def player(ply: int) -> int:
        """The player of move number `ply` (0-based): player 0 (the first) starts."""
        return ply % 2

    @property
    def to_move(self) -> int:
        return self.player(len(self.moves))

    @property
    def resigned(self) -> bool:
        return bool(self.moves) and self.moves[-1] == RESIGN

    def with_move(self, move: str) -> "QuoridorGame":
        return QuoridorGame(self.size, self.walls, self.edge_diagonal, self.moves + (move,))

    def to_json(self) -> dict:
        return {"size": self.size, "walls": self.walls, "edge_diagonal": self.edge_diagonal,
                "moves": list(self.moves)}


def parse_game(raw: dict, max_moves: int, field: str = "game") -> QuoridorGame:
    size = raw["size"]
    moves = parse_moves(raw["moves"], max_moves, lambda m, f: normalise_move(m, size, f), field)
    walls = raw.get("walls", rules.default_walls(size))
    return QuoridorGame(size, walls, bool(raw.get("edge_diagonal", True)), moves)


def game_to_text(game: QuoridorGame, result: str | None) -> str:
    return record_text.dumps("quoridor", [
        ("size", game.size), ("walls", game.walls),
        ("edge_diagonal", "yes" if game.edge_diagonal else "no"), ("result", result)],
        list(game.moves))


def game_from_text(text: str, max_moves: int, field: str = "text") -> QuoridorGame:
    values = record_text.loads(text, "quoridor", ("size", "walls", "edge_diagonal", "result"), field)
    size = values.get("size", "9")
    if size not in {str(s) for s in SIZES}:
        raise ApiError(f"{field}: size {size!r}: the arcade plays 5, 7 or 9", field=field)
    walls = values.get("walls", str(rules.default_walls(int(size))))
    if not walls.isdigit() or int(walls) > rules.MAX_WALLS:
        raise ApiError(f"{field}: walls {walls!r}: a number 0..{rules.MAX_WALLS}", field=field)
    edge = values.get("edge_diagonal", "yes").lower()
    if edge not in ("yes", "no"):
        raise ApiError(f"{field}: edge_diagonal {edge!r}: yes or no", field=field)
    for i, move in enumerate(values["moves"]):
        try:
            rules.parse_move(move) if move.lower() != RESIGN else None
        except rules.IllegalMove as exc:
            raise ApiError(f"{field}: move {i + 1}: {exc}", field=field) from None
    return parse_game({"size": int(size), "walls": int(walls), "edge_diagonal": edge == "yes",
                       "moves": values["moves"]}, max_moves, field)

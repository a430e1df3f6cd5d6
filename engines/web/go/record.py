"""Game records and budgets as the Go API receives them: parsing with no engine and no I/O.

The JSON schema has already checked the shape; this module checks what depends on the board
(vertices on the board, where a resignation may stand) and normalises moves to points.
"""
from __future__ import annotations

from dataclasses import dataclass

from engines.go.coords import BadVertex, Point, from_gtp, to_gtp
from engines.web.errors import ApiError
from engines.web import record_moves
from engines.web.record_moves import parse_moves
from engines.web.go.schemas import MAX_SIZE, MIN_SIZE

RESIGN = record_moves.RESIGN
Move = Point | None | str  # a point, None for a pass, or RESIGN


@dataclass(frozen=True)
class GoGame:
    size: int
    komi: float
    superko: bool
    moves: tuple[Move, ...]

    def color(self, ply: int) -> str:
        """The colour that plays move number `ply` (0-based); Black starts."""
        return "b" if ply % 2 == 0 else "w"

    @property
    def to_move(self) -> str:
        return self.color(len(self.moves))

    def with_move(self, move: Move) -> "GoGame":
        return GoGame(self.size, self.komi, self.superko, self.moves + (move,))

    def to_json(self) -> dict:
        return {"size": self.size, "komi": self.komi, "superko": self.superko,
                "moves": [move_text(m, self.size) for m in self.moves]}


@dataclass(frozen=True)
class Budget:
    playouts: int | None = None
    seconds: float | None = None


def move_text(move: Move, size: int) -> str:
    return RESIGN if move == RESIGN else to_gtp(move, size)


def parse_move(raw, size: int, field: str) -> Move:
    """One schema-valid move (vertex text, [x, y], null or resign) as a point, None or RESIGN."""
    if raw is None:
        return None
    if isinstance(raw, list):
        x, y = raw
        if x >= size or y >= size:
            raise ApiError(f"{field}: point [{x}, {y}] is off a {size}x{size} board", field=field)
        return (x, y)
    if raw.lower() == RESIGN:
        return RESIGN
    try:
        return from_gtp(raw, size)
    except BadVertex as exc:
        raise ApiError(f"{field}: {exc}", field=field) from None


def parse_game(raw: dict, max_moves: int, field: str = "game") -> GoGame:
    """A schema-valid game object as a GoGame; raises ApiError naming the bad move."""
    size = raw["size"]
    moves = parse_moves(raw["moves"], max_moves, lambda m, f: parse_move(m, size, f), field)
    return GoGame(size, float(raw.get("komi", 7.0)), bool(raw.get("superko", False)), moves)


def parse_budget(raw: dict | None, config) -> Budget:
    """The requested budget within the server's caps (MAX_PLAYOUTS, MAX_SECONDS in `config`)."""
    raw = raw or {}
    playouts, seconds = raw.get("playouts"), raw.get("seconds")
    if playouts is not None and playouts > config["MAX_PLAYOUTS"]:
        raise ApiError(f"budget.playouts: {playouts} is above the server's cap of "
                       f"{config['MAX_PLAYOUTS']}", field="budget.playouts")
    if seconds is not None and seconds > config["MAX_SECONDS"]:
        raise ApiError(f"budget.seconds: {seconds} is above the server's cap of "
                       f"{config['MAX_SECONDS']}", field="budget.seconds")
    if playouts is None and seconds is None:
        playouts = config["DEFAULT_PLAYOUTS"]
    # Both limits always apply (the engine stops at the first reached): a playout budget on a
    # big board or a loaded machine still ends within MAX_SECONDS.
    return Budget(playouts=playouts if playouts is not None else config["MAX_PLAYOUTS"],
                  seconds=seconds if seconds is not None else config["MAX_SECONDS"])


def game_over(moves: tuple[Move, ...]) -> bool:
    """Two passes in a row or a resignation end a game (the rules' end condition, not a board rule)."""
    return bool(moves) and (moves[-1] == RESIGN or (len(moves) >= 2 and moves[-1] is None and moves[-2] is None))


def game_to_sgf(game: GoGame, result_text: str | None) -> str:
    """SGF text of `game` (a resignation is written as the result, W+R / B+R)."""
    from engines.go import sgf

    moves = [(game.color(i), m) for i, m in enumerate(game.moves) if m != RESIGN]
    record = sgf.GameRecord(size=game.size, komi=game.komi, rules="Chinese",
                            result=result_text or "", moves=moves)
    return sgf.dumps(record)


def game_from_sgf(text: str, max_moves: int) -> GoGame:
    """The main line of an SGF file as a GoGame; ApiError(field="sgf") says what is wrong."""
    from engines.go import sgf

    def refuse(message):
        return ApiError(f"sgf: {message}", field="sgf")

    try:
        record = sgf.loads(text)
    except sgf.SgfError as exc:
        raise refuse(str(exc)) from None
    if not MIN_SIZE <= record.size <= MAX_SIZE:
        raise refuse(f"SZ[{record.size}] is outside the arcade's {MIN_SIZE}..{MAX_SIZE}")
    if record.setup_black or record.setup_white:
        raise refuse("setup stones (AB/AW) are not supported; the arcade plays from an empty board")
    if len(record.moves) > max_moves:
        raise refuse(f"{len(record.moves)} moves is above the server's cap of {max_moves}")
    moves: list[Move] = []
    for ply, (color, point) in enumerate(record.moves):
        if color != ("b" if ply % 2 == 0 else "w"):
            raise refuse(f"move {ply + 1} is played by {color.upper()} out of turn")
        moves.append(point)
    winner = record.result[:1].upper()
    if record.result.upper().endswith("+R") and winner in "BW" and len(winner) == 1:
        loser = "w" if winner == "B" else "b"
        if loser == ("b" if len(moves) % 2 == 0 else "w"):
            moves.append(RESIGN)
    return GoGame(record.size, float(record.komi), False, tuple(moves))

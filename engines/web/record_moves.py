"""The checks every game's record gets before any board exists: the server's cap on moves, each
move parsed for its board, and a resignation only as the last move. Pure."""
from __future__ import annotations

from typing import Callable

from engines.web.errors import ApiError

RESIGN = "resign"


def parse_moves(raw_moves: list, max_moves: int, parse_one: Callable[[object, str], object],
                field: str = "game") -> tuple:
    """`raw_moves` parsed by `parse_one(raw, field_of_that_move)`; ApiError names the bad one."""
    if len(raw_moves) > max_moves:
        raise ApiError(f"{field}.moves: {len(raw_moves)} moves is above the server's cap of "
                       f"{max_moves}", field=f"{field}.moves")
    moves = tuple(parse_one(m, f"{field}.moves[{i}]") for i, m in enumerate(raw_moves))
    for i, move in enumerate(moves[:-1]):
        if move == RESIGN:
            raise ApiError(f"{field}.moves[{i}]: a resignation ends the game, so it must be the "
                           f"last move", field=f"{field}.moves[{i}]")
    return moves

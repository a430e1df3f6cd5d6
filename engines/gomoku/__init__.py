"""Gomoku: reference rules (rules.py), the C core (core/) and its binding (engine.py).

The engine's Python API (``from engines.gomoku import GomokuEngine, IllegalMove``)::

    RULES = ('freestyle', 'standard', 'renju')
    class IllegalMove(ValueError)          # .reason; the message starts with it
        OffBoard, Occupied, GameOver, WrongSetup, Forbidden (.rule: overline | double-four |
                                                             double-three)
    class GomokuEngine:                    # the same surface as rules.Game
        def __init__(self, size=15, rule='freestyle')    # size 5..20
        size, rule, to_move ('b' | 'w'), is_over, winner ('b' | 'w' | None), winning_line
        def reset(self, size=None, rule=None)
        def play(self, point)              # (x, y); raises an IllegalMove subclass
        def undo(self) -> point | None
        def legal_moves(self) -> list[point]            # sorted by (y, x)
        def forbidden_points(self) -> list[point]       # renju, for black
        def forbidden_reason(self, point) -> str | None
        def why_illegal(self, point) -> IllegalMove | None; is_legal(point) -> bool
        def hash(self) -> int; board() -> rows of '.', 'b', 'w'; moves() -> list[point]
        def close(self)                    # also a context manager

Points are (x, y): column from the left, row from the top, 0-based. GomokuEngine is imported
lazily so that the rules work without the compiled core.
"""
from engines.gomoku.rules import (RULES, Forbidden, GameOver, IllegalMove, OffBoard,  # noqa: F401
                                  Occupied, WrongSetup)


def __getattr__(name):
    if name == "GomokuEngine":
        from engines.gomoku import engine

        return engine.GomokuEngine
    raise AttributeError(f"module 'engines.gomoku' has no attribute {name!r}")

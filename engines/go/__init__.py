"""Go: reference rules (rules.py), the C core and its binding, GTP adapter, SGF, referee.

The engine's Python API (``from engines.go import GoEngine, IllegalMove``)::

    class IllegalMove(ValueError)   # message says why: occupied, suicide, ko, superko,
                                    # off board, wrong color, wrong size
    class GoEngine:
        def __init__(self, size=9, komi=7.0, superko=False, seed=0, threads=1, value=False)
        size: int; komi: float; to_move: str          # 'b' or 'w'
        value: bool   # the learned value as a search prior (9x9; off by default: README.md)
        def clear(self, size=None)                    # empty board; new size if given (2..19)
        def set_komi(self, komi: float)
        def play(self, color, point) -> list[tuple[int, int]]
            # point=(x, y) or None=pass; returns captured points; raises IllegalMove
        def undo(self) -> bool
        def legal_moves(self, color=None) -> list[tuple[int, int]]
        def is_legal(self, color, point) -> bool
        def board(self) -> list[list[str]]            # rows top to bottom, '.', 'b', 'w'
        def moves(self) -> list[tuple[str, tuple | None]]   # history
        captures: dict                                # {'b': n, 'w': n} stones captured by each
        ko: tuple | None
        def genmove(self, color, playouts=None, seconds=None) -> tuple | None | str
            # point, None=pass, or 'resign'; plays it on the board; releases the GIL
        def genmove_analyzed(self, color, playouts=None, seconds=None) -> (move, dict)
            # genmove, and the analysis (as analyze's) of the search that chose the move
        def analyze(self, color, playouts=None, seconds=None) -> dict
            # no move played: {'winrate': float (for color), 'playouts': int, 'seconds': float,
            #  'root_visits': int (this search's playouts plus visits kept from earlier ones),
            #  'valued': int (positions the learned value judged; 0 when off or off its size),
            #  'candidates': [{'move': (x, y) | None, 'visits': int, 'prior': float,
            #                  'winrate': float}], 'pv': [points],
            #  'ownership': [[float -1 (white) .. 1 (black)]]}
        def final_score(self, playouts=1000) -> float
            # area score after judging dead stones, positive = black ahead, komi included
            # (judging draws from its own stream, restarted each call: the position alone
            #  decides the verdict)
        def dead_stones(self, playouts=1000) -> list[tuple[int, int]]
        def tromp_taylor_score(self) -> float         # no dead-stone removal
        def set_budget(self, playouts=None, seconds=None, threads=None)  # genmove/analyze defaults
        def close(self)                               # also a context manager
        # additions: hash() -> int (Zobrist: stones, side to move, ko), pass_alive() -> points

Points are (x, y): column from the left, row from the top, 0-based (engines/go/coords.py).
GoEngine is imported lazily so that the rules, coordinates and SGF work without the compiled
core.
"""


def __getattr__(name):
    if name in ("GoEngine", "IllegalMove"):
        from engines.go import engine

        return getattr(engine, name)
    raise AttributeError(f"module 'engines.go' has no attribute {name!r}")

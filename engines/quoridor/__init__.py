"""Quoridor: the readable rules (rules.py) and the C core with its binding (engine.py).

``from engines.quoridor import QuoridorEngine, rules``; the named exceptions live in rules.py
(IllegalMove and its subclasses GameOver, OffBoard, IllegalPawnMove, NoWallsLeft,
WallOverlaps, WallCrosses, WallBlocksPath). QuoridorEngine is imported lazily so that the
rules and the notation work without the compiled core.
"""


def __getattr__(name):
    if name == "QuoridorEngine":
        from engines.quoridor import engine

        return engine.QuoridorEngine
    raise AttributeError(f"module 'engines.quoridor' has no attribute {name!r}")

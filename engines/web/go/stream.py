"""Streaming analysis: one search in steps, each step's analysis sent as a line of JSON.

The engine keeps its tree between `analyze` calls, so every step continues the search and the
client sees the candidates converge. The stream owns its engine: closing the response (the
end, or the client disconnecting, which makes waitress stop iterating) closes the engine, so
the search stops within one step of a disconnect.
"""
from __future__ import annotations

import json
import time

from engines.web.go import session
from engines.web.go.record import Budget, GoGame

STEPS = 8


class AnalysisStream:
    """An iterable of NDJSON lines; `close()` releases the engine on every path."""

    def __init__(self, game: GoGame, budget: Budget, seed: int = 0, steps: int = STEPS):
        session.ensure_playing(game)
        self.game, self.budget, self.steps = game, budget, steps
        self.engine = session.engine_for(game, seed)
        try:
            session.replay(self.engine, game)  # errors here are a 400, before streaming starts
        except Exception:
            self.close()
            raise

    def _step_budget(self, step: int) -> dict:
        budget = {}
        if self.budget.playouts:
            # Integer shares that add up to the whole budget.
            budget["playouts"] = max(1, self.budget.playouts * (step + 1) // self.steps
                                     - self.budget.playouts * step // self.steps)
        if self.budget.seconds:
            budget["seconds"] = self.budget.seconds / self.steps
        return budget

    def __iter__(self):
        total, started = 0, time.perf_counter()
        for step in range(self.steps):
            if self.engine is None:
                return
            raw = self.engine.analyze(self.game.to_move, **self._step_budget(step))
            total += raw["playouts"]
            doc = session.analysis_document(raw, self.game, (time.perf_counter() - started) * 1000)
            doc["playouts"] = total
            doc["step"], doc["steps"] = step + 1, self.steps
            yield json.dumps(doc, separators=(",", ":")) + "\n"
        self.close()

    def close(self) -> None:
        if self.engine is not None:
            engine, self.engine = self.engine, None
            session.release(engine)

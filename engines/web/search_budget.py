"""The alpha-beta engines' search budget (Gomoku, Quoridor): seconds, nodes and depth, each
capped by the server, with the time ceiling always applied so no search outlives its request."""
from __future__ import annotations

from dataclasses import dataclass

from engines.web.errors import ApiError

SCHEMA = {
    "type": "object",
    "description": "The search budget; the first limit reached ends the search. Capped by the "
    "server (the error names the cap); the server's time ceiling always applies. Omitted: the "
    "server's default seconds.",
    "additionalProperties": False,
    "properties": {
        "seconds": {"type": "number", "exclusiveMinimum": 0},
        "nodes": {"type": "integer", "minimum": 1},
        "depth": {"type": "integer", "minimum": 1},
    },
}


@dataclass(frozen=True)
class SearchBudget:
    seconds: float
    nodes: int | None = None
    depth: int | None = None

    def engine_args(self) -> dict:
        return {"seconds": self.seconds, "nodes": self.nodes, "depth": self.depth}


def parse_search_budget(raw: dict | None, config, max_depth: int) -> SearchBudget:
    """A schema-valid budget within MAX_SECONDS, MAX_NODES and `max_depth`; ApiError names the cap."""
    raw = raw or {}
    caps = {"seconds": config["MAX_SECONDS"], "nodes": config["MAX_NODES"], "depth": max_depth}
    for name, cap in caps.items():
        value = raw.get(name)
        if value is not None and value > cap:
            raise ApiError(f"budget.{name}: {value} is above the server's cap of {cap}",
                           field=f"budget.{name}")
    nodes, depth = raw.get("nodes"), raw.get("depth")
    seconds = raw.get("seconds")
    if seconds is None:
        # A node or depth budget alone still stops at the ceiling; nothing given: the default.
        seconds = config["MAX_SECONDS"] if (nodes or depth) else config["DEFAULT_SECONDS"]
    return SearchBudget(seconds=float(seconds), nodes=nodes, depth=depth)


def win_share(score: float, scale: float) -> float:
    """A score (side to move's view) as an expected share 0..1 for a bar: a logistic curve."""
    import math

    return 1 / (1 + math.exp(-max(-50.0, min(50.0, score / scale))))

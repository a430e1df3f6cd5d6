"""The players and budgets a game page starts with, from its query string (`?black=engine&
white=engine&seconds=0.2&delay=0.5`): shared links and demo scripts set them; junk falls back."""
from __future__ import annotations

PLAYERS = ("human", "engine")


def number(args, name: str, kind, low, high, default):
    try:
        value = kind(args.get(name, default))
    except (TypeError, ValueError):
        return default
    return value if low <= value <= high else default


def page_options(args, config) -> dict:
    """Players per side (`b`, `w`), the engine's seconds a move, nodes (0: none) and the delay."""
    return {
        "b": args.get("black") if args.get("black") in PLAYERS else "human",
        "w": args.get("white") if args.get("white") in PLAYERS else "engine",
        "seconds": number(args, "seconds", float, 0.01, config["MAX_SECONDS"],
                          config["DEFAULT_SECONDS"]),
        "nodes": number(args, "nodes", int, 0, config["MAX_NODES"], 0),
        "delay": number(args, "delay", float, 0, 5, 0.75),
    }

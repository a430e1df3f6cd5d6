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


def page_options(args, config, sides: dict[str, str]) -> dict:
    """`players` per side key (`sides` maps a key to its query argument; the first side
    defaults to a human, the second to the engine), the engine's seconds a move, a node budget
    (0: none; a fixed node count makes the engine's replies repeat), the playback delay and
    `moves`, a record to start from (`?moves=h8,i9`)."""
    players = {}
    for i, (key, arg) in enumerate(sides.items()):
        players[key] = args.get(arg) if args.get(arg) in PLAYERS else PLAYERS[min(i, 1)]
    return {
        "players": players,
        "seconds": number(args, "seconds", float, 0.01, config["MAX_SECONDS"],
                          config["DEFAULT_SECONDS"]),
        "nodes": number(args, "nodes", int, 0, config["MAX_NODES"], 0),
        "delay": number(args, "delay", float, 0, 5, 0.75),
        # A record to start from, as move names; the page sends it to the server, which judges it.
        "moves": " ".join(args.get("moves", "").replace(",", " ").split()[:1000]),
    }

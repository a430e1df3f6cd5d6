"""The game registry: which games the arcade serves.

A game is a `GamePlugin` (engines.web.game_plugin): its readable rules module, an engine
factory, the JSON schemas and OpenAPI paths of its API, and a blueprint that serves its page and
API. The landing page, the OpenAPI document and the app factory read this registry only, so
Gomoku and Quoridor plug in by adding one entry to `GAME_MODULES`.
"""
from __future__ import annotations

import importlib

from engines.web.game_plugin import GamePlugin

__all__ = ["GAME_MODULES", "GamePlugin", "registered_games"]

# Each module exposes `PLUGIN`, a GamePlugin. Order is the landing page's order.
GAME_MODULES = ("engines.web.go", "engines.web.gomoku", "engines.web.quoridor")


def registered_games() -> list[GamePlugin]:
    return [importlib.import_module(name).PLUGIN for name in GAME_MODULES]

"""The game-plugin shape: what a game brings to the arcade.

A game is a `GamePlugin`: its readable rules module, an engine factory, the JSON schemas and
OpenAPI paths of its API, and a blueprint that serves its page and API. The landing page, the
OpenAPI document and the app factory read this registry only, so Gomoku and Quoridor plug in by
adding one entry to `GAME_MODULES`.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from flask import Blueprint

# Each module exposes `PLUGIN`, a GamePlugin. Order is the landing page's order.
GAME_MODULES = ("engines.web.go",)


@dataclass(frozen=True)
class GamePlugin:
    name: str  # URL segment: the page is /<name>, the API is under /api/<name>/
    title: str
    summary: str
    rules_module: str  # readable reference rules, e.g. "engines.go.rules"
    engine_factory: Callable[..., Any]  # builds one engine per request
    blueprint: Blueprint
    page_endpoint: str  # e.g. "go.page"
    schemas: dict[str, dict] = field(default_factory=dict)  # OpenAPI components/schemas
    paths: dict[str, dict] = field(default_factory=dict)  # OpenAPI path items, absolute paths


def registered_games() -> list[GamePlugin]:
    return [importlib.import_module(name).PLUGIN for name in GAME_MODULES]

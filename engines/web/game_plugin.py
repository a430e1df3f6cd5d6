"""The game-plugin shape: what a game brings to the arcade (the registry is engines.web.plugins).

A game module imports only this, never the registry that lists it, so the registry and its
games do not import each other.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from flask import Blueprint


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

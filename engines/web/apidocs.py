"""The OpenAPI 3.1 document, assembled from every game plugin's schemas and paths."""
from __future__ import annotations

from flask import Blueprint, current_app, request

bp = Blueprint("apidocs", __name__)


def openapi_document(games, server_url: str = "/") -> dict:
    """Pure: the whole API's OpenAPI document for `games` (GamePlugin list)."""
    schemas, paths = {}, {}
    for game in games:
        schemas.update(game.schemas)
        paths.update(game.paths)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "soloshop arcade API",
            "version": "1.0.0",
            "description": "Stateless game APIs: send the game record, get states, moves and "
            "analyses. Budgets and board sizes are capped by the server; malformed requests get "
            "a 400 whose `field` names the bad part.",
        },
        "servers": [{"url": server_url}],
        "paths": paths,
        "components": {"schemas": schemas},
    }


@bp.get("/api/openapi.json")
def openapi():
    """The API's OpenAPI document; its server URL carries the proxy prefix, if any."""
    return openapi_document(current_app.extensions["arcade_games"], request.script_root or "/")

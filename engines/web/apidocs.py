"""The OpenAPI 3.1 document, assembled from every game plugin's schemas and paths."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

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


def _schema_name(content: dict) -> str:
    schema = next(iter(content.values()))["schema"]
    return schema.get("$ref", "").rsplit("/", 1)[-1]


@bp.get("/api")
def reference():
    """The API reference as a page: every operation, its body and its answers."""
    doc = openapi_document(current_app.extensions["arcade_games"], request.script_root or "/")
    operations = [
        {"path": path, "method": method.upper(), "summary": op["summary"],
         "body": _schema_name(op["requestBody"]["content"]),
         "responses": [(code, r["description"], _schema_name(r["content"]))
                       for code, r in op["responses"].items()]}
        for path, item in doc["paths"].items() for method, op in item.items()
    ]
    return render_template("api.html", operations=operations, schemas=doc["components"]["schemas"])

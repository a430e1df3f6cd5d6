"""The arcade: a Flask app that serves every game's page and JSON API.

`create_app()` is the factory (flaskr style). Games come from the plugin registry
(`engines.web.plugins`), so the landing page, the blueprints and the OpenAPI document all follow
from one list. ProxyFix makes every URL respect an `X-Forwarded-Prefix` such as `/task-x`.
"""
from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from engines.web import apidocs, errors, landing
from engines.web.plugins import registered_games

# Server-side caps: a search never outlives its request because its budget is bounded here.
DEFAULT_CONFIG = {
    "MAX_PLAYOUTS": 20_000,
    "MAX_SECONDS": 1.0,
    "DEFAULT_PLAYOUTS": 5_000,
    "MAX_MOVES": 1_000,
    # Gomoku and Quoridor (alpha-beta): a default time budget a move, and a node cap.
    "DEFAULT_SECONDS": 0.5,
    "MAX_NODES": 50_000_000,
    "JSON_SORT_KEYS": False,
}


def create_app(test_config: dict | None = None, games: list | None = None) -> Flask:
    """Build the arcade; `test_config` overrides the defaults (caps, testing flags), `games`
    the plugin registry (default: every game in `engines.web.plugins.GAME_MODULES`)."""
    app = Flask(__name__)
    app.config.update(DEFAULT_CONFIG)
    app.config["MAX_CONTENT_LENGTH"] = 1 << 20  # a 19x19 record or SGF is a few kB
    if test_config:
        app.config.update(test_config)
    app.json.sort_keys = False
    games = registered_games() if games is None else games
    app.extensions["arcade_games"] = games
    app.register_blueprint(landing.bp)
    app.register_blueprint(apidocs.bp)
    for game in games:
        app.register_blueprint(game.blueprint)
    errors.register(app)
    app.context_processor(lambda: {"config_games": games})
    # One proxy hop (nginx of `instances`) sets the prefix, client, scheme and host.
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_prefix=1)
    return app

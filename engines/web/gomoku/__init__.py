"""Gomoku in the arcade: the plugin entry (rules, engine, API schemas, page)."""
from engines.web.game_plugin import GamePlugin
from engines.web.gomoku import schemas, session
from engines.web.gomoku.views import bp

PLUGIN = GamePlugin(
    name="gomoku",
    title="Gomoku",
    summary="Five in a row on 15x15 or 20x20 (freestyle, standard, renju) against an alpha-beta "
            "engine with threat search: forbidden points, threats and proven wins shown.",
    rules_module="engines.gomoku.rules",
    engine_factory=session.new_engine,
    blueprint=bp,
    page_endpoint="gomoku.page",
    schemas=schemas.SCHEMAS,
    paths=schemas.PATHS,
)

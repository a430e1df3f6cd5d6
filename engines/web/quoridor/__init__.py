"""Quoridor in the arcade: the plugin entry (rules, engine, API schemas, page)."""
from engines.web.game_plugin import GamePlugin
from engines.web.quoridor import schemas, session
from engines.web.quoridor.views import bp

PLUGIN = GamePlugin(
    name="quoridor",
    title="Quoridor",
    summary="Race your pawn across 9x9 (or 7x7, 5x5) and wall the other in, against an "
            "alpha-beta engine: legal squares, wall previews and both shortest paths shown.",
    rules_module="engines.quoridor.rules",
    engine_factory=session.new_engine,
    blueprint=bp,
    page_endpoint="quoridor.page",
    schemas=schemas.SCHEMAS,
    paths=schemas.PATHS,
)

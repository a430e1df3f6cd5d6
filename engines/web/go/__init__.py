"""Go in the arcade: the plugin entry (rules, engine, API schemas, page)."""
from engines.web.go import schemas, session
from engines.web.go.views import bp
from engines.web.game_plugin import GamePlugin


PLUGIN = GamePlugin(
    name="go",
    title="Go",
    summary="9x9 to 19x19 against a Monte-Carlo tree search engine, with analysis, a timeline "
            "you can branch, and AI vs AI.",
    rules_module="engines.go.rules",
    engine_factory=session.new_engine,
    blueprint=bp,
    page_endpoint="go.page",
    schemas=schemas.SCHEMAS,
    paths=schemas.PATHS,
)

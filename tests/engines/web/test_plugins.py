"""The game-plugin shape: a second game plugs in with one GamePlugin and appears everywhere."""
from flask import Blueprint

from engines.web import create_app
from engines.web.plugins import GamePlugin, registered_games
from tests.engines.web.spec import DOC


def _coin_plugin() -> GamePlugin:
    """A tiny but real game (call the coin) in the plugin shape Gomoku and Quoridor will use."""
    bp = Blueprint("coin", __name__)

    @bp.get("/coin")
    def page():
        return "<h1>Coin</h1>"

    @bp.post("/api/coin/state")
    def state():
        return {"sides": ["heads", "tails"]}

    return GamePlugin(
        name="coin", title="Coin", summary="Heads or tails.", rules_module="random",
        engine_factory=lambda **options: None, blueprint=bp, page_endpoint="coin.page",
        schemas={"CoinState": {"type": "object", "required": ["sides"]}},
        paths={"/api/coin/state": {"post": {"summary": "the sides", "responses": {"200": {
            "description": "OK", "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/CoinState"}}}}}}}},
    )


def test_the_registry_holds_the_three_games_with_their_parts():
    go, gomoku, quoridor = registered_games()
    assert (go.name, go.page_endpoint, go.rules_module) == ("go", "go.page", "engines.go.rules")
    assert (gomoku.name, gomoku.page_endpoint, gomoku.rules_module) == \
        ("gomoku", "gomoku.page", "engines.gomoku.rules")
    assert (quoridor.name, quoridor.page_endpoint, quoridor.rules_module) == \
        ("quoridor", "quoridor.page", "engines.quoridor.rules")
    for game, schema in ((go, "GoGame"), (gomoku, "GomokuGame"), (quoridor, "QuoridorGame")):
        assert set(game.paths) <= set(DOC["paths"]) and schema in game.schemas
        assert all(path.startswith(f"/api/{game.name}/") for path in game.paths)


def test_games_share_schema_names_only_when_the_schemas_are_equal():
    # The OpenAPI document merges every game's components: a name two games use must mean one thing.
    seen = {}
    for game in registered_games():
        for name, schema in game.schemas.items():
            assert seen.setdefault(name, schema) == schema, f"{name} differs between games"


def test_every_engine_factory_builds_an_engine():
    for game in registered_games():
        engine = game.engine_factory()
        assert engine is not None
        getattr(engine, "close", lambda: None)()


def test_a_new_game_appears_on_the_landing_page_nav_and_openapi():
    app = create_app({"TESTING": True}, games=[*registered_games(), _coin_plugin()])
    client = app.test_client()
    landing = client.get("/").get_data(as_text=True)
    assert 'href="/coin"' in landing and "Heads or tails." in landing
    assert 'href="/coin">Coin</a>' in client.get("/go").get_data(as_text=True)  # the nav bar
    doc = client.get("/api/openapi.json").get_json()
    assert "/api/coin/state" in doc["paths"] and "/api/go/state" in doc["paths"]
    assert "CoinState" in doc["components"]["schemas"]
    assert client.post("/api/coin/state").get_json() == {"sides": ["heads", "tails"]}
    assert client.get("/healthz").get_json()["games"] == ["go", "gomoku", "quoridor", "coin"]

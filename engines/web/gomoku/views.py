"""The Gomoku blueprint: the board page and the stateless JSON API (`/api/gomoku/...`)."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

from engines.web.gomoku import record, schemas, session
from engines.web.page_options import page_options
from engines.web.search_budget import parse_search_budget
from engines.web.validation import json_body

bp = Blueprint("gomoku", __name__)


def _game(body: dict, field: str = "game"):
    return record.parse_game(body[field], current_app.config["MAX_MOVES"], field)


def _budget(body: dict):
    return parse_search_budget(body.get("budget"), current_app.config, session.MAX_DEPTH)


@bp.get("/gomoku")
def page():
    """The Gomoku board page; `?black=engine&white=engine&seconds=0.2&delay=0.5&size=20&rule=renju
    &engine=page` (the engine in the page: the core compiled to WebAssembly)."""
    options = page_options(request.args, current_app.config, {"b": "black", "w": "white"})
    options["size"] = int(request.args["size"]) if request.args.get("size") in ("15", "20") else 15
    options["rule"] = request.args.get("rule") if request.args.get("rule") in record.RULES else "freestyle"
    options["engine"] = "page" if request.args.get("engine") == "page" else "server"
    return render_template("gomoku/page.html", options=options, rules=record.RULES,
                           engine_only=current_app.config.get("ENGINE_ONLY"))


@bp.post("/api/gomoku/state")
def state():
    """Replay a record: every position with black's forbidden points, the result once it ended."""
    return session.replay_state(_game(json_body("GomokuStateRequest", schemas.SCHEMAS)))


@bp.post("/api/gomoku/play")
def play():
    """Play one move on top of a record; 422 says why an illegal move is refused."""
    body = json_body("GomokuPlayRequest", schemas.SCHEMAS)
    game = _game(body)
    return session.play_state(game, record.parse_move(body["move"], game.size, "move"))


@bp.post("/api/gomoku/genmove")
def genmove():
    """The engine plays for the side to move within the (capped) budget."""
    body = json_body("GomokuSearchRequest", schemas.SCHEMAS)
    return session.genmove(_game(body), _budget(body))


@bp.post("/api/gomoku/analyze")
def analyze():
    """Search the position without playing."""
    body = json_body("GomokuSearchRequest", schemas.SCHEMAS)
    return session.analyze(_game(body), _budget(body))


@bp.post("/api/gomoku/threats")
def threats():
    """Each side's threats in the final position."""
    return session.threats(_game(json_body("GomokuStateRequest", schemas.SCHEMAS)))


@bp.post("/api/gomoku/record/export")
def record_export():
    """The record as text and as Gomocup position strings."""
    game = _game(json_body("GomokuStateRequest", schemas.SCHEMAS))
    result = session.replay_state(game)["result"]
    return {"text": record.game_to_text(game, result["text"] if result else None),
            "filename": f"gomoku-{game.size}x{game.size}-{game.rule}-{len(game.moves)}-moves.txt",
            "gomocup": {"offsets": record.gomocup_offsets(game), "pos": record.gomocup_pos(game)}}


@bp.post("/api/gomoku/record/import")
def record_import():
    """Read a text record or a Gomocup position string, and replay it."""
    body = json_body("GomokuImportRequest", schemas.SCHEMAS)
    game = record.game_from_text(body["text"], current_app.config["MAX_MOVES"])
    return {"game": game.to_json(), "state": session.replay_state(game, "text")}

"""The Quoridor blueprint: the board page and the stateless JSON API (`/api/quoridor/...`)."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

from engines.web.page_options import page_options
from engines.web.quoridor import record, schemas, session
from engines.web.search_budget import parse_search_budget
from engines.web.validation import json_body

bp = Blueprint("quoridor", __name__)


def _game(body: dict):
    return record.parse_game(body["game"], current_app.config["MAX_MOVES"])


def _budget(body: dict):
    return parse_search_budget(body.get("budget"), current_app.config, session.MAX_DEPTH)


@bp.get("/quoridor")
def page():
    """The Quoridor page; `?p1=engine&p2=engine&seconds=0.2&delay=0.5&size=7&engine=page`."""
    options = page_options(request.args, current_app.config, {"p1": "p1", "p2": "p2"})
    options["size"] = int(request.args["size"]) if request.args.get("size") in ("5", "7", "9") else 9
    options["engine"] = "page" if request.args.get("engine") == "page" else "server"
    return render_template("quoridor/page.html", options=options,
                           engine_only=current_app.config.get("ENGINE_ONLY"))


@bp.post("/api/quoridor/state")
def state():
    """Replay a record: every position, what the player to move may do, both shortest paths."""
    return session.replay_state(_game(json_body("QuoridorStateRequest", schemas.SCHEMAS)))


@bp.post("/api/quoridor/play")
def play():
    """Play one move on top of a record; 422 says why an illegal move is refused."""
    body = json_body("QuoridorPlayRequest", schemas.SCHEMAS)
    game = _game(body)
    return session.play_state(game, record.normalise_move(body["move"], game.size, "move"))


@bp.post("/api/quoridor/genmove")
def genmove():
    """The engine plays for the side to move within the (capped) budget."""
    body = json_body("QuoridorSearchRequest", schemas.SCHEMAS)
    return session.genmove(_game(body), _budget(body))


@bp.post("/api/quoridor/analyze")
def analyze():
    """Search the position without playing."""
    body = json_body("QuoridorSearchRequest", schemas.SCHEMAS)
    return session.analyze(_game(body), _budget(body))


@bp.post("/api/quoridor/record/export")
def record_export():
    game = _game(json_body("QuoridorStateRequest", schemas.SCHEMAS))
    result = session.replay_state(game)["result"]
    return {"text": record.game_to_text(game, result["text"] if result else None),
            "filename": f"quoridor-{game.size}x{game.size}-{len(game.moves)}-moves.txt"}


@bp.post("/api/quoridor/record/import")
def record_import():
    body = json_body("QuoridorImportRequest", schemas.SCHEMAS)
    game = record.game_from_text(body["text"], current_app.config["MAX_MOVES"])
    return {"game": game.to_json(), "state": session.replay_state(game, "text")}

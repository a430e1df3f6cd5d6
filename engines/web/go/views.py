"""The Go blueprint: the board page and the stateless JSON API (`/api/go/...`)."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, request

from engines.web.go import schemas, session
from engines.web.go.record import (game_from_sgf, game_to_sgf, parse_budget, parse_game,
                                   parse_move)
from engines.web.go.stream import AnalysisStream
from engines.web.page_options import number, page_options as shared_page_options
from engines.web.validation import json_body

bp = Blueprint("go", __name__)


def _game(body: dict):
    return parse_game(body["game"], current_app.config["MAX_MOVES"])


def page_options(args, config) -> dict:
    """The page's starting controls from the query string (`?black=engine&white=engine&
    playouts=800&delay=0.5&size=13`), for shared links and demo scripts; junk falls back."""
    players = shared_page_options(args, config, {"b": "black", "w": "white"})["players"]
    return {
        **players,
        "playouts": number(args, "playouts", int, 1, config["MAX_PLAYOUTS"], config["DEFAULT_PLAYOUTS"]),
        "delay": number(args, "delay", float, 0, 5, 0.75),
        "size": int(args["size"]) if args.get("size") in ("9", "13", "19") else 9,
        "engine": "page" if args.get("engine") == "page" else "server",
    }


@bp.get("/go")
def page():
    """The Go board page; the JavaScript reads the API URLs from data attributes."""
    caps = {k: current_app.config[k] for k in ("MAX_PLAYOUTS", "MAX_SECONDS", "DEFAULT_PLAYOUTS")}
    options = page_options(request.args, current_app.config)
    return render_template("go/page.html", caps=caps, options=options,
                           engine_only=current_app.config.get("ENGINE_ONLY"))


@bp.post("/api/go/state")
def state():
    """Replay a game record: every position, legal moves, the result once it ended."""
    body = json_body("StateRequest", schemas.SCHEMAS)
    return session.replay_state(_game(body))


@bp.post("/api/go/play")
def play():
    """Play one move on top of a game record."""
    body = json_body("PlayRequest", schemas.SCHEMAS)
    game = _game(body)
    return session.play_state(game, parse_move(body["move"], game.size, "move"))


@bp.post("/api/go/genmove")
def genmove():
    """The engine plays a move for the side to move within the (capped) budget."""
    body = json_body("SearchRequest", schemas.SCHEMAS)
    budget = parse_budget(body.get("budget"), current_app.config)
    return session.genmove(_game(body), budget, body.get("seed", 0))


@bp.post("/api/go/analyze")
def analyze():
    """Analyse the position for the side to move within the (capped) budget."""
    body = json_body("SearchRequest", schemas.SCHEMAS)
    budget = parse_budget(body.get("budget"), current_app.config)
    return session.analyze(_game(body), budget, body.get("seed", 0))


@bp.post("/api/go/analyze/stream")
def analyze_stream():
    """The same search in steps, one JSON line per step (NDJSON), the tree kept between them."""
    body = json_body("SearchRequest", schemas.SCHEMAS)
    budget = parse_budget(body.get("budget"), current_app.config)
    stream = AnalysisStream(_game(body), budget, body.get("seed", 0))
    return Response(stream, mimetype="application/x-ndjson",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.post("/api/go/sgf/export")
def sgf_export():
    """The game as SGF text (the result included once the game ended)."""
    game = _game(json_body("StateRequest", schemas.SCHEMAS))
    result = session.replay_state(game)["result"]
    return {"sgf": game_to_sgf(game, result["text"] if result else None),
            "filename": f"go-{game.size}x{game.size}-{len(game.moves)}-moves.sgf"}


@bp.post("/api/go/sgf/import")
def sgf_import():
    """Read SGF text into a game record and replay it."""
    body = json_body("SgfImportRequest", schemas.SCHEMAS)
    game = game_from_sgf(body["sgf"], current_app.config["MAX_MOVES"])
    return {"game": game.to_json(), "state": session.replay_state_as(game, "sgf")}

"""The Quoridor API's JSON schemas (OpenAPI 3.1 components)."""
from __future__ import annotations

from engines.quoridor.rules import MAX_WALLS
from engines.web import search_budget
from engines.web.openapi_parts import ERROR_SCHEMA, operation, ref
from engines.web.quoridor.record import MOVE_PATTERN, SIZES

_PLAYER = {"type": "integer", "enum": [0, 1], "description": "0: player 1 (starts on row 1), 1: player 2"}
_NAMES = {"type": "array", "items": {"type": "string"}}

SCHEMAS: dict[str, dict] = {
    "QuoridorMove": {
        "type": "string", "pattern": MOVE_PATTERN,
        "description": "a square (`e2`), a wall named by the square it touches nearest a1 plus "
        "h or v (`e3v`: the vertical wall between columns e and f beside rows 3 and 4), or "
        "`resign` as a game's last move",
    },
    "QuoridorGame": {
        "type": "object",
        "description": "A game record; player 1 (on e1 at 9x9) moves first.",
        "required": ["size", "moves"],
        "additionalProperties": False,
        "properties": {
            "size": {"type": "integer", "enum": list(SIZES)},
            "walls": {"type": "integer", "minimum": 0, "maximum": MAX_WALLS,
                      "description": "walls each; default 10 on 9x9, 6 on 7x7, 3 on 5x5"},
            "edge_diagonal": {"type": "boolean", "default": True,
                              "description": "the board edge behind the opponent allows a "
                              "diagonal step, as a wall does (off: only a wall)"},
            "moves": {"type": "array", "items": ref("QuoridorMove")},
        },
    },
    "SearchBudget": search_budget.SCHEMA,
    "QuoridorStateRequest": {
        "type": "object", "required": ["game"], "additionalProperties": False,
        "properties": {"game": ref("QuoridorGame")},
    },
    "QuoridorPlayRequest": {
        "type": "object", "required": ["game", "move"], "additionalProperties": False,
        "properties": {"game": ref("QuoridorGame"), "move": ref("QuoridorMove")},
    },
    "QuoridorSearchRequest": {
        "type": "object", "required": ["game"], "additionalProperties": False,
        "properties": {"game": ref("QuoridorGame"), "budget": ref("SearchBudget")},
    },
    "QuoridorImportRequest": {
        "type": "object", "required": ["text"], "additionalProperties": False,
        "properties": {"text": {"type": "string", "maxLength": 200_000}},
    },
    "QuoridorPosition": {
        "type": "object",
        "required": ["ply", "move", "player", "pawns", "walls", "walls_left", "to_move",
                     "pawn_moves", "illegal_walls", "walls_refused", "paths"],
        "properties": {
            "ply": {"type": "integer", "minimum": 0},
            "move": {"type": ["string", "null"]},
            "player": {"type": ["integer", "null"], "enum": [0, 1, None]},
            "pawns": {**_NAMES, "minItems": 2, "maxItems": 2},
            "walls": _NAMES,
            "walls_left": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "to_move": _PLAYER,
            "pawn_moves": {**_NAMES, "description": "squares the pawn to move may step or jump to"},
            "illegal_walls": {"type": "object", "additionalProperties": {"type": "string"},
                              "description": "wall -> why the player to move may not place it"},
            "walls_refused": {"type": ["string", "null"],
                              "description": "why no wall at all may be placed (no walls left, game over)"},
            "paths": {"type": "array", "items": _NAMES, "minItems": 2, "maxItems": 2,
                      "description": "each pawn's shortest path to its goal row"},
        },
    },
    "QuoridorResult": {
        "type": "object", "required": ["winner", "by", "text"],
        "properties": {"winner": _PLAYER, "by": {"type": "string", "enum": ["goal", "resignation"]},
                       "text": {"type": "string"}},
    },
    "QuoridorState": {
        "type": "object",
        "required": ["size", "walls", "edge_diagonal", "moves", "positions", "to_move", "over", "result"],
        "properties": {
            "size": {"type": "integer"}, "walls": {"type": "integer"},
            "edge_diagonal": {"type": "boolean"}, "moves": _NAMES,
            "positions": {"type": "array", "items": ref("QuoridorPosition"), "minItems": 1},
            "to_move": _PLAYER, "over": {"type": "boolean"},
            "result": {"oneOf": [ref("QuoridorResult"), {"type": "null"}]},
        },
    },
    "QuoridorAnalysis": {
        "type": "object",
        "required": ["player", "score", "first_share", "depth", "nodes", "pv", "candidates",
                     "path_lengths", "proven"],
        "properties": {
            "player": _PLAYER,
            "score": {"type": "integer", "description": "hundredths of a step, the mover's view"},
            "first_share": {"type": "number", "minimum": 0, "maximum": 1,
                            "description": "the evaluation bar: player 1's expected share"},
            "depth": {"type": "integer"}, "nodes": {"type": "integer"},
            "elapsed_ms": {"type": "number"},
            "memory": {"type": "integer", "description": "bytes the search held"},
            "pv": _NAMES,
            "candidates": {"type": "array", "items": {
                "type": "object", "required": ["move", "score"],
                "properties": {"move": {"type": "string"}, "score": {"type": "integer"}}}},
            "path_lengths": {"type": "array", "items": {"type": "integer"}},
            "proven": {"oneOf": [{"type": "object", "required": ["winner", "plies", "sequence", "text"],
                                  "properties": {"winner": _PLAYER, "plies": {"type": "integer"},
                                                 "sequence": _NAMES, "text": {"type": "string"}}},
                                 {"type": "null"}]},
        },
    },
    "QuoridorGenmoveAnswer": {
        "type": "object", "required": ["move", "analysis", "state"],
        "properties": {"move": {"type": "string"}, "elapsed_ms": {"type": "number"},
                       "analysis": ref("QuoridorAnalysis"), "state": ref("QuoridorState")},
    },
    "QuoridorExport": {
        "type": "object", "required": ["text", "filename"],
        "properties": {"text": {"type": "string"}, "filename": {"type": "string"}},
    },
    "QuoridorImportAnswer": {
        "type": "object", "required": ["game", "state"],
        "properties": {"game": ref("QuoridorGame"), "state": ref("QuoridorState")},
    },
    "Error": ERROR_SCHEMA,
}

_ENGINE = (("503", "the compiled Quoridor engine is not available"),)
_ILLEGAL = (("422", "an illegal move: the error names it and the rule (pawn cannot reach, "
                    "overlaps, crosses, blocks every path, no walls left, game over)"),)
PATHS: dict[str, dict] = {
    "/api/quoridor/state": operation(
        "Replay a game: every position with its legal pawn squares, refused walls and paths",
        "QuoridorStateRequest", "QuoridorState", _ENGINE),
    "/api/quoridor/play": operation(
        "Play one move on top of a game; 422 names why an illegal move is refused",
        "QuoridorPlayRequest", "QuoridorState", _ILLEGAL + _ENGINE),
    "/api/quoridor/genmove": operation(
        "The engine plays a move for the side to move within the (capped) budget",
        "QuoridorSearchRequest", "QuoridorGenmoveAnswer", _ENGINE),
    "/api/quoridor/analyze": operation(
        "Search the position: evaluation, PV, candidates, path lengths",
        "QuoridorSearchRequest", "QuoridorAnalysis", _ENGINE),
    "/api/quoridor/record/export": operation(
        "A game as the arcade's text record (the notation's moves)",
        "QuoridorStateRequest", "QuoridorExport", _ENGINE),
    "/api/quoridor/record/import": operation(
        "Read a text record into a game and its state",
        "QuoridorImportRequest", "QuoridorImportAnswer", _ENGINE),
}

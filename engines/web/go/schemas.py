"""The Go API's JSON schemas (OpenAPI 3.1 components): the one place requests and answers are
described. Requests are validated against them at run time; tests validate answers too."""
from __future__ import annotations

from engines.web.openapi_parts import ERROR_SCHEMA, operation as _operation, ref as _ref

MIN_SIZE, MAX_SIZE = 5, 19


_COLOR = {"type": "string", "enum": ["b", "w"]}
_VERTEX_TEXT = {
    "type": "string",
    "pattern": "^([A-HJ-Ta-hj-t][0-9]{1,2}|[Pp][Aa][Ss][Ss])$",
    "description": "GTP vertex: column letter (no I) and row counted from the bottom, or pass",
}

SCHEMAS: dict[str, dict] = {
    "GoMove": {
        "description": "A move: a GTP vertex (`D4`), `pass`, an [x, y] point from the top-left "
        "(0-based), null for a pass, or `resign` as a game's last move.",
        "oneOf": [
            _VERTEX_TEXT,
            {"type": "string", "pattern": "^[Rr][Ee][Ss][Ii][Gg][Nn]$"},
            {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2},
            {"type": "null"},
        ],
    },
    "GoGame": {
        "type": "object",
        "description": "A game record; Black moves first and colours alternate.",
        "required": ["size", "moves"],
        "additionalProperties": False,
        "properties": {
            "size": {"type": "integer", "minimum": MIN_SIZE, "maximum": MAX_SIZE},
            "komi": {"type": "number", "minimum": -150, "maximum": 150, "default": 7.0},
            "superko": {"type": "boolean", "default": False,
                        "description": "positional superko instead of simple ko"},
            "moves": {"type": "array", "items": _ref("GoMove")},
        },
    },
    "Budget": {
        "type": "object",
        "description": "The search budget; capped by the server (see the error for the cap). "
        "Omitted: the server's default playouts.",
        "additionalProperties": False,
        "properties": {
            "playouts": {"type": "integer", "minimum": 1},
            "seconds": {"type": "number", "exclusiveMinimum": 0},
        },
    },
    "StateRequest": {
        "type": "object", "required": ["game"], "additionalProperties": False,
        "properties": {"game": _ref("GoGame")},
    },
    "PlayRequest": {
        "type": "object", "required": ["game", "move"], "additionalProperties": False,
        "properties": {"game": _ref("GoGame"), "move": _ref("GoMove")},
    },
    "SearchRequest": {
        "type": "object", "required": ["game"], "additionalProperties": False,
        "properties": {
            "game": _ref("GoGame"),
            "budget": _ref("Budget"),
            "seed": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
        },
    },
    "SgfImportRequest": {
        "type": "object", "required": ["sgf"], "additionalProperties": False,
        "properties": {"sgf": {"type": "string", "maxLength": 200_000}},
    },
    "Position": {
        "type": "object",
        "required": ["ply", "move", "color", "board", "captures", "ko", "to_move"],
        "properties": {
            "ply": {"type": "integer", "minimum": 0},
            "move": {"type": ["string", "null"], "description": "the move that led here; null at ply 0"},
            "color": {"type": ["string", "null"], "enum": ["b", "w", None]},
            "board": {"type": "array", "items": {"type": "string", "pattern": "^[.bw]+$"},
                      "description": "rows from the top; '.' empty, 'b' black, 'w' white"},
            "captures": {"type": "object", "required": ["b", "w"],
                         "properties": {"b": {"type": "integer"}, "w": {"type": "integer"}},
                         "description": "stones captured by each colour so far"},
            "ko": {"type": ["string", "null"], "description": "the point retaking is forbidden at"},
            "to_move": _COLOR,
        },
    },
    "Result": {
        "type": "object", "required": ["winner", "text", "by", "dead"],
        "properties": {
            "winner": {"type": ["string", "null"], "enum": ["b", "w", None]},
            "margin": {"type": ["number", "null"]},
            "text": {"type": "string", "description": "SGF style: B+3.5, W+R, 0 for a draw"},
            "by": {"type": "string", "enum": ["score", "resignation"]},
            "dead": {"type": "array", "items": {"type": "string"}},
        },
    },
    "GoState": {
        "type": "object",
        "required": ["size", "komi", "superko", "moves", "positions", "to_move", "legal", "over", "result"],
        "properties": {
            "size": {"type": "integer"},
            "komi": {"type": "number"},
            "superko": {"type": "boolean"},
            "moves": {"type": "array", "items": {"type": "string"}},
            "positions": {"type": "array", "items": _ref("Position"), "minItems": 1},
            "to_move": _COLOR,
            "legal": {"type": "array", "items": {"type": "string"},
                      "description": "legal moves for the side to move (empty once the game is over)"},
            "over": {"type": "boolean"},
            "result": {"oneOf": [_ref("Result"), {"type": "null"}]},
        },
    },
    "Candidate": {
        "type": "object", "required": ["move", "visits", "prior", "winrate"],
        "properties": {
            "move": {"type": "string"},
            "visits": {"type": "integer", "minimum": 0},
            "prior": {"type": "number"},
            "winrate": {"type": "number"},
        },
    },
    "Analysis": {
        "type": "object", "required": ["color", "winrate", "playouts", "candidates", "pv", "ownership"],
        "properties": {
            "color": _COLOR,
            "winrate": {"type": "number", "description": "for the side to move, 0..1"},
            "playouts": {"type": "integer", "minimum": 0},
            "candidates": {"type": "array", "items": _ref("Candidate")},
            "pv": {"type": "array", "items": {"type": "string"}},
            "ownership": {"oneOf": [
                {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
                {"type": "null"}],
                "description": "rows from the top; +1 black owns, -1 white owns"},
            "elapsed_ms": {"type": "number"},
            "step": {"type": "integer", "description": "streaming only: this line's step"},
            "steps": {"type": "integer", "description": "streaming only: the number of steps"},
        },
    },
    "GenmoveAnswer": {
        "type": "object", "required": ["move", "state"],
        "properties": {
            "move": {"type": "string", "description": "vertex, pass or resign"},
            "elapsed_ms": {"type": "number"},
            "analysis": {**_ref("Analysis"),
                         "description": "the search that chose the move, for the position before it"},
            "state": _ref("GoState"),
        },
    },
    "SgfExport": {
        "type": "object", "required": ["sgf", "filename"],
        "properties": {"sgf": {"type": "string"}, "filename": {"type": "string"}},
    },
    "SgfImportAnswer": {
        "type": "object", "required": ["game", "state"],
        "properties": {"game": _ref("GoGame"), "state": _ref("GoState")},
    },
    "Error": ERROR_SCHEMA,
}


_ENGINE_ERRORS = (("503", "the compiled Go engine is not available"),)
PATHS: dict[str, dict] = {
    "/api/go/state": _operation(
        "Replay a game: the board after every move, legal moves, the result once it ended",
        "StateRequest", "GoState", _ENGINE_ERRORS),
    "/api/go/play": _operation(
        "Play one move on top of a game; 422 names why an illegal move is refused",
        "PlayRequest", "GoState", (("422", "the move is illegal"), *_ENGINE_ERRORS)),
    "/api/go/genmove": _operation(
        "The engine chooses and plays a move for the side to move within the budget",
        "SearchRequest", "GenmoveAnswer", _ENGINE_ERRORS),
    "/api/go/analyze": _operation(
        "Analyse the position: win rate, candidates with visits and priors, PV, ownership",
        "SearchRequest", "Analysis", _ENGINE_ERRORS),
    "/api/go/analyze/stream": {"post": {
        **_operation("", "SearchRequest", "Analysis", _ENGINE_ERRORS)["post"],
        "summary": "The analysis in steps as NDJSON: one Analysis (with `step`, `steps`) per line, "
                   "the search continuing between lines; closing the connection stops it",
        "responses": {
            **_operation("", "SearchRequest", "Analysis", _ENGINE_ERRORS)["post"]["responses"],
            "200": {"description": "one Analysis object per line",
                    "content": {"application/x-ndjson": {"schema": _ref("Analysis")}}},
        },
    }},
    "/api/go/sgf/export": _operation("A game as SGF text", "StateRequest", "SgfExport"),
    "/api/go/sgf/import": _operation("Read SGF text into a game record and its state",
                                     "SgfImportRequest", "SgfImportAnswer", _ENGINE_ERRORS),
}

"""The Gomoku API's JSON schemas (OpenAPI 3.1 components): requests are validated against them
at run time, and the tests validate answers too."""
from __future__ import annotations

from engines.web import search_budget
from engines.web.gomoku.record import NAME_PATTERN, RULES, SIZES
from engines.web.openapi_parts import ERROR_SCHEMA, operation, ref

_COLOR = {"type": "string", "enum": ["b", "w"]}
_NAMES = {"type": "array", "items": {"type": "string"}}

SCHEMAS: dict[str, dict] = {
    "GomokuMove": {
        "description": "A move: a column letter from a at the left and the row from 1 at the "
        "bottom (`h8`), an [x, y] point from the top-left (0-based), or `resign` as a game's "
        "last move.",
        "oneOf": [
            {"type": "string", "pattern": NAME_PATTERN,
             "description": "a column letter a-t and a row number 1-20 (h8), or resign"},
            {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2},
        ],
    },
    "GomokuGame": {
        "type": "object",
        "description": "A game record; black moves first and colours alternate.",
        "required": ["size", "moves"],
        "additionalProperties": False,
        "properties": {
            "size": {"type": "integer", "enum": list(SIZES)},
            "rule": {"type": "string", "enum": list(RULES), "default": "freestyle",
                     "description": "freestyle: five or more wins; standard: exactly five; "
                     "renju: black has forbidden points (overline, double-four, double-three)"},
            "moves": {"type": "array", "items": ref("GomokuMove")},
        },
    },
    "SearchBudget": search_budget.SCHEMA,
    "GomokuStateRequest": {
        "type": "object", "required": ["game"], "additionalProperties": False,
        "properties": {"game": ref("GomokuGame")},
    },
    "GomokuPlayRequest": {
        "type": "object", "required": ["game", "move"], "additionalProperties": False,
        "properties": {"game": ref("GomokuGame"), "move": ref("GomokuMove")},
    },
    "GomokuSearchRequest": {
        "type": "object", "required": ["game"], "additionalProperties": False,
        "properties": {"game": ref("GomokuGame"), "budget": ref("SearchBudget")},
    },
    "GomokuImportRequest": {
        "type": "object", "required": ["text"], "additionalProperties": False,
        "properties": {"text": {"type": "string", "maxLength": 200_000,
                                "description": "a text record, or a Gomocup position string"}},
    },
    "GomokuForbidden": {
        "type": "object", "required": ["move", "reason"],
        "properties": {"move": {"type": "string"},
                       "reason": {"type": "string", "enum": ["overline", "double-four", "double-three"]}},
    },
    "GomokuPosition": {
        "type": "object", "required": ["ply", "move", "color", "board", "to_move", "forbidden"],
        "properties": {
            "ply": {"type": "integer", "minimum": 0},
            "move": {"type": ["string", "null"], "description": "the move that led here; null at ply 0"},
            "color": {"type": ["string", "null"], "enum": ["b", "w", None]},
            "board": {"type": "array", "items": {"type": "string", "pattern": "^[.bw]+$"},
                      "description": "rows from the top; '.' empty, 'b' black, 'w' white"},
            "to_move": _COLOR,
            "forbidden": {"type": "array", "items": ref("GomokuForbidden"),
                          "description": "renju: the points black may not play here"},
        },
    },
    "GomokuResult": {
        "type": "object", "required": ["winner", "by", "text", "line"],
        "properties": {
            "winner": {"type": ["string", "null"], "enum": ["b", "w", None]},
            "by": {"type": "string", "enum": ["five", "resignation", "draw"]},
            "text": {"type": "string"},
            "line": {**_NAMES, "description": "the winning line's points"},
        },
    },
    "GomokuState": {
        "type": "object",
        "required": ["size", "rule", "moves", "positions", "to_move", "over", "result"],
        "properties": {
            "size": {"type": "integer"},
            "rule": {"type": "string", "enum": list(RULES)},
            "moves": _NAMES,
            "positions": {"type": "array", "items": ref("GomokuPosition"), "minItems": 1},
            "to_move": _COLOR,
            "over": {"type": "boolean"},
            "result": {"oneOf": [ref("GomokuResult"), {"type": "null"}]},
        },
    },
    "GomokuProven": {
        "type": "object", "required": ["winner", "plies", "moves", "sequence", "text"],
        "description": "a win the threat search proved",
        "properties": {
            "winner": _COLOR,
            "plies": {"type": "integer", "minimum": 1, "description": "plies to the five"},
            "moves": {"type": "integer", "description": "the winner's moves to the five"},
            "sequence": {**_NAMES, "description": "the winning sequence, both sides' moves"},
            "text": {"type": "string", "description": "e.g. black wins in 3"},
        },
    },
    "GomokuAnalysis": {
        "type": "object",
        "required": ["color", "score", "black_share", "depth", "nodes", "pv", "candidates", "proven"],
        "properties": {
            "color": _COLOR,
            "score": {"type": "integer", "description": "the side to move's view"},
            "black_share": {"type": "number", "minimum": 0, "maximum": 1,
                            "description": "the evaluation bar: black's expected share"},
            "depth": {"type": "integer"},
            "nodes": {"type": "integer"},
            "elapsed_ms": {"type": "number"},
            "pv": _NAMES,
            "candidates": {"type": "array", "items": {
                "type": "object", "required": ["move", "score"],
                "properties": {"move": {"type": "string"}, "score": {"type": "integer"}}},
                "description": "best first; the first score exact, the others upper bounds"},
            "proven": {"oneOf": [ref("GomokuProven"), {"type": "null"}]},
        },
    },
    "GomokuGenmoveAnswer": {
        "type": "object", "required": ["move", "analysis", "state"],
        "properties": {"move": {"type": "string"}, "elapsed_ms": {"type": "number"},
                       "analysis": ref("GomokuAnalysis"), "state": ref("GomokuState")},
    },
    "GomokuThreats": {
        "type": "object", "required": ["ply", "threats"],
        "properties": {
            "ply": {"type": "integer"},
            "threats": {"type": "object", "required": ["b", "w"], "properties": {
                c: {"type": "array", "items": {
                    "type": "object", "required": ["move", "kind"],
                    "properties": {"move": {"type": "string"}, "kind": {"type": "string", "enum": [
                        "five", "open-four", "four-four", "four-three", "four", "three-three",
                        "three"]}}}} for c in "bw"}},
        },
    },
    "GomokuExport": {
        "type": "object", "required": ["text", "filename", "gomocup"],
        "properties": {
            "text": {"type": "string", "description": "the arcade's text record"},
            "filename": {"type": "string"},
            "gomocup": {"type": "object", "required": ["offsets", "pos"], "properties": {
                "offsets": {"type": "string"}, "pos": {"type": "string"}}},
        },
    },
    "GomokuImportAnswer": {
        "type": "object", "required": ["game", "state"],
        "properties": {"game": ref("GomokuGame"), "state": ref("GomokuState")},
    },
    "Error": ERROR_SCHEMA,
}

_ENGINE = (("503", "the compiled Gomoku engine is not available"),)
_ILLEGAL = (("422", "an illegal move: the error says why (occupied, forbidden with the rule, game over)"),)
PATHS: dict[str, dict] = {
    "/api/gomoku/state": operation(
        "Replay a game: the board and black's forbidden points after every move, the result",
        "GomokuStateRequest", "GomokuState", _ENGINE),
    "/api/gomoku/play": operation(
        "Play one move on top of a game; 422 names why an illegal move is refused",
        "GomokuPlayRequest", "GomokuState", _ILLEGAL + _ENGINE),
    "/api/gomoku/genmove": operation(
        "The engine plays a move for the side to move within the (capped) budget",
        "GomokuSearchRequest", "GomokuGenmoveAnswer", _ENGINE),
    "/api/gomoku/analyze": operation(
        "Search the position: evaluation, PV, candidates and a proven win when there is one",
        "GomokuSearchRequest", "GomokuAnalysis", _ENGINE),
    "/api/gomoku/threats": operation(
        "Each side's threats in the final position: fives, fours and threes it can make",
        "GomokuStateRequest", "GomokuThreats", _ENGINE),
    "/api/gomoku/record/export": operation(
        "A game as the arcade's text record and as Gomocup position strings",
        "GomokuStateRequest", "GomokuExport", _ENGINE),
    "/api/gomoku/record/import": operation(
        "Read a text record or a Gomocup position string into a game and its state",
        "GomokuImportRequest", "GomokuImportAnswer", _ENGINE),
}

"""Pieces every game's OpenAPI description is built from: references, the error answer and a
POST operation. One copy, used by each plugin's schemas module."""
from __future__ import annotations

ERROR_SCHEMA = {
    "type": "object", "required": ["error"],
    "properties": {
        "error": {"type": "string"},
        "field": {"type": "string", "description": "the offending part, e.g. game.moves[3]"},
        "reason": {"type": "string", "description": "an illegal move: the rule that refuses it"},
    },
}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def operation(summary: str, request: str, answer: str, extra_errors=()) -> dict:
    """A POST path item with a JSON body `request`, a 200 `answer` and a 400 Error."""
    responses = {
        "200": {"description": "OK", "content": {"application/json": {"schema": ref(answer)}}},
        "400": {"description": "malformed request: `field` names what is wrong",
                "content": {"application/json": {"schema": ref("Error")}}},
    }
    for code, text in extra_errors:
        responses[code] = {"description": text, "content": {"application/json": {"schema": ref("Error")}}}
    return {"post": {
        "summary": summary,
        "requestBody": {"required": True, "content": {"application/json": {"schema": ref(request)}}},
        "responses": responses,
    }}

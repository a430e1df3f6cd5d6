"""Validate request bodies against the API's JSON schemas, reporting the offending field."""
from __future__ import annotations

from flask import request
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from engines.web.errors import ApiError


_VALIDATORS: dict[tuple[int, str], Draft202012Validator] = {}


def _validator(schemas: dict, name: str) -> Draft202012Validator:
    # The schemas are module constants, so one validator per (schemas, name) is kept.
    key = (id(schemas), name)
    if key not in _VALIDATORS:
        root = {"$ref": f"#/components/schemas/{name}", "components": {"schemas": schemas}}
        _VALIDATORS[key] = Draft202012Validator(root)
    return _VALIDATORS[key]


def field_path(path) -> str:
    """`['game', 'moves', 3]` -> `game.moves[3]`."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "body"


def validate(body, name: str, schemas: dict) -> dict:
    """Return `body` if it matches schema `name`, else raise ApiError naming the deepest bad field."""
    validator = _validator(schemas, name)
    errors = list(validator.iter_errors(body))
    if errors:
        # best_match prefers the most relevant error; for oneOf it descends into the closest branch.
        error = best_match(errors)
        where = field_path(error.absolute_path)
        text = error.message
        if error.validator == "oneOf" and "description" in error.schema:
            # "not valid under any of the given schemas" says nothing; the description does.
            text = f"{error.instance!r} is not valid. {error.schema['description']}"
        elif error.validator == "pattern" and "description" in error.schema:
            # A regular expression tells a user less than the sentence describing it.
            text = f"{error.instance!r} is not valid: {error.schema['description']}"
        raise ApiError(f"{where}: {text}", field=where)
    return body


def json_body(name: str, schemas: dict) -> dict:
    """The request's JSON body, validated against schema `name`."""
    body = request.get_json(silent=True)
    if body is None:
        raise ApiError("the body must be a JSON object (Content-Type: application/json)", field="body")
    return validate(body, name, schemas)

"""Check API answers against the arcade's own OpenAPI document."""
from __future__ import annotations

from jsonschema import Draft202012Validator

from engines.web.apidocs import openapi_document
from engines.web.plugins import registered_games

DOC = openapi_document(registered_games())


def assert_conforms(response, path: str) -> dict:
    """The response's JSON matches the documented schema for `path` and its status code."""
    operation = DOC["paths"][path]["post"]
    status = str(response.status_code)
    assert status in operation["responses"], f"{path} answered an undocumented {status}"
    schema = operation["responses"][status]["content"]["application/json"]["schema"]
    body = response.get_json() if hasattr(response, "get_json") else response.json()
    validator = Draft202012Validator({**schema, "components": DOC["components"]})
    errors = sorted(validator.iter_errors(body), key=str)
    assert not errors, f"{path} {status}: {errors[0].message} at {list(errors[0].absolute_path)}"
    return body


def assert_lines_conform(response, path: str) -> list[dict]:
    """Every line of an NDJSON answer matches the documented schema for `path`."""
    import json

    schema = DOC["paths"][path]["post"]["responses"]["200"]["content"]["application/x-ndjson"]["schema"]
    validator = Draft202012Validator({**schema, "components": DOC["components"]})
    docs = [json.loads(line) for line in response.get_data(as_text=True).splitlines() if line]
    for doc in docs:
        errors = list(validator.iter_errors(doc))
        assert not errors, f"{path}: {errors[0].message} at {list(errors[0].absolute_path)}"
    return docs

"""The OpenAPI document is valid OpenAPI 3.1 and documents every API route the app serves."""
from openapi_spec_validator import validate

from engines.web.apidocs import openapi_document
from engines.web.plugins import registered_games


def test_document_is_valid_openapi(client):
    doc = client.get("/api/openapi.json").get_json()
    validate(doc)
    assert doc["openapi"].startswith("3.1")


def test_every_api_route_is_documented_and_vice_versa(app):
    routes = {rule.rule for rule in app.url_map.iter_rules()
              if rule.rule.startswith("/api/") and rule.rule != "/api/openapi.json"}
    documented = set(openapi_document(registered_games())["paths"])
    assert routes == documented


def test_every_schema_reference_resolves():
    doc = openapi_document(registered_games())
    names = set(doc["components"]["schemas"])
    refs = set()

    def walk(node):
        if isinstance(node, dict):
            if "$ref" in node:
                refs.add(node["$ref"].rsplit("/", 1)[1])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)
    assert refs and refs <= names

"""API errors: named exceptions turned into JSON answers that say what is wrong."""
from __future__ import annotations

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException


class ApiError(Exception):
    """A request the API refuses; `field` names the offending part (e.g. `game.moves[3]`)."""

    status = 400

    def __init__(self, message: str, field: str | None = None, **extra):
        super().__init__(message)
        self.message, self.field, self.extra = message, field, extra

    def document(self) -> dict:
        doc = {"error": self.message}
        if self.field:
            doc["field"] = self.field
        doc.update(self.extra)
        return doc


class IllegalMoveError(ApiError):
    """A move the rules refuse (occupied point, suicide, ko); the game itself is fine."""

    status = 422


class EngineUnavailable(ApiError):
    """The compiled engine is not built or failed to load."""

    status = 503


def register(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(exc: ApiError):
        return jsonify(exc.document()), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        # JSON for the API, Werkzeug's HTML page for browsers elsewhere.
        if request.path.startswith("/api/"):
            return jsonify({"error": exc.description or exc.name}), exc.code
        return exc

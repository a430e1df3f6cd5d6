"""Error pages: an unknown task is a 404 naming the id, a bad filter a 400 naming the value."""
from flask import render_template
from werkzeug.exceptions import HTTPException

from pm.errors import TaskNotFound
from pm.web.filters import BadFilter


def _page(status: int, heading: str, message: str):
    return render_template("errors/error.html", status=status, heading=heading, message=message), status


def task_not_found(error: TaskNotFound):
    """404 that says which task is missing."""
    return _page(404, f"Task {error.task_id} not found", "No task file in this tracker carries that id.")


def bad_filter(error: BadFilter):
    """400 that names the filter value and what would be accepted."""
    return _page(400, f"Unknown {error.name} {error.value!r}",
                 f"Use one of: {', '.join(error.allowed)}.")


def http_error(error: HTTPException):
    return _page(error.code or 500, f"{error.code} {error.name}", error.description or "")


def register(app) -> None:
    app.register_error_handler(TaskNotFound, task_not_found)
    app.register_error_handler(BadFilter, bad_filter)
    app.register_error_handler(HTTPException, http_error)

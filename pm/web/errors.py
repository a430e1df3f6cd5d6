"""Error pages: an unknown task is a 404 naming the id, a bad filter a 400 naming the value."""
from flask import render_template
from werkzeug.exceptions import HTTPException

from pm.api import ParseError, PmError, TaskNotFound
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


def unreadable_task(error: ParseError):
    """A task file pm cannot parse: say where, and that pm lint explains it."""
    return _page(500, "A task file does not follow the format",
                 f"{error}. Run `pm lint` in the tracker to see every fault.")


def pm_error(error: PmError):
    return _page(500, "pm could not answer", str(error))


def http_error(error: HTTPException):
    return _page(error.code or 500, f"{error.code} {error.name}", error.description or "")


def register(app) -> None:
    app.register_error_handler(TaskNotFound, task_not_found)
    app.register_error_handler(BadFilter, bad_filter)
    app.register_error_handler(ParseError, unreadable_task)
    app.register_error_handler(PmError, pm_error)
    app.register_error_handler(HTTPException, http_error)

"""Jinja filters and globals shared by the Flask views and the static board."""
import re

from flask import url_for
from markupsafe import Markup

from pm import api
from pm.web.sanitize import sanitize_html


def safe_html(html: str) -> Markup:
    """Agent-written HTML after the allow-list: the only way task markup reaches a template."""
    return Markup(sanitize_html(html))


def css_token(value) -> str:
    """A value (status, priority, kind) as a class-name token: `In Progress` -> `in-progress`."""
    return re.sub(r"[^a-z0-9]+", "-", str(value).lower()).strip("-") or "none"


def short_time(value) -> str:
    """ISO timestamps shown to the minute: `2026-11-29T11:20:07+00:00` -> `2026-11-29 11:20`."""
    text = value.isoformat() if hasattr(value, "isoformat") else str(value or "")
    match = re.match(r"(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)", text)
    return f"{match.group(1)} {match.group(2)}" if match else text


def first_line(text) -> str:
    """A commit message's subject (trailers such as PM-Role are shown elsewhere)."""
    return str(text or "").strip().split("\n", 1)[0]


def thousands(number) -> str:
    """10000 -> 10,000."""
    return f"{int(number):,}"


FILTERS = {"safe_html": safe_html, "css_token": css_token, "short_time": short_time,
           "first_line": first_line, "thousands": thousands}


def task_href(task) -> str:
    """The task page's URL (under the app's sub-path, like every url_for)."""
    return url_for("tasks.show", ref=task.id)


def more_href(status: str) -> str | None:
    """Where a capped board column's remaining cards are listed: the overview for that status."""
    return url_for("overview.index", status=status) if status in api.STATUSES else None


def register(app) -> None:
    app.jinja_env.filters.update(FILTERS)
    app.jinja_env.globals.update(task_href=task_href, more_href=more_href)

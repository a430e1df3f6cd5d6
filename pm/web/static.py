"""`render_board(tracker)`: a self-contained board page (inline CSS, no server, no script).

Written by `pm overview --static`; it opens straight from disk. Cards link to the task files
with relative paths: from the tracker root by default, or from where `for_path` says the page
will be saved.
"""
import os
from datetime import datetime, timezone
from importlib.resources import files
from pathlib import Path, PurePath

from jinja2 import Environment, PackageLoader, select_autoescape

from pm import api
from pm.graph import analyse
import pm.web.arrange as arrange
from pm.web.templating import FILTERS

CARD_LIMIT = 200  # per column: keeps the page light at 10,000 tasks (overview.html lists all)
# The page has no script and loads nothing: only its own inline style is allowed.
STATIC_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'"


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("pm.web", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters.update(FILTERS)
    return env


def board_html(tasks, blocked=None, statuses=api.STATUSES, priorities=api.PRIORITIES,
               title="pm board", task_href_prefix="tasks/", generated=None) -> str:
    """The page for plain task records (pure: no tracker, no clock unless `generated` is None)."""
    generated = generated or datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    css = files("pm.web").joinpath("assets/style.css").read_text(encoding="utf-8")
    return _environment().get_template("static/board.html").render(
        title=title, csp=STATIC_CSP, css=css, generated=generated, total=len(tasks),
        href=lambda task: task_href_prefix + _task_name(task.path),
        more_href=lambda status: task_href_prefix + "../overview.html",
        sprint=arrange.sprint_tasks(tasks),
        blocked=blocked or {},
        columns=arrange.capped(arrange.board_columns(tasks, statuses, priorities, blocked), CARD_LIMIT),
    )


def _task_name(path: str) -> str:
    """The file's place under tasks/ ("12xxx/12345-x.html" in a sharded tracker)."""
    return path[len("tasks/"):] if path.startswith("tasks/") else PurePath(path).name


def render_board(tracker, for_path=None) -> str:
    """The board of every task in `tracker`, as one HTML string.

    Card links are relative to the tracker root, or to `for_path`'s directory when the page
    will be saved somewhere else."""
    prefix = "tasks/"
    if for_path is not None:
        tasks_dir = os.path.join(tracker.root, "tasks")
        prefix = Path(os.path.relpath(tasks_dir, os.path.dirname(os.path.abspath(for_path)))).as_posix() + "/"
    tasks = tracker.list()  # one read; the blocked set comes from the same summaries
    blocked = {task.id: blockers for task, blockers, _ in analyse(tasks)[1]}
    title = f"pm board · {os.path.basename(tracker.root.rstrip(os.sep))}"
    return board_html(tasks, blocked, title=title, task_href_prefix=prefix)

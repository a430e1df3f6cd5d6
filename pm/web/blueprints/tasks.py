"""One task: its fields, sections, typed links, log and history as diffs."""
import re
from pathlib import PurePath

from flask import Blueprint, redirect, render_template, url_for

from pm.api import TaskNotFound
import pm.web.data as data
from pm.web.diffs import diff_lines, diff_stats

bp = Blueprint("tasks", __name__, url_prefix="/tasks")

HISTORY_LIMIT = 100  # newest commits shown; a task with a long log keeps its page light

# "412", or a task file name "412-fix-ranking.html" (what relative links inside task files use).
TASK_REF = re.compile(r"(\d+)(?:-[^/]*)?(?:\.html)?")


def task_id(ref: str) -> int:
    match = TASK_REF.fullmatch(ref)
    if not match:
        raise TaskNotFound(ref)
    return int(match.group(1))


@bp.get("/<path:ref>")
def show(ref):
    """The task page; a file-name reference redirects to the canonical /tasks/<id>."""
    number = task_id(ref)
    if ref != str(number):
        return redirect(url_for("tasks.show", ref=number))
    tracker = data.tracker()
    task, version = tracker.read(number)  # the forms post this version back (compare-and-set)
    history = tracker.history(number)
    commits = []
    for entry in history[:HISTORY_LIMIT]:
        lines = diff_lines(entry.diff)
        commits.append((entry, lines, diff_stats(lines)))
    links = data.task_links(task)
    return render_template("tasks/show.html", task=task, sections=data.task_sections(task),
                           links=links, waits_for=data.open_blockers(links), commits=commits,
                           older=len(history) - len(commits), file_name=PurePath(task.path).name,
                           version=version, vocab=data.vocabulary(),
                           can_sprint=tracker.actor.role == "ceo")

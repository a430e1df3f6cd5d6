"""The overview: the ranked sprint and the whole backlog by status and priority."""
from flask import Blueprint, redirect, render_template, url_for

from pm.web import arrange, data

bp = Blueprint("overview", __name__)


@bp.get("/")
def index():
    """Sprint and backlog, both narrowed by the query-string filters."""
    filters = data.request_filters()
    vocab = data.vocabulary()
    tasks = data.filtered_tasks(filters)
    return render_template(
        "overview/index.html",
        filters=filters,
        vocab=vocab,
        total=len(data.tracker().list()) if filters.active else len(tasks),
        shown=len(tasks),
        sprint=arrange.sprint_tasks(tasks),
        backlog=arrange.backlog_groups(tasks, vocab.statuses, vocab.priorities),
    )


@bp.get("/overview.html")
def overview_file():
    """Task files link to ../overview.html; send those clicks to the live overview."""
    return redirect(url_for("overview.index"))

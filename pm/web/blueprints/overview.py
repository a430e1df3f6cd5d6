"""The overview: the ranked sprint and the whole backlog by status and priority."""
from flask import Blueprint, redirect, render_template, url_for

import pm.web.arrange as arrange
import pm.web.data as data

bp = Blueprint("overview", __name__)

# Rows per status group before "all N ..." links to that status alone (pages stay light at
# 10,000 tasks); a status filter lifts the cap.
GROUP_LIMIT = 100


@bp.get("/")
def index():
    """Sprint and backlog, both narrowed by the query-string filters."""
    filters = data.request_filters()
    vocab = data.vocabulary()
    listing = data.listing(filters)
    groups = arrange.backlog_groups(listing.tasks, vocab.statuses, vocab.priorities)
    return render_template(
        "overview/index.html",
        filters=filters,
        vocab=vocab,
        total=listing.total,
        shown=len(listing.tasks),
        sprint=arrange.sprint_tasks(listing.tasks),
        backlog=arrange.capped(groups, None if filters.status else GROUP_LIMIT),
    )


@bp.get("/overview.html")
def overview_file():
    """Task files link to ../overview.html; send those clicks to the live overview."""
    return redirect(url_for("overview.index"))

"""The board: one column per status, plus the blocked tasks."""
from flask import Blueprint, render_template, url_for

import pm.web.arrange as arrange
import pm.web.data as data

bp = Blueprint("board", __name__)

CARD_LIMIT = 100  # cards per column; the rest are one click away in the overview


@bp.get("/board")
def index():
    """Columns open / in-progress / blocked / review / done..., narrowed by the filters; cards
    can be dragged to another status column (pm/web/assets/board.js)."""
    filters = data.request_filters()
    vocab = data.vocabulary()
    listing = data.listing(filters)
    blocked = listing.blocked()
    columns = arrange.capped(arrange.board_columns(listing.tasks, vocab.statuses, vocab.priorities,
                                                   blocked), CARD_LIMIT)
    # Each card carries its task's version: a drop is compare-and-set against what it showed.
    versions = data.tracker().versions([t.id for c in columns for t in c.tasks])
    return render_template(
        "board/index.html",
        filters=filters,
        vocab=vocab,
        shown=len(listing.tasks),
        blocked=blocked,
        columns=columns,
        versions=versions,
        status_url=lambda task: url_for("edits.status", number=task.id),
    )

"""The board: one column per status, plus the blocked tasks."""
from flask import Blueprint, render_template

import pm.web.arrange as arrange
import pm.web.data as data

bp = Blueprint("board", __name__)

CARD_LIMIT = 100  # cards per column; the rest are one click away in the overview


@bp.get("/board")
def index():
    """Columns open / in-progress / blocked / review / done..., narrowed by the filters."""
    filters = data.request_filters()
    vocab = data.vocabulary()
    listing = data.listing(filters)
    blocked = listing.blocked()
    columns = arrange.board_columns(listing.tasks, vocab.statuses, vocab.priorities, blocked)
    return render_template(
        "board/index.html",
        filters=filters,
        vocab=vocab,
        shown=len(listing.tasks),
        blocked=blocked,
        columns=arrange.capped(columns, CARD_LIMIT),
    )

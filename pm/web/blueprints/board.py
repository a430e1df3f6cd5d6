"""The board: one column per status, plus the blocked tasks."""
from flask import Blueprint, render_template

from pm.web import arrange, data

bp = Blueprint("board", __name__)


@bp.get("/board")
def index():
    """Columns open / in-progress / blocked / review / done..., narrowed by the filters."""
    filters = data.request_filters()
    vocab = data.vocabulary()
    tasks = data.filtered_tasks(filters)
    blocked = data.blocked_map()
    return render_template(
        "board/index.html",
        filters=filters,
        vocab=vocab,
        shown=len(tasks),
        blocked=blocked,
        columns=arrange.board_columns(tasks, vocab.statuses, vocab.priorities, blocked),
    )

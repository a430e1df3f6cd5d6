"""Full-text search over every task file."""
from flask import Blueprint, render_template, request

import pm.web.data as data

bp = Blueprint("search", __name__)

RESULT_LIMIT = 200  # rows shown; the count says how many matched


@bp.get("/search")
def index():
    """Tasks whose text holds every word of the query (?q=...), by id."""
    query = (request.args.get("q") or request.args.get("text") or "").strip()
    results = data.tracker().search(query) if query else []
    return render_template("search/index.html", query=query, results=results[:RESULT_LIMIT],
                           matched=len(results))

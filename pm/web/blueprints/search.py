"""Full-text search over every task file."""
from flask import Blueprint, render_template, request

from pm.web import data

bp = Blueprint("search", __name__)


@bp.get("/search")
def index():
    """Tasks whose text holds the query (?q=...), best matches as the tracker orders them."""
    query = (request.args.get("q") or request.args.get("text") or "").strip()
    results = data.tracker().search(query) if query else []
    return render_template("search/index.html", query=query, results=results)

"""The landing page: the list of games from the plugin registry."""
from flask import Blueprint, current_app, render_template

from engines.web import activity

bp = Blueprint("landing", __name__)


@bp.get("/")
def index():
    """List every registered game with a link to its page."""
    return render_template("landing.html", games=current_app.extensions["arcade_games"])


@bp.get("/healthz")
def healthz():
    """Liveness probe for `instances` and load balancers."""
    return {"status": "ok", "games": [g.name for g in current_app.extensions["arcade_games"]],
            "open_engines": activity.open_engines()}

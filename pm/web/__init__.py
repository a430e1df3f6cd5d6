"""pm's web UI: a Flask app over one tracker (overview, board, task pages with history, search).

`create_app(tracker_or_path)` is the factory; `pm.web.serve.serve` runs it with waitress on
127.0.0.1; `pm.web.static.render_board` writes the self-contained board page.
"""
from pathlib import Path

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from pm.web.data import SerializedTracker
from pm.web.headers import add_security_headers


def _tracker(tracker_or_path):
    if isinstance(tracker_or_path, (str, Path)):
        from pm.api import Tracker

        return Tracker(str(tracker_or_path))
    return tracker_or_path


def create_app(tracker_or_path, test_config=None) -> Flask:
    """Build the app for a Tracker (or the path of a tracker directory)."""
    app = Flask(__name__, static_folder="assets", static_url_path="/static")
    app.config.from_mapping(PM_TITLE="pm")
    if test_config:
        app.config.update(test_config)
    app.extensions["pm_tracker"] = SerializedTracker(_tracker(tracker_or_path))
    # Behind nginx at /task-x/: X-Forwarded-Prefix makes every url_for() carry the sub-path.
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_prefix=1)

    from pm.web import errors, templating
    from pm.web.blueprints import board, overview, search, tasks

    for blueprint in (overview.bp, board.bp, tasks.bp, search.bp):
        app.register_blueprint(blueprint)
    errors.register(app)
    templating.register(app)
    app.after_request(add_security_headers)
    return app

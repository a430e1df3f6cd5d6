"""The Flask app factory: one app over one tracker, its blueprints, errors and headers."""
from pathlib import Path

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

import pm.web.blueprints.board as board
import pm.web.blueprints.edits as edits
import pm.web.blueprints.overview as overview
import pm.web.blueprints.search as search
import pm.web.blueprints.tasks as tasks
import pm.web.errors as errors
import pm.web.guard as guard
import pm.web.templating as templating
from pm.web.data import SerializedTracker
from pm.web.headers import add_security_headers


def _tracker(tracker_or_path):
    if isinstance(tracker_or_path, (str, Path)):
        from pm.api import Tracker

        return Tracker(str(tracker_or_path))
    return tracker_or_path


def create_app(tracker_or_path, test_config=None) -> Flask:
    """Build the app for a Tracker (or the path of a tracker directory)."""
    app = Flask("pm.web", static_folder="assets", static_url_path="/static")
    app.config.from_mapping(PM_TITLE="pm")
    if test_config:
        app.config.update(test_config)
    app.extensions["pm_tracker"] = SerializedTracker(_tracker(tracker_or_path))
    # Behind nginx at /task-x/: X-Forwarded-Prefix makes every url_for() carry the sub-path.
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_prefix=1)
    for blueprint in (overview.bp, board.bp, tasks.bp, search.bp, edits.bp):
        app.register_blueprint(blueprint)
    errors.register(app)
    guard.register(app)
    templating.register(app)
    app.after_request(add_security_headers)
    return app

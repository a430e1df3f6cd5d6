"""pm's web UI: a Flask app over one tracker (overview, board, task pages with history, search).

`create_app(tracker_or_path)` (pm.web.app) is the factory; `pm.web.serve.serve` runs it with
waitress on 127.0.0.1; `pm.web.static.render_board` writes the self-contained board page.
"""
from pm.web.app import create_app

__all__ = ["create_app"]

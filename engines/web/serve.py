"""`engines serve`: the arcade under waitress, a production WSGI server."""
from __future__ import annotations

import os

import waitress

from engines.web import create_app

# Searches run in C without the GIL, so threads serve concurrent searches; more threads than
# cores is fine because a search's budget is capped at about a second.
THREADS = max(8, 4 * (os.cpu_count() or 1))


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve the arcade on host:port until interrupted."""
    app = create_app()
    print(f"arcade: serving on http://{host}:{port}/ ({THREADS} threads); Ctrl-C stops", flush=True)
    waitress.serve(app, host=host, port=port, threads=THREADS, ident="arcade",
                   connection_limit=200, channel_timeout=30)

"""`engines serve`: the arcade under waitress, a production WSGI server."""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager

from waitress import wasyncore
from waitress.server import create_server

from engines.web import create_app

# Searches run in C without the GIL, so threads serve concurrent searches; more threads than
# cores is fine because a search's budget is capped at about a second.
THREADS = max(8, 4 * (os.cpu_count() or 1))


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve the arcade on host:port until interrupted; a port in use is a clear error (exit 1)."""
    try:
        server = create_server(create_app(), host=host, port=port, threads=THREADS, ident="arcade",
                               connection_limit=200, channel_timeout=30)
    except OSError as exc:
        raise SystemExit(f"engines serve: cannot listen on {host}:{port}: {exc.strerror or exc}; "
                         f"choose another --port") from None
    print(f"arcade: serving on http://{host}:{port}/ ({THREADS} threads); Ctrl-C stops", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.task_dispatcher.shutdown()


@contextmanager
def serving_in_thread(app=None, host: str = "127.0.0.1", threads: int = THREADS):
    """Serve `app` (default: a new arcade) on a free port from a background thread; yields
    the base URL and stops the server on exit. For tests, benchmarks and demo recordings."""
    server = create_server(app or create_app(), host=host, port=0, threads=threads, ident="arcade")
    thread = threading.Thread(target=server.run, name="arcade-waitress", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.effective_port}"
    finally:
        # Finish the requests in flight, then close every socket from the loop's own thread
        # (closing them from here races the poll loop and the workers' wake-up pipe).
        server.task_dispatcher.shutdown()
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        thread.join(timeout=5)

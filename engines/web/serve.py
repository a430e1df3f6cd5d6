"""`engines serve`: the arcade under waitress, a production WSGI server (through plumbing.wsgi).

`serve` runs it in the foreground until Ctrl-C; `arcade_thread` runs it in a background thread
for tests, benchmarks and demo recordings:

    with arcade_thread() as server:
        httpx.get(server.url + "/healthz")
"""
from __future__ import annotations

import os

from engines.web import create_app
from plumbing.wsgi import CannotListen, ServerThread, make_server, serve_forever

# Searches run in C without the GIL, so threads serve concurrent searches; more threads than
# cores is fine because a search's budget is capped at about a second.
THREADS = max(8, 4 * (os.cpu_count() or 1))
# A stream's client that went quiet is dropped after this long; many browsers at once are fine.
ADJUSTMENTS = {"connection_limit": 200, "channel_timeout": 30}


class ServeError(CannotListen):
    """`engines serve` cannot listen; the message names the --port option."""


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve the arcade on host:port until interrupted; a port in use is ServeError (exit 1)."""
    try:
        server = make_server(create_app(), host, port, threads=THREADS, ident="arcade",
                             **ADJUSTMENTS)
    except CannotListen as exc:
        raise ServeError(str(exc).removesuffix("choose another port") + "choose another --port") \
            from None
    print(f"arcade: serving on http://{host}:{port}/ ({THREADS} threads); Ctrl-C stops", flush=True)
    serve_forever(server)


def arcade_thread(app=None, host: str = "127.0.0.1", threads: int = THREADS) -> ServerThread:
    """APP (default: a new arcade) on a free port of HOST, served from a background thread once
    started (a context manager: `with arcade_thread() as server: server.url`)."""
    app = create_app() if app is None else app
    return ServerThread(app, host, 0, threads=threads, ident="arcade", **ADJUSTMENTS)

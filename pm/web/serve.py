"""Run the web UI with waitress (through plumbing.wsgi), bound to 127.0.0.1 unless told
otherwise: `serve` in the foreground for `pm serve`, `ServerThread` for tests and embedding."""
from plumbing.wsgi import ServerThread, serve_forever
from plumbing.wsgi import make_server as make_wsgi_server

from pm.web.app import create_app

DEFAULT_PORT = 8765

__all__ = ["DEFAULT_PORT", "ServerThread", "make_server", "serve"]


def make_server(tracker, host="127.0.0.1", port=DEFAULT_PORT, **app_config):
    """A waitress server for the app, bound but not yet serving (port=0 picks a free port).

    `server.effective_port` is the bound port; `server.run()` serves until interrupted."""
    return make_wsgi_server(create_app(tracker, test_config=app_config or None), host, port,
                            threads=4, ident="pm")


def _print(line: str) -> None:
    print(line, flush=True)


def serve(tracker, host="127.0.0.1", port=DEFAULT_PORT, announce=_print, allowed_hosts=()) -> None:
    """Serve until interrupted; prints the URL first (port 0 picks a free port). Requests
    must name a loopback host, HOST itself or one of ALLOWED_HOSTS (pm.web.guard)."""
    names = set(allowed_hosts) | ({host} if host not in ("0.0.0.0", "::") else set())
    server = make_server(tracker, host=host, port=port, PM_ALLOWED_HOSTS=sorted(names))
    announce(f"pm web UI on http://{host}:{server.effective_port}/ (Ctrl-C stops)")
    serve_forever(server)

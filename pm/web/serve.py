"""Run the web UI with waitress, bound to 127.0.0.1 unless told otherwise."""
import waitress

from pm.web import create_app

DEFAULT_PORT = 8765


def make_server(tracker, host="127.0.0.1", port=DEFAULT_PORT, **app_config):
    """A waitress server for the app, bound but not yet serving (port=0 picks a free port).

    `server.effective_port` is the bound port; `server.run()` serves; `server.close()` stops."""
    app = create_app(tracker, test_config=app_config or None)
    return waitress.create_server(app, host=host, port=port, threads=4, ident="pm")


def _print(line: str) -> None:
    print(line, flush=True)


def serve(tracker, host="127.0.0.1", port=DEFAULT_PORT, announce=_print) -> None:
    """Serve until interrupted; prints the URL first (port 0 picks a free port)."""
    server = make_server(tracker, host=host, port=port)
    announce(f"pm web UI on http://{host}:{server.effective_port}/ (Ctrl-C stops)")
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()

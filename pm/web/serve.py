"""Run the web UI with waitress, bound to 127.0.0.1 unless told otherwise."""
import threading

import waitress
from waitress import wasyncore

from pm.web import create_app

DEFAULT_PORT = 8765


def make_server(tracker, host="127.0.0.1", port=DEFAULT_PORT, **app_config):
    """A waitress server for the app, bound but not yet serving (port=0 picks a free port).

    `server.effective_port` is the bound port; `server.run()` serves until interrupted."""
    return _waitress(create_app(tracker, test_config=app_config or None), host, port)


def _waitress(app, host, port):
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


class ServerThread:
    """A WSGI app on waitress in a background thread that stops cleanly (tests, embedding).

        with ServerThread(app) as server:
            urlopen(server.url + "/")
    """

    def __init__(self, app, host="127.0.0.1", port=0):
        self.host = host
        self.server = _waitress(app, host, port)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="pm-web", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.server.effective_port}"

    def _loop(self) -> None:
        # Short polls let stop() end the loop here, in the thread that owns the sockets:
        # closing them from another thread while select() waits on them fails with EBADF.
        sockets = self.server._map  # waitress keeps its channels there; run() loops on it too
        while not self._stopping.is_set():
            wasyncore.loop(timeout=0.05, map=sockets, count=1)
        self.server.task_dispatcher.shutdown()
        wasyncore.close_all(sockets)

    def start(self) -> "ServerThread":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=10)

    def __enter__(self) -> "ServerThread":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

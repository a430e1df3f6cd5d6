"""A WSGI app served by waitress: in the foreground until Ctrl-C, or in a background thread
that stops cleanly (tests, benchmarks, demo recordings, embedding).

Only waitress's public API is used: `create_server(app, map=...)` with a socket map this module
owns, and `wasyncore.loop` over that map in the thread that owns the sockets (closing them from
another thread while the loop polls them fails with EBADF or races the wake-up pipe).
"""
from __future__ import annotations

import threading

import waitress
from waitress import wasyncore

from plumbing.errors import NamedError


class CannotListen(NamedError):
    """The address is taken or cannot be bound."""


def make_server(app, host: str = "127.0.0.1", port: int = 0, *, threads: int = 4,
                ident: str = "soloshop", map: dict | None = None, **adjustments):
    """A waitress server bound to HOST:PORT (0 picks a free port), not yet serving.

    `server.effective_port` is the bound port. Failing to bind is CannotListen."""
    try:
        return waitress.create_server(app, map=map, host=host, port=port, threads=threads,
                                      ident=ident, **adjustments)
    except OSError as exc:
        raise CannotListen(f"cannot listen on {host}:{port}: {exc.strerror or exc}; "
                           "choose another port") from None


def serve_forever(server) -> None:
    """Serve until Ctrl-C, then finish the requests in flight."""
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.task_dispatcher.shutdown()


class ServerThread:
    """APP on waitress in a daemon thread.

        with ServerThread(app) as server:
            httpx.get(server.url + "/")
    """

    POLL = 0.05  # how soon the loop notices stop()

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0, *, threads: int = 4,
                 ident: str = "soloshop", **adjustments):
        self.host = host
        self._sockets: dict = {}
        self.server = make_server(app, host, port, threads=threads, ident=ident,
                                  map=self._sockets, **adjustments)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=f"{ident}-wsgi", daemon=True)

    @property
    def port(self) -> int:
        return int(self.server.effective_port)  # waitress reports it as a string

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def _loop(self) -> None:
        try:
            while not self._stopping.is_set():
                wasyncore.loop(timeout=self.POLL, map=self._sockets, count=1)
        finally:
            self.server.task_dispatcher.shutdown()  # lets the requests in flight finish
            wasyncore.close_all(self._sockets)

    def start(self) -> "ServerThread":
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving, finish the requests in flight and close every socket."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout=timeout)
        else:  # never started: the sockets are still ours to close
            wasyncore.close_all(self._sockets)

    def __enter__(self) -> "ServerThread":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

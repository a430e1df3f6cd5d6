"""Real servers for the arcade's tests: waitress on a free port, and nginx in front of it
under a sub-path (what `instances` does for a review URL)."""
from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from engines.web import create_app
from engines.web.serve import arcade_thread
from tests.support.nginx import private_nginx


@contextlib.contextmanager
def running_arcade(config: dict | None = None, threads: int = 8):
    """The arcade under waitress on 127.0.0.1 and a free port; yields its base URL."""
    with arcade_thread(create_app(config), threads=threads) as server:
        yield server.url


@contextlib.contextmanager
def running_nginx(upstream_port: int, location: str = "/task-x/"):
    """A private nginx in front of the upstream, configured as `instances` configures a review
    URL; yields the URL of `location` through nginx."""
    with tempfile.TemporaryDirectory(prefix="arcade-nginx-") as tmp:
        with private_nginx(Path(tmp), {location: upstream_port}) as base_url:
            yield base_url + location

"""A real, unprivileged nginx for tests, configured by the product's own renderer.

    from tests.support.nginx import private_nginx

    with private_nginx(tmp_path, {"/task-x/": app_port}) as base_url:
        httpx.get(base_url + "/task-x/")      # reaches the app at / with X-Forwarded-Prefix /task-x

The configuration is what `instances` itself would write (instances.nginx_conf's
render_main_conf and render_locations), so a test behind this nginx sees the headers, the
redirects and the sub-path handling a review URL has. nginx runs in the foreground as a child
of the test (`daemon off`), in its own prefix under the given directory, on a free port, and is
stopped when the block ends.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from instances.nginx_conf import Route, render_location, render_locations, render_main_conf
from plumbing.ports import free_port, wait_for_port

START_TIMEOUT = 30.0  # a loaded 2-core machine can take seconds to start nginx


def nginx_binary() -> str:
    return os.environ.get("INSTANCES_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"


@dataclass
class RunningNginx:
    """An nginx started by `nginx_server`."""

    prefix: Path  # its -p prefix: conf/, logs/, run/, tmp/
    port: int
    process: subprocess.Popen

    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT (no trailing slash)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def locations_dir(self) -> Path:
        """Every *.conf here is included inside the server block (routes.conf is ours)."""
        return self.prefix / "conf" / "locations"

    @property
    def argv(self) -> list[str]:
        """nginx with this server's prefix and configuration; add "-t" or "-s", "reload"."""
        return [nginx_binary(), "-p", f"{self.prefix}/", "-c", "conf/nginx.conf", "-e", "logs/error.log"]

    @property
    def error_log(self) -> str:
        path = self.prefix / "logs" / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""


def _routes(routes: dict[str, int], proxy: str) -> list[Route]:
    """{"/task-x/": 8123} -> [Route("task-x", 8123, proxy)]; the key must be /NAME/."""
    found = []
    for location, port in routes.items():
        name = location.strip("/")
        if location != f"/{name}/" or "/" in name:
            raise ValueError(f"route {location!r}: write a location as /NAME/ (one path segment)")
        found.append(Route(name, int(port), proxy))
    return found


@contextlib.contextmanager
def nginx_server(directory: str | os.PathLike, routes: dict[str, int] | None = None, *,
                 proxy: str = "strip", generation_probe: bool = True) -> Iterator[RunningNginx]:
    """nginx in DIRECTORY/nginx, proxying each ROUTES location ("/task-x/") to 127.0.0.1:PORT.

    PROXY is instances' proxy mode: "strip" (the app sees / and X-Forwarded-Prefix) or
    "passthrough" (the app sees /task-x/...). GENERATION_PROBE=False leaves out the
    /__instances/generation location, for a test that writes instances' own include into
    `locations_dir` (a stand-in for a system nginx)."""
    prefix = Path(directory) / "nginx"
    for sub in ("conf/locations", "logs", "run", "tmp"):
        (prefix / sub).mkdir(parents=True, exist_ok=True)
    port = free_port()
    found = _routes(routes or {}, proxy)
    if generation_probe:
        text = render_locations(found)
    else:
        text = "".join(render_location(r, None, None) + "\n" for r in found)
    (prefix / "conf" / "locations" / "routes.conf").write_text(text)
    user = "root" if os.geteuid() == 0 else None  # as root, workers would be nobody: keep them ours
    (prefix / "conf" / "nginx.conf").write_text(
        render_main_conf(str(prefix), ("127.0.0.1", port), user=user, include=f"{prefix}/conf/locations/*.conf"))
    server = RunningNginx(prefix, port, None)
    server.process = subprocess.Popen([*server.argv, "-g", "daemon off;"], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        try:
            wait_for_port(port, timeout=START_TIMEOUT, process=server.process)
        except Exception as exc:
            raise RuntimeError(f"{exc}\nnginx error log:\n{server.error_log}") from None
        yield server
    finally:
        if server.process.poll() is None:
            server.process.send_signal(signal.SIGQUIT)  # graceful: requests in flight finish
            try:
                server.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait()


@contextlib.contextmanager
def private_nginx(directory: str | os.PathLike, routes: dict[str, int], *,
                  proxy: str = "strip") -> Iterator[str]:
    """nginx proxying ROUTES ({"/task-x/": port}); yields its base URL, http://127.0.0.1:PORT."""
    with nginx_server(directory, routes, proxy=proxy) as server:
        yield server.url

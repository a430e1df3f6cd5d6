"""Real servers for the arcade's tests: waitress on a free port, and nginx in front of it
under a sub-path (what `instances` does for a review URL)."""
from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from engines.web import create_app
from engines.web.serve import arcade_thread
from plumbing.ports import PortTimeout, free_port, wait_for_port


@contextlib.contextmanager
def running_arcade(config: dict | None = None, threads: int = 8):
    """The arcade under waitress on 127.0.0.1 and a free port; yields its base URL."""
    with arcade_thread(create_app(config), threads=threads) as server:
        yield server.url


def nginx_conf(prefix_dir: Path, listen_port: int, upstream_port: int, location: str) -> str:
    """Pure: an unprivileged nginx.conf proxying `location` (e.g. /task-x/) to the upstream."""
    tmp = prefix_dir / "tmp"
    temp_paths = "\n".join(
        f"    {kind}_temp_path {tmp / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""
worker_processes 1;
pid {prefix_dir / 'nginx.pid'};
error_log {prefix_dir / 'error.log'};
events {{ worker_connections 256; }}
http {{
    access_log {prefix_dir / 'access.log'};
{temp_paths}
    server {{
        listen 127.0.0.1:{listen_port};
        location {location} {{
            proxy_pass http://127.0.0.1:{upstream_port}/;
            proxy_set_header Host $host:$server_port;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-Host $host:$server_port;
            proxy_set_header X-Forwarded-Prefix {location.rstrip('/')};
        }}
    }}
}}
"""


def _wait_for(port: int, process: subprocess.Popen, log: Path) -> None:
    try:
        wait_for_port(port, process=process, timeout=10)
    except PortTimeout as exc:
        raise RuntimeError(f"nginx: {exc}: {log.read_text() if log.exists() else ''}") from None


@contextlib.contextmanager
def running_nginx(upstream_port: int, location: str = "/task-x/"):
    """A private nginx (own prefix, temp paths, free port) in front of the upstream; yields
    the URL of `location` through nginx."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    with tempfile.TemporaryDirectory(prefix="arcade-nginx-") as tmp:
        prefix_dir = Path(tmp)
        prefix_dir.chmod(0o755)  # run as root, nginx's workers are `nobody`: they need the temp dirs
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (prefix_dir / "tmp" / kind).mkdir(parents=True, mode=0o777)
            (prefix_dir / "tmp" / kind).chmod(0o777)
        (prefix_dir / "tmp").chmod(0o755)
        port = free_port()
        conf = prefix_dir / "nginx.conf"
        conf.write_text(nginx_conf(prefix_dir, port, upstream_port, location))
        log = prefix_dir / "error.log"
        process = subprocess.Popen(
            [binary, "-p", str(prefix_dir), "-c", str(conf), "-e", str(log), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _wait_for(port, process, log)
            yield f"http://127.0.0.1:{port}{location}"
        finally:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

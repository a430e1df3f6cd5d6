"""The private nginx for real: candidate + nginx -t + rename + reload + verification + rollback."""
import os
import signal
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import psutil
import pytest

from instances.errors import NginxError
from instances.nginx import PrivateNginx, probe_generation
from instances.nginx_conf import Route, render_locations, render_main_conf
from instances.procs import wait_gone
from plumbing.ports import free_port


class _Hello(BaseHTTPRequestHandler):
    def do_GET(self):
        body = f"backend saw {self.path} prefix={self.headers.get('X-Forwarded-Prefix')}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def backend():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()


@pytest.fixture
def nginx(tmp_path):
    server = PrivateNginx(tmp_path / "ngx")
    yield server
    server.stop()


def _user():
    return "root" if os.geteuid() == 0 else None


def _apply(server, listen_port, routes, generation):
    main = render_main_conf(str(server.prefix), ("127.0.0.1", listen_port), user=_user())
    return server.apply(main, render_locations(routes, generation=generation), f"http://127.0.0.1:{listen_port}", generation)


@pytest.mark.nginx
def test_start_route_and_reload(nginx, backend):
    port = free_port()
    assert _apply(nginx, port, [], 1) == "started"
    assert _apply(nginx, port, [Route("task-1", backend)], 2) == "reloaded"
    resp = httpx.get(f"http://127.0.0.1:{port}/task-1/page?x=1", trust_env=False)
    assert resp.text == "backend saw /page?x=1 prefix=/task-1"
    redirect = httpx.get(f"http://127.0.0.1:{port}/task-1", trust_env=False)
    assert redirect.status_code == 301 and redirect.headers["location"] == "/task-1/"
    assert _apply(nginx, port, [Route("task-1", backend)], 2) == "unchanged"


@pytest.mark.nginx
def test_broken_candidate_does_not_take_serving_down(nginx, backend):
    port = free_port()
    _apply(nginx, port, [Route("task-1", backend)], 1)
    live_before = nginx.live_include()
    workers = nginx.workers()
    main = render_main_conf(str(nginx.prefix), ("127.0.0.1", port), user=_user())
    with pytest.raises(NginxError, match="rejected"):
        nginx.apply(main, "location /x/ { proxy_pass http://127.0.0.1:1/; \n", f"http://127.0.0.1:{port}", 2)
    assert nginx.live_include() == live_before
    assert nginx.workers() == workers  # not even reloaded
    assert httpx.get(f"http://127.0.0.1:{port}/task-1/", trust_env=False).status_code == 200
    assert probe_generation(f"http://127.0.0.1:{port}") == 1


@pytest.mark.nginx
def test_port_clash_at_reload_is_detected_and_rolled_back(nginx, backend):
    port = free_port()
    _apply(nginx, port, [Route("task-1", backend)], 1)
    main_before = (nginx.conf_dir / "nginx.conf").read_text()
    with socket.socket() as squatter:  # `nginx -t` passes this; only the reload fails
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        with pytest.raises(NginxError, match="did not take effect"):
            _apply(nginx, taken, [Route("task-1", backend)], 2)
    assert (nginx.conf_dir / "nginx.conf").read_text() == main_before
    assert httpx.get(f"http://127.0.0.1:{port}/task-1/", trust_env=False).status_code == 200
    # the restored configuration reloads cleanly afterwards
    assert _apply(nginx, port, [Route("task-2", backend)], 3) == "reloaded"
    assert probe_generation(f"http://127.0.0.1:{port}") == 3


@pytest.mark.nginx
def test_kill_9_master_leaves_workers_that_are_cleaned_up(nginx, backend):
    port = free_port()
    _apply(nginx, port, [Route("task-1", backend)], 1)
    master = nginx.master()
    workers = [psutil.Process(pid) for pid in nginx.workers()]
    os.kill(master.pid, signal.SIGKILL)
    wait_gone([master], 60)
    assert nginx.master() is None
    # orphaned workers still hold the port; they are found through the process group and our prefix
    assert {p.pid for p in nginx.leftovers()} == {w.pid for w in workers if w.is_running()}
    nginx.kill_leftovers()
    assert _apply(nginx, port, [Route("task-1", backend)], 2) == "started"
    assert httpx.get(f"http://127.0.0.1:{port}/task-1/", trust_env=False).status_code == 200

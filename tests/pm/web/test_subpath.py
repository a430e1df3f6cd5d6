"""Behind a real nginx at /task-x/ (as `instances` puts apps): every link, form and the
stylesheet stay under the sub-path, in Chromium."""
import os
import socket
import subprocess
import time

import pytest

NGINX_CONF = """
worker_processes 1;
pid {prefix}/nginx.pid;
{user}
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/tmp/body;
    proxy_temp_path {prefix}/tmp/proxy;
    fastcgi_temp_path {prefix}/tmp/fastcgi;
    uwsgi_temp_path {prefix}/tmp/uwsgi;
    scgi_temp_path {prefix}/tmp/scgi;
    server {{
        listen 127.0.0.1:{port};
        location /task-x/ {{
            proxy_pass http://127.0.0.1:{app_port}/;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-Host $http_host;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Prefix /task-x;
        }}
    }}
}}
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process, timeout=10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nginx did not listen on {port}")


@pytest.fixture(scope="module")
def proxied_url(live_url, tmp_path_factory):
    prefix = tmp_path_factory.mktemp("nginx")
    (prefix / "tmp").mkdir()
    (prefix / "logs").mkdir()
    port = free_port()
    conf = prefix / "nginx.conf"
    conf.write_text(NGINX_CONF.format(
        prefix=prefix, port=port, app_port=live_url.rsplit(":", 1)[1],
        user="user root;" if os.geteuid() == 0 else ""))
    process = subprocess.Popen(
        ["nginx", "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "logs/error.log"),
         "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/task-x"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_navigation_stays_under_the_sub_path(page, proxied_url, world):
    page.goto(proxied_url + "/")
    topbar = page.locator("header.topbar").evaluate("e => getComputedStyle(e).backgroundColor")
    assert topbar == "rgb(29, 35, 48)"  # the stylesheet came through /task-x/static/
    page.click("nav >> text=Board")
    page.wait_for_url(proxied_url + "/board")
    page.locator(f'.card[data-task="{world["quoridor"]}"]').click()
    page.wait_for_url(f"{proxied_url}/tasks/{world['quoridor']}")
    page.locator("#links a").first.click()
    page.wait_for_url(f"{proxied_url}/tasks/{world['go']}")
    page.fill("header input[name=q]", "gomoku")
    page.press("header input[name=q]", "Enter")
    page.wait_for_url(f"{proxied_url}/search?q=gomoku")
    assert page.locator("tbody tr").count() >= 1
    page.click("a.brand")
    page.wait_for_url(proxied_url + "/")


def test_filters_and_redirects_keep_the_sub_path(page, proxied_url, world):
    page.goto(proxied_url + "/board")
    page.select_option("select[name=status]", "open")
    page.click("form.filters button")
    page.wait_for_url(proxied_url + "/board?status=open**")
    name = world["tracker"].get(world["quoridor"]).path.split("/")[-1]
    page.goto(f"{proxied_url}/tasks/{name}")  # what a relative link inside a task file opens
    assert page.url == f"{proxied_url}/tasks/{world['quoridor']}"
    page.goto(proxied_url + "/overview.html")
    assert page.url == proxied_url + "/"

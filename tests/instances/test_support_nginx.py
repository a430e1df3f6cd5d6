"""tests/support/nginx.py: the test nginx that other tools' tests put in front of their apps,
configured by instances' own renderer."""
import httpx
import pytest

from plumbing.wsgi import ServerThread
from tests.support.nginx import nginx_server, private_nginx

pytestmark = pytest.mark.nginx


def _echo(environ, start_response):
    body = f"{environ['PATH_INFO']} prefix={environ.get('HTTP_X_FORWARDED_PREFIX')}".encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]


@pytest.fixture
def backend():
    with ServerThread(_echo) as server:
        yield server.port


def test_a_location_is_proxied_like_a_review_url(tmp_path, backend):
    with private_nginx(tmp_path, {"/task-x/": backend}) as base_url:
        assert httpx.get(base_url + "/task-x/page", trust_env=False).text == "/page prefix=/task-x"
        redirect = httpx.get(base_url + "/task-x", trust_env=False)
        assert redirect.status_code == 301 and redirect.headers["location"] == "/task-x/"
        assert httpx.get(base_url + "/__instances/generation", trust_env=False).text == "0\n"
        assert httpx.get(base_url + "/elsewhere/", trust_env=False).status_code == 404


def test_passthrough_keeps_the_path_and_the_server_stops(tmp_path, backend):
    with nginx_server(tmp_path, {"/task-y/": backend}, proxy="passthrough") as server:
        assert httpx.get(server.url + "/task-y/a", trust_env=False).text == "/task-y/a prefix=None"
        assert "proxy_pass http://127.0.0.1:" in (server.locations_dir / "routes.conf").read_text()
    assert server.process.poll() is not None
    with pytest.raises(httpx.ConnectError):
        httpx.get(server.url + "/task-y/a", trust_env=False)


def test_a_location_must_be_one_segment(tmp_path):
    with pytest.raises(ValueError, match="/NAME/"):
        with private_nginx(tmp_path, {"/a/b/": 1}):
            pass

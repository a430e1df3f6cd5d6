"""Fixtures for the arcade: a Flask test client, real servers (waitress, nginx), the cores'
WebAssembly builds."""
import pytest

from engines import wasm
from engines.web import create_app
from tests.engines.web.servers import running_arcade, running_nginx


@pytest.fixture
def app():
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def arcade_url():
    """The arcade under waitress, as `engines serve` runs it."""
    with running_arcade() as url:
        yield url


@pytest.fixture(scope="module")
def proxied_url(arcade_url):
    """The same arcade behind a private nginx under /task-x/."""
    port = int(arcade_url.rsplit(":", 1)[1])
    with running_nginx(port, "/task-x/") as url:
        yield url


@pytest.fixture(params=["direct", pytest.param("behind-nginx", marks=pytest.mark.nginx)])
def site(request):
    """The arcade's base URL (ends with /), directly or through nginx under /task-x/."""
    if request.param == "direct":
        return request.getfixturevalue("arcade_url") + "/"
    return request.getfixturevalue("proxied_url")


@pytest.fixture(scope="session")
def wasm_built():
    """The cores' WebAssembly builds where the arcade serves them (what `make wasm` does)."""
    for game in wasm.HEADERS:
        wasm.build(game)

"""The websocket check through nginx: subprotocols the app needs (Vite's HMR answers only an
upgrade offering `vite-hmr`), and what the check says when nothing answers."""
import socket
import threading

import pytest

from instances.checks import websocket_check
from instances.config import load_config
from instances.errors import ChecksFailed, ConfigError
from tests.instances.conftest import write_toml


def _use(mgr, app_repo, extra_top):
    text = (app_repo / "instances.toml").read_text().replace('websocket = "/ws"', 'websocket = "/ws-proto"')
    (app_repo / "instances.toml").write_text(text.replace("[nginx]", extra_top + "\n[nginx]"))
    mgr.config = load_config(app_repo, environ={})


@pytest.mark.nginx
def test_an_app_that_needs_a_subprotocol_passes_when_it_is_offered(mgr, app_repo):
    _use(mgr, app_repo, 'websocket_protocols = ["fixture-proto"]')
    result = mgr.up("feature/hmr")
    ws = next(c for c in result["checks"] if c["name"] == "websocket")
    assert ws == {"name": "websocket", "ok": True,
                  "detail": "/feature-hmr/ws-proto -> 101 (offered subprotocol fixture-proto; server chose fixture-proto)"}


@pytest.mark.nginx
def test_without_the_subprotocol_the_check_fails_and_says_what_it_sent(mgr, app_repo):
    _use(mgr, app_repo, "")
    with pytest.raises(ChecksFailed) as info:
        mgr.up("feature/hmr")
    assert ("websocket: /feature-hmr/ws-proto -> no answer within 5 s (no subprotocol offered); if the app needs "
            "a subprotocol (Vite: vite-hmr), set websocket_protocols in instances.toml") in str(info.value)


def test_a_server_that_never_answers_is_named_not_none():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        accepted = []
        threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
        check = websocket_check(f"http://127.0.0.1:{port}", "/x/ws", None, ("vite-hmr", "vite-ping"), timeout=0.5)
    assert not check.ok
    assert check.detail == "/x/ws -> no answer within 0.5 s (offered subprotocol vite-hmr, vite-ping)"


def test_subprotocol_names_are_validated(app_repo):
    write_toml(app_repo, 8080, extra_top='websocket_protocols = ["vite hmr"]', commit=False)
    with pytest.raises(ConfigError, match=r'websocket_protocols must be a list of subprotocol names, e.g. \["vite-hmr"\]'):
        load_config(app_repo, environ={})

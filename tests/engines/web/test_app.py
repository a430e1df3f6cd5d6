"""The app shell: landing page from the registry, pages, health, JSON errors, proxy prefix."""
import re

import pytest

from engines.web.plugins import registered_games

URL_ATTRS = re.compile(r'(?:href|src|data-url-[a-z-]+)="([^"]+)"')


def test_landing_lists_every_registered_game(client):
    html = client.get("/").get_data(as_text=True)
    for game in registered_games():
        assert f'href="/{game.name}"' in html
        assert game.title in html


def test_go_page_renders_api_urls_from_url_for(client):
    html = client.get("/go").get_data(as_text=True)
    assert 'data-url-genmove="/api/go/genmove"' in html
    assert 'data-url-sgf-import="/api/go/sgf/import"' in html
    assert '<svg id="board"' in html


def test_every_url_stays_under_the_forwarded_prefix(client):
    for page in ("/", "/go", "/gomoku", "/quoridor", "/api"):
        html = client.get(page, headers={"X-Forwarded-Prefix": "/task-x"}).get_data(as_text=True)
        urls = [u for u in URL_ATTRS.findall(html) if not u.startswith(("data:", "#"))]
        assert urls, page
        assert all(u.startswith("/task-x/") for u in urls), urls


def test_openapi_server_url_carries_the_prefix(client):
    doc = client.get("/api/openapi.json", headers={"X-Forwarded-Prefix": "/task-x"}).get_json()
    assert doc["servers"] == [{"url": "/task-x"}]
    assert client.get("/api/openapi.json").get_json()["servers"] == [{"url": "/"}]


def test_health_names_the_games(client):
    assert client.get("/healthz").get_json() == {"status": "ok", "games": ["go", "gomoku", "quoridor"],
                                                 "open_engines": 0}


def test_unknown_api_path_answers_json_404(client):
    response = client.get("/api/go/nothing")
    assert response.status_code == 404
    assert "error" in response.get_json()


@pytest.mark.parametrize("page", ["/go", "/gomoku", "/quoridor"])
def test_pages_name_no_external_host(client, page):
    html = client.get(page).get_data(as_text=True)
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "") and "https://" not in html


def test_static_assets_are_served_without_external_hosts(client):
    shared = ("api.js", "keys.js", "download.js", "timeline.js", "branches.js", "analysis.js", "controller.js")
    for asset in ("arcade.css", "go/app.js", "go/board.js", "go/api.js", "go/analysis.js", "go/coords.js",
                  "gomoku/app.js", "gomoku/board.js", "quoridor/app.js", "quoridor/board.js",
                  *(f"shared/{name}" for name in shared)):
        response = client.get(f"/static/{asset}")
        assert response.status_code == 200, asset
        body = response.get_data(as_text=True)
        assert "http://" not in body.replace("http://www.w3.org/2000/svg", "") and "https://" not in body


def test_page_controls_start_from_the_query_string(client):
    html = client.get("/go?black=engine&white=human&playouts=800&delay=0.5&size=13").get_data(as_text=True)
    assert re.search(r'<option value="13" selected>', html)
    assert re.search(r'id="player-b"[^>]*>\s*<option value="human" >Human</option>\s*'
                     r'<option value="engine" selected>', html)
    assert 'value="800"' in html and 'id="delay" type="number" min="0" max="5" step="0.25" value="0.5"' in html


def test_junk_in_the_query_string_falls_back_to_defaults(client):
    html = client.get("/go?black=robot&playouts=999999&delay=x&size=7").get_data(as_text=True)
    assert re.search(r'<option value="9" selected>', html)
    assert 'value="5000"' in html and 'value="0.75"' in html
    assert not re.search(r'id="player-b"[^>]*>\s*<option value="human" >', html)


def test_api_reference_page_lists_every_operation_and_schema(client):
    html = client.get("/api").get_data(as_text=True)
    doc = client.get("/api/openapi.json").get_json()
    for path in doc["paths"]:
        assert f"<code>POST {path}</code>" in html
    for name in doc["components"]["schemas"]:
        assert f'id="schema-{name}"' in html


def test_gomoku_and_quoridor_pages_render_api_urls_and_start_options(client):
    html = client.get("/gomoku?rule=renju&size=20&black=engine&nodes=5000&moves=h8,i9").get_data(as_text=True)
    assert 'data-url-threats="/api/gomoku/threats"' in html and 'data-nodes="5000"' in html
    assert re.search(r'<option value="renju" selected>', html) and re.search(r'<option value="20" selected>', html)
    assert 'data-start-moves="h8 i9"' in html
    assert re.search(r'id="player-b"[^>]*>\s*<option value="human" >Human</option>\s*'
                     r'<option value="engine" selected>', html)
    html = client.get("/quoridor?size=7&p1=engine&seconds=9&moves=<b>").get_data(as_text=True)
    assert 'data-url-record-import="/api/quoridor/record/import"' in html
    assert re.search(r'<option value="7" selected>', html)
    assert 'id="seconds-p1" type="number" min="0.01" step="0.05"' in html and 'value="0.5"' in html  # 9 s: junk
    assert "<b>" not in html and 'data-start-moves="&lt;b&gt;"' in html   # escaped, judged by the server

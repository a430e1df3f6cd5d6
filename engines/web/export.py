"""`engines export DIR`: the arcade as static files that play with no server at all.

Every game that has an in-page engine (`IN_PAGE`: its C core compiled to WebAssembly and its
API module in static/engine/worker.js's GAMES) is exported: the landing page as DIR/index.html,
each game's page as DIR/GAME/index.html, rendered by the arcade itself with the engine fixed to
the page (`ENGINE_ONLY`), and the static folder with the freshly built modules as DIR/static/.
Links are rewritten relative to each page, so DIR works from any static host, under any
sub-path, and from `python3 -m http.server`. The pages hold no game rules: those come from the
compiled cores, as on the server.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from engines import wasm
from plumbing.errors import NamedError
from plumbing.files import atomic_write

STATIC = Path(__file__).resolve().parent / "static"
# The games whose page can play with no server (worker.js's GAMES; a test keeps both equal).
IN_PAGE = ("go", "gomoku", "quoridor")
_ABSOLUTE = re.compile(r'(\b(?:href|src)=")/([^"]*)"')


class ExportError(NamedError):
    """The export cannot be written where it was asked to go."""


def relative(html: str, depth: int) -> str:
    """HTML whose site-absolute links (/static/x, /go) point the same place from a page DEPTH
    folders below the export's root (pages are folders: /go -> go/)."""
    up = "../" * depth

    def fix(m: re.Match) -> str:
        target = m.group(2)
        if target and not target.startswith("static/"):
            target = target.rstrip("/") + "/"  # a page: its folder's index.html
        return f'{m.group(1)}{up + target or "./"}"'
    return _ABSOLUTE.sub(fix, html)


def export_site(out: Path) -> list[Path]:
    """Write the static arcade into OUT (created; an existing non-empty folder is refused
    unless it is an earlier export). Returns the pages written."""
    from engines.web import create_app
    from engines.web.plugins import registered_games

    out = Path(out)
    if out.exists() and any(out.iterdir()) and not (out / ".arcade-export").exists():
        raise ExportError(f"{out} is not empty and not an earlier export; give an empty or new "
                          f"folder")
    games = [g for g in registered_games() if g.name in IN_PAGE]
    for game in games:
        wasm.build(game.name)
    app = create_app({"ENGINE_ONLY": "page"}, games=games)
    client = app.test_client()
    pages = {Path("index.html"): ("/", 0)}
    for game in games:
        pages[Path(game.name) / "index.html"] = (f"/{game.name}", 1)
    out.mkdir(parents=True, exist_ok=True)
    static = out / "static"
    if static.exists():
        shutil.rmtree(static)
    shutil.copytree(STATIC, static, ignore=shutil.ignore_patterns(".built", "*.request.json"))
    written = []
    for path, (url, depth) in pages.items():
        answer = client.get(url)
        if answer.status_code != 200:
            raise ExportError(f"rendering {url} failed with HTTP {answer.status_code}")
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        atomic_write(out / path, relative(answer.get_data(as_text=True), depth))
        written.append(out / path)
    atomic_write(out / ".arcade-export", "written by `engines export`; safe to overwrite\n")
    return written

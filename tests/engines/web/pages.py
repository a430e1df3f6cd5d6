"""What the browser tests of the Gomoku and Quoridor pages share: the page's published state
(data attributes on its #<game>-app element) and waits on it."""
from __future__ import annotations


class GamePage:
    def __init__(self, page, game: str):
        self.page, self.app = page, f"#{game}-app"
        self.requests: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))

    def open(self, url: str) -> "GamePage":
        self.page.goto(url)
        self.wait_idle()
        return self

    def data(self, name: str) -> str:
        return self.page.get_attribute(self.app, f"data-{name}") or ""

    def moves(self) -> list[str]:
        return self.data("moves").split()

    def wait_idle(self, timeout: float = 20_000) -> None:
        self.page.wait_for_function(
            "(app) => { const d = document.querySelector(app).dataset;"
            " return d.ready === '1' && d.busy === '0'; }", arg=self.app, timeout=timeout)

    def wait_moves(self, count: int, timeout: float = 20_000) -> None:
        self.page.wait_for_function(
            "([app, n]) => { const d = document.querySelector(app).dataset;"
            " return d.ready === '1' && d.busy === '0' && d.moves.split(' ').filter(Boolean).length === n; }",
            arg=[self.app, count], timeout=timeout)

    def click(self, selector: str) -> None:
        self.page.click(selector)
        self.wait_idle()

    def message(self) -> str:
        return self.page.text_content("#message") or ""

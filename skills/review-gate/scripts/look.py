#!/usr/bin/env python3
"""Look at a review URL the way a reviewer does: each page rendered in Chromium at 1280x720,
a screenshot per page, and what a review URL gets wrong - console errors, failed requests, and
links or assets that leave the instance's sub-path.

    python look.py URL [--path go --path api] [--out DIR] [--json]

Credentials: $REVIEW_CREDENTIALS (user:password), else `instances auth --json` run in the
current folder when it answers. Exit 0 when every page is clean, 1 when anything was found.
Needs soloshop's Python (Playwright, plumbing.chromium) and Debian's Chromium."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import click

# Every element attribute that names a URL the page will fetch or navigate to.
URL_ATTRS = "a[href], link[href], script[src], img[src], form[action], iframe[src], source[src]"


def credentials() -> dict | None:
    given = os.environ.get("REVIEW_CREDENTIALS")
    if given and ":" in given:
        user, _, password = given.partition(":")
        return {"username": user, "password": password}
    try:
        proc = subprocess.run(["instances", "auth", "--json"], capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    data = json.loads(proc.stdout)
    return {"username": data["user"], "password": data["password"]}


def outside(base: str, urls: list[str]) -> list[str]:
    """URLS on the same host that leave BASE's path (the review sub-path)."""
    root = urlsplit(base)
    prefix = root.path if root.path.endswith("/") else root.path + "/"
    out = []
    for url in urls:
        full = urlsplit(urljoin(base, url))
        if full.scheme not in ("http", "https"):
            continue
        if full.netloc == root.netloc and not (full.path + "/").startswith(prefix):
            out.append(url)
    return sorted(set(out))


def look(url: str, paths: list[str], out: Path, auth: dict | None) -> list[dict]:
    from playwright.sync_api import sync_playwright
    from plumbing import chromium
    base = url if url.endswith("/") else url + "/"
    out.mkdir(parents=True, exist_ok=True)
    pages = []
    with sync_playwright() as pw:
        browser = chromium.launch(pw)
        context = browser.new_context(viewport={"width": 1280, "height": 720},
                                      http_credentials=auth)
        try:
            for index, path in enumerate(["", *paths]):
                page = context.new_page()
                errors, failed = [], []
                page.on("console", lambda m, e=errors: e.append(_console_text(m))
                        if m.type == "error" and not _browser_favicon(m) else None)
                page.on("pageerror", lambda exc, e=errors: e.append(str(exc)))
                page.on("response", lambda r, f=failed: f.append(f"{r.status} {r.url}")
                        if r.status >= 400 else None)
                target = urljoin(base, path)
                response = page.goto(target, wait_until="load", timeout=30000)
                page.wait_for_timeout(300)
                urls = page.eval_on_selector_all(
                    URL_ATTRS, "els => els.map(e => e.getAttribute('href') || "
                               "e.getAttribute('src') || e.getAttribute('action'))")
                shot = out / f"{index:02d}-{(path.strip('/') or 'index').replace('/', '_')}.png"
                page.screenshot(path=str(shot))
                pages.append({"url": target, "status": response.status if response else None,
                              "screenshot": str(shot), "console_errors": errors,
                              "failed_requests": failed,
                              "outside_subpath": outside(base, [u for u in urls if u])})
                page.close()
        finally:
            browser.close()
    return pages


def _console_text(message) -> str:
    where = (message.location or {}).get("url")
    return f"{message.text} ({where})" if where else message.text


def _browser_favicon(message) -> bool:
    """Chromium asks for /favicon.ico by itself; its 404 is the browser's, not the page's."""
    return ((message.location or {}).get("url") or "").endswith("/favicon.ico")


def problems(page: dict) -> list[str]:
    found = [f"console: {e}" for e in page["console_errors"]]
    found += [f"failed request: {r}" for r in page["failed_requests"]]
    found += [f"leaves the sub-path: {u}" for u in page["outside_subpath"]]
    if page["status"] is None or page["status"] >= 400:
        found.append(f"answered {page['status']}")
    return found


@click.command()
@click.argument("url")
@click.option("--path", "paths", multiple=True, help="A page under URL to look at too (repeatable).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("review"),
              show_default=True, help="Folder for the screenshots.")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
def main(url, paths, out, as_json):
    """Screenshot URL (and each --path under it) and report what a review must not miss."""
    pages = look(url, list(paths), out, credentials())
    found = {p["url"]: problems(p) for p in pages}
    if as_json:
        click.echo(json.dumps(pages))
    else:
        for page in pages:
            click.echo(f"{page['url']}  {page['status']}  {page['screenshot']}")
            for line in found[page["url"]]:
                click.echo(f"  {line}")
        total = sum(len(v) for v in found.values())
        click.echo(f"{total} finding(s) on {len(pages)} page(s); now open each screenshot")
    sys.exit(1 if any(found.values()) else 0)


if __name__ == "__main__":
    main()

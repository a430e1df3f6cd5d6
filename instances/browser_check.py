"""The sub-path check in a real browser: load /NAME/ in headless Chromium and look at every
request the page makes, including the ones its scripts make (fetch, modules, workers, wasm),
which no reading of the static HTML finds. Each must stay under /NAME/ and answer < 400."""
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from instances.checks import PROBE_AGENT, Check
from plumbing import chromium

SETTLE_MS = 3000  # after "load", wait at most this long for the network to go quiet
SHOWN = 5


def _outcome(prefix: str, requested: list[str], bad: list[str]) -> Check:
    if bad:
        shown = "; ".join(bad[:SHOWN]) + (f"; and {len(bad) - SHOWN} more" if len(bad) > SHOWN else "")
        return Check("browser-requests", False, shown)
    return Check("browser-requests", True, f"{len(requested)} request(s) the page made in Chromium load under {prefix}")


def _visit(page_url: str, prefix: str, auth, timeout: float) -> Check:
    from playwright.sync_api import sync_playwright

    host = urlsplit(page_url).netloc
    requested, bad = [], []

    def same_host_path(url: str) -> str | None:
        parts = urlsplit(url)
        return parts.path if parts.scheme in ("http", "https") and parts.netloc == host else None

    def on_response(response):
        path = same_host_path(response.url)
        if path is None:
            return
        requested.append(path)
        if not (path + "/").startswith(prefix):
            bad.append(f"{path} is outside {prefix} (does the app's script build URLs from X-Forwarded-Prefix?)")
        elif response.status >= 400:
            bad.append(f"{path} -> {response.status}")

    def on_failed(request):
        path = same_host_path(request.url)
        if path is not None:
            bad.append(f"{path} failed ({request.failure})")

    with sync_playwright() as pw:
        browser = chromium.launch(pw)
        try:
            context = browser.new_context(user_agent=PROBE_AGENT, **(
                {"http_credentials": {"username": auth[0], "password": auth[1]}} if auth else {}))
            page = context.new_page()
            page.on("response", on_response)
            page.on("requestfailed", on_failed)
            try:
                page.goto(page_url, wait_until="load", timeout=timeout * 1000)
            except Exception as exc:  # Playwright's errors: keep their first line
                first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                return Check("browser-requests", False, f"{prefix} did not load in Chromium: {first}")
            try:
                page.wait_for_load_state("networkidle", timeout=SETTLE_MS)
            except Exception:
                pass  # a page that polls never goes idle: what it requested so far is checked
        finally:
            browser.close()
    return _outcome(prefix, requested, bad)


def browser_requests_check(base_url: str, name: str, auth: tuple[str, str] | None, timeout: float = 15.0) -> Check:
    """Load BASE_URL/NAME/ in Chromium; fails naming each request that left /NAME/ or failed.

    Runs in a thread of its own: Playwright's sync API will not start in a thread whose event
    loop is already running (a caller's own Playwright session, a test fixture's)."""
    try:
        chromium.executable()
    except chromium.ChromiumMissing as exc:
        return Check("browser-requests", False, f"{exc}; or set browser_check = false in instances.toml")
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="instances-browser") as pool:
        return pool.submit(_visit, f"{base_url}/{name}/", f"/{name}/", auth, timeout).result()

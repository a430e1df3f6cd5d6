"""Launch Debian's Chromium through Playwright (`playwright install` cannot download here)."""
import os
import shutil

CHROMIUM_CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")
# Flags that keep a closed-network machine from refusing Chromium's background connections.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--disable-quic",
]


def chromium_path() -> str:
    for candidate in (os.environ.get("CHROMIUM"), *CHROMIUM_CANDIDATES, shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise RuntimeError("Chromium not found: install Debian's package with `apt-get install chromium`")


def launch_chromium(playwright, **kwargs):
    return playwright.chromium.launch(
        executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True, **kwargs
    )

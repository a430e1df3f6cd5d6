"""Launch Debian's Chromium through Playwright (`playwright install` cannot download here)."""
from __future__ import annotations

import os
import shutil

from demo.errors import ToolMissing

CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")
# Flags that keep a closed-network machine from refusing Chromium's background connections.
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", "--disable-quic",
    "--hide-scrollbars", "--force-color-profile=srgb",
]


def chromium_path() -> str:
    for candidate in (os.environ.get("CHROMIUM"), *CANDIDATES, shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise ToolMissing("Chromium is not installed: apt-get install chromium (or set CHROMIUM=/path/to/chromium)")


def launch(playwright):
    return playwright.chromium.launch(executable_path=chromium_path(), args=ARGS, headless=True)

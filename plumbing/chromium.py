"""Debian's Chromium for Playwright (`playwright install` cannot download browsers here)."""
from __future__ import annotations

import os
import shutil

from plumbing.errors import NamedError

# The real binary first: /usr/bin/chromium is a wrapper script that starts slower.
CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")
# A closed-network machine refuses Chromium's background connections; these keep it quiet.
FLAGS = (
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
    "--disable-quic",
)


class ChromiumMissing(NamedError):
    """No Chromium binary was found."""


def executable() -> str:
    """The Chromium to launch: $CHROMIUM, Debian's binary, or `chromium` on PATH."""
    for candidate in (os.environ.get("CHROMIUM"), *CANDIDATES, shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise ChromiumMissing("Chromium is not installed: apt-get install chromium "
                          "(or set CHROMIUM=/path/to/chromium)")


def launch(playwright, *extra_flags: str, **kwargs):
    """A headless Chromium browser from a Playwright instance, with FLAGS and EXTRA_FLAGS."""
    return playwright.chromium.launch(executable_path=executable(),
                                      args=[*FLAGS, *extra_flags], headless=True, **kwargs)

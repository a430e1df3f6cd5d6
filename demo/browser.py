"""Debian's Chromium through Playwright (plumbing.chromium), with what a recording adds."""
from __future__ import annotations

from plumbing import chromium

# On top of plumbing.chromium.FLAGS: no scrollbars in the picture, and colours as the page
# specifies them (sRGB), so recordings look the same on every machine.
RECORDING_FLAGS = ("--hide-scrollbars", "--force-color-profile=srgb")


def launch(playwright):
    return chromium.launch(playwright, *RECORDING_FLAGS)

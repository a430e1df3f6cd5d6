"""Debian's Chromium for tests, through plumbing.chromium (one flag list for every tool)."""
from plumbing import chromium


def chromium_path() -> str:
    return chromium.executable()


def launch_chromium(playwright, **kwargs):
    return chromium.launch(playwright, **kwargs)

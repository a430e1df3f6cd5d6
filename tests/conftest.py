"""Fixtures shared by every tool's tests: a real headless Chromium through Playwright."""
import pytest

from tests.support.browser import launch_chromium


@pytest.fixture(scope="session")
def browser():
    """One headless Debian Chromium for the whole session (pages are cheap, browsers are not)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = launch_chromium(pw)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser):
    """A fresh 1280x720 page in its own context, closed after the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()

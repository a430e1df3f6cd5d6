"""Fixtures shared by every tool's tests: a real headless Chromium through Playwright, and the
markers that fixtures starting a real component give every test that uses them."""
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


# A test that uses one of these fixtures needs the component the fixture starts; the other
# tests say what they need with their own markers (pyproject.toml lists them).
FIXTURE_COMPONENTS = {"browser": "chromium", "page": "chromium", "proxied_url": "nginx"}


def pytest_collection_modifyitems(items):
    for item in items:
        for fixture in getattr(item, "fixturenames", ()):
            if fixture in FIXTURE_COMPONENTS:
                item.add_marker(FIXTURE_COMPONENTS[fixture])

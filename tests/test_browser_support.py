"""The shared browser fixture really drives Debian's Chromium."""

import pytest

from tests.support.main_thread import assert_responsive, start_watching, stop_watching


def test_chromium_renders_and_runs_script(page):
    page.set_content("<title>t</title><p id=p>before</p><script>p.textContent='after'</script>")
    assert page.title() == "t"
    assert page.text_content("#p") == "after"
    assert page.viewport_size == {"width": 1280, "height": 720}


def test_the_page_thread_watch_catches_a_blocked_thread(page):
    """tests/support/main_thread.py fails a page whose own thread runs a 300 ms task."""
    page.set_content("<p>x</p>")
    start_watching(page)
    page.evaluate("() => setTimeout(() => { const t = performance.now(); while (performance.now() - t < 300) {} }, 0)")
    page.wait_for_timeout(400)
    seen = stop_watching(page)
    assert max(seen["long"]) >= 300
    with pytest.raises(AssertionError, match="ran a task of"):
        assert_responsive(seen)

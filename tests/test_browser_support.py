"""The shared browser fixture really drives Debian's Chromium."""


def test_chromium_renders_and_runs_script(page):
    page.set_content("<title>t</title><p id=p>before</p><script>p.textContent='after'</script>")
    assert page.title() == "t"
    assert page.text_content("#p") == "after"
    assert page.viewport_size == {"width": 1280, "height": 720}

"""The allow-list sanitizer on the attacks agent-written task HTML can carry."""
import pytest

from pm.web.sanitize import sanitize_html

ATTACKS = [
    ("<p>hi<script>window.pwned = 1</script></p>", "<p>hi</p>"),
    ('<img src="x.png" onerror="window.pwned = 1">', '<img src="x.png">'),
    ('<a href="javascript:window.pwned = 1">go</a>', '<a rel="noopener noreferrer nofollow">go</a>'),
    ('<a href="JaVaScRiPt:alert(1)">go</a>', '<a rel="noopener noreferrer nofollow">go</a>'),
    ('<a href="java&#x09;script:alert(1)">go</a>', '<a rel="noopener noreferrer nofollow">go</a>'),
    ('<iframe src="https://example.org/"></iframe>after', "after"),
    ("<style>body { display: none }</style>after", "after"),
    ('<p style="position:fixed" onclick="x()">t</p>', "<p>t</p>"),
    ('<svg onload="window.pwned = 1"><circle/></svg>', ""),
    ('<form action="https://example.org/"><input name="q"></form>', ""),
    ('<img src="data:image/svg+xml;base64,PHN2Zz4=">', "<img>"),
    ('<object data="x.swf"></object><embed src="x.swf">ok', "ok"),
    ("<!-- hidden --><p>seen</p>", "<p>seen</p>"),
]


@pytest.mark.parametrize("raw,expected", ATTACKS)
def test_dangerous_markup_is_removed(raw, expected):
    assert sanitize_html(raw) == expected


@pytest.mark.parametrize("markup", [
    "<p>A <strong>bold</strong> and <em>quiet</em> claim with <code>pm ls</code>.</p>",
    "<ul><li>one</li><li>two</li></ul>",
    "<pre><code>make test</code></pre>",
    '<table><thead><tr><th scope="col">a</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>',
    "<details><summary>more</summary><p>hidden text</p></details>",
])
def test_ordinary_prose_markup_survives_unchanged(markup):
    assert sanitize_html(markup) == markup


def test_relative_task_links_and_web_links_are_kept_with_safe_rel():
    out = sanitize_html('<a href="413-wizard-validation.html">#413</a> <a href="https://example.org/a">doc</a>')
    assert 'href="413-wizard-validation.html"' in out
    assert 'href="https://example.org/a"' in out
    assert out.count('rel="noopener noreferrer nofollow"') == 2


def test_ids_and_classes_cannot_clash_with_the_page():
    assert sanitize_html('<p id="history" class="topbar">x</p>') == "<p>x</p>"


def test_text_is_escaped_not_interpreted():
    assert sanitize_html("1 < 2 & 3 > 2") == "1 &lt; 2 &amp; 3 &gt; 2"


def test_empty_and_none_give_empty_string():
    assert sanitize_html("") == "" and sanitize_html(None) == ""


def test_root_and_protocol_relative_urls_are_dropped():
    out = sanitize_html('<a href="/etc">a</a><a href="//elsewhere.example/x">b</a><img src="/x.png">')
    assert "href" not in out and "src" not in out

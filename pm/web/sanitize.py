"""Allow-list sanitizing of agent-written task HTML (nh3, i.e. Ammonia), before any browser sees it.

Task sections are written by agents and humans, so they are untrusted input. Only structural and
text-level markup survives; scripts, styles, frames, forms, event handlers, inline styles and
non-web URL schemes are removed. The Content-Security-Policy header is the second wall.
"""
import nh3

ALLOWED_TAGS = frozenset({
    "p", "br", "hr", "h2", "h3", "h4", "h5", "h6", "div", "span", "section", "article",
    "ul", "ol", "li", "dl", "dt", "dd", "blockquote", "pre", "code", "kbd", "samp", "var",
    "em", "strong", "b", "i", "u", "s", "del", "ins", "sub", "sup", "mark", "small", "q",
    "cite", "abbr", "time", "a", "img", "figure", "figcaption", "details", "summary",
    "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption",
})
ALLOWED_ATTRIBUTES = {
    "*": {"title", "lang", "dir"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
    "ol": {"start", "reversed"},
    "time": {"datetime"},
    "abbr": {"title"},
    "q": {"cite"},
    "blockquote": {"cite"},
    "del": {"datetime"},
    "ins": {"datetime"},
}
# Web and mail links only: no javascript:, data:, vbscript: or file: URLs.
ALLOWED_URL_SCHEMES = frozenset({"http", "https", "mailto"})
# Tags whose whole content goes, not just the tag (their text is code, not prose).
DROPPED_WITH_CONTENT = frozenset({"script", "style", "iframe", "object", "embed", "template", "noscript"})


def _relative_url(url: str) -> str | None:
    """Keep page-relative links (task files link to "413-slug.html"); drop "/x" and "//host/x",
    which would leave the tracker (or its /task-x/ sub-path) when served."""
    return None if url.startswith(("/", "\\")) else url


def sanitize_html(html: str) -> str:
    """Return `html` reduced to the allow-list; safe to insert into a page as markup."""
    return nh3.clean(
        html or "",
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(DROPPED_WITH_CONTENT - ALLOWED_TAGS),
        attributes={tag: set(attrs) for tag, attrs in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(ALLOWED_URL_SCHEMES),
        url_relative=_relative_url,
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )

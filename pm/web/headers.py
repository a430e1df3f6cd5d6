"""Security headers sent with every response of the web UI."""

# Server-rendered HTML and CSS; the one script is the UI's own file (board.js, from this
# origin: no inline script, so agent-written markup can never run). Images only from this
# origin or data: URLs, so agent-written <img> tags cannot call out to other hosts; fetch()
# only back to this origin.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    "connect-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
])

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # same-origin, not no-referrer: with no-referrer a form POST carries "Origin: null" and
    # the Origin check (pm.web.guard) could not tell the UI's own pages from another site's.
    "Referrer-Policy": "same-origin",
}


def add_security_headers(response):
    """Flask `after_request` hook: set the headers unless a view set its own."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response

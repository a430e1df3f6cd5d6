"""Security headers sent with every response of the web UI."""

# No script at all: the UI is server-rendered HTML and CSS. Images only from this origin or
# data: URLs, so agent-written <img> tags cannot call out to other hosts.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'none'",
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
    "Referrer-Policy": "no-referrer",
}


def add_security_headers(response):
    """Flask `after_request` hook: set the headers unless a view set its own."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response

"""What keeps the web UI's writes the user's own: the Host check (no DNS rebinding, on every
request), and on every POST the Origin check (no cross-site writes) and a CSRF token.

The token lives in Flask's signed session cookie (SameSite=Strict, HttpOnly) and is repeated
in every form (and in a <meta> tag for the board's script); a POST must carry both, equal.
"""
import hmac
import secrets
from urllib.parse import urlsplit

from flask import abort, current_app, request, session

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
TOKEN_FIELD = "csrf"
TOKEN_HEADER = "X-CSRF-Token"


def csrf_token() -> str:
    """This browser's token (made on first use); templates put it in forms."""
    if TOKEN_FIELD not in session:
        session[TOKEN_FIELD] = secrets.token_urlsafe(32)
    return session[TOKEN_FIELD]


def _hostname(host: str) -> str:
    host = (host or "").strip().lower()
    if host.startswith("["):  # [::1]:8765
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def allowed_hosts() -> set:
    return LOOPBACK | {h.lower() for h in current_app.config.get("PM_ALLOWED_HOSTS", ())}


def check_host() -> None:
    """Refuse a Host header naming another machine: a page of evil.example whose name was
    rebound to 127.0.0.1 would send Host: evil.example. Both the Host the client sent and the
    one a proxy forwarded must be allowed."""
    original = request.environ.get("werkzeug.proxy_fix.orig", {}).get("HTTP_HOST")
    for host in {original, request.host} - {None}:
        if _hostname(host) not in allowed_hosts():
            abort(421, f"this pm serves {', '.join(sorted(allowed_hosts()))}, not {host!r}; "
                       "start pm serve with --allow-host NAME to add a name")


def check_post() -> None:
    """A write must come from one of this UI's own pages: same origin, and the token."""
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        abort(403, "cross-site request refused: edits are only accepted from pm's own pages")
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if source:
        parts = urlsplit(source)
        origin = f"{parts.scheme}://{parts.netloc}".lower()
        if origin != _origin():
            abort(403, f"cross-origin request from {origin} refused: edits are only accepted "
                       f"from pm's own pages ({_origin()})")
    sent = request.form.get(TOKEN_FIELD) or request.headers.get(TOKEN_HEADER) or ""
    expected = session.get(TOKEN_FIELD, "")
    if not expected or not hmac.compare_digest(sent, expected):
        abort(403, "missing or wrong CSRF token: reload the page and submit again")


def _origin() -> str:
    return f"{request.scheme}://{request.host}".lower()


def register(app) -> None:
    if not app.config.get("SECRET_KEY"):  # per process: after a restart, pages just reload
        app.config["SECRET_KEY"] = secrets.token_bytes(32)
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict",
                      SESSION_COOKIE_NAME="pm_session")

    @app.before_request
    def _guard():
        check_host()
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            check_post()

    app.jinja_env.globals.update(csrf_token=csrf_token)

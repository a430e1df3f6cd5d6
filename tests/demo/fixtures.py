"""A local fixture site for demo tests: served on a free 127.0.0.1 port from a thread."""
from __future__ import annotations

import base64
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The first paint is slow twice over: the server answers late, then the page stays hidden
# until a timer reveals it. A click turns the page blue and shows a counter.
SLOW_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>slow</title>
<style>body{margin:0;font:28px sans-serif;background:#fff} main{padding:60px;visibility:hidden}
button{font-size:28px;padding:16px 32px} .on{background:#1f6feb;color:#fff}</style></head>
<body><main id="main"><h1>Fixture</h1><button id="go">Go</button> <input id="name">
<p id="out"></p></main>
<script>
setTimeout(() => { document.getElementById('main').style.visibility = 'visible'; }, 700);
document.getElementById('go').onclick = () => {
  document.body.classList.add('on'); document.getElementById('out').textContent = 'clicked';
};
</script></body></html>"""

# A page whose renderer never gets to paint: the parser runs into an endless script.
HANG_PAGE = """<!doctype html><html><head><title>hang</title></head><body>
<script>while (true) {}</script><p>never shown</p></body></html>"""


# /private answers only with these basic-auth credentials (like a review URL behind nginx).
PRIVATE_AUTH = "Basic " + base64.b64encode(b"reviewer:s3cret-pass").decode()


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's naming
        if self.path.startswith("/private"):
            if self.headers.get("Authorization") != PRIVATE_AUTH:
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="review"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = SLOW_PAGE
        elif self.path.startswith("/slow"):
            time.sleep(0.6)
            body = SLOW_PAGE
        elif self.path.startswith("/hang"):
            body = HANG_PAGE
        else:
            self.send_error(404)
            return
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class LoopbackServer:
    """An HTTP server on a free 127.0.0.1 port, serving from a thread inside `with`."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]):
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


class FixtureSite(LoopbackServer):
    def __init__(self):
        super().__init__(_Handler)

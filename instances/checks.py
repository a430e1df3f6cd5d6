"""Sub-path checks run through nginx after each `up`: the review URL must really work under its
prefix, not just answer on the backend port."""
import base64
import dataclasses
import os
import socket
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import httpx

MAX_ASSETS = 20
# Every request the tool itself sends through nginx says so: `last_request` skips these.
PROBE_AGENT = "soloshop-instances-check"


@dataclasses.dataclass
class Check:
    name: str
    ok: bool
    detail: str = ""


class _AssetParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("src"):
            self.refs.append(attrs["src"])
        elif tag == "link" and attrs.get("href") and "stylesheet" in (attrs.get("rel") or "") + " " + (attrs.get("as") or ""):
            self.refs.append(attrs["href"])
        elif tag == "link" and attrs.get("href") and (attrs.get("rel") or "") in ("icon", "modulepreload", "preload"):
            self.refs.append(attrs["href"])
        elif tag == "img" and attrs.get("src"):
            self.refs.append(attrs["src"])


def asset_refs(html: str) -> list[str]:
    parser = _AssetParser()
    parser.feed(html)
    return parser.refs


def _location_ok(location: str, prefix: str) -> bool:
    path = urlsplit(location).path if location else ""
    return path == prefix or path.startswith(prefix + "/")


@dataclasses.dataclass(frozen=True)
class WsAnswer:
    """What a websocket handshake got: the HTTP status (None: nothing came back) and the
    subprotocol the server chose (Sec-WebSocket-Protocol in its answer)."""
    status: int | None
    protocol: str | None = None


def websocket_handshake(base_url: str, path: str, auth: tuple[str, str] | None, protocols: tuple[str, ...] = (),
                        timeout: float = 5.0) -> WsAnswer:
    """Open a websocket handshake on PATH offering PROTOCOLS (apps such as Vite's HMR answer only
    an upgrade that names theirs); 101 is the expected status."""
    parts = urlsplit(base_url)
    key = base64.b64encode(os.urandom(16)).decode()
    headers = [f"GET {path} HTTP/1.1", f"Host: {parts.netloc}", "Upgrade: websocket", "Connection: Upgrade",
               f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13", f"User-Agent: {PROBE_AGENT}"]
    if protocols:
        headers.append(f"Sec-WebSocket-Protocol: {', '.join(protocols)}")
    if auth:
        token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
        headers.append(f"Authorization: Basic {token}")
    try:
        with socket.create_connection((parts.hostname, parts.port or 80), timeout=timeout) as sock:
            sock.sendall(("\r\n".join(headers) + "\r\n\r\n").encode())
            head = sock.recv(4096).split(b"\r\n\r\n", 1)[0].decode(errors="replace").split("\r\n")
    except OSError:
        return WsAnswer(None)
    try:
        status = int(head[0].split()[1])
    except (IndexError, ValueError):
        return WsAnswer(None)
    chosen = next((line.split(":", 1)[1].strip() for line in head[1:]
                   if line.lower().startswith("sec-websocket-protocol:")), None)
    return WsAnswer(status, chosen)


def websocket_check(base_url: str, path: str, auth, protocols: tuple[str, ...] = (), timeout: float = 5.0) -> Check:
    """The websocket check's verdict, saying which subprotocols it offered and what came back."""
    answer = websocket_handshake(base_url, path, auth, protocols, timeout)
    offered = f"offered subprotocol {', '.join(protocols)}" if protocols else "no subprotocol offered"
    if answer.status is None:
        detail = f"{path} -> no answer within {timeout:g} s ({offered})"
    else:
        detail = f"{path} -> {answer.status} ({offered}"
        detail += f"; server chose {answer.protocol})" if answer.protocol else ")"
    if answer.status != 101 and not protocols:  # Vite does not answer at all without its subprotocol
        detail += "; if the app needs a subprotocol (Vite: vite-hmr), set websocket_protocols in instances.toml"
    return Check("websocket", answer.status == 101, detail)


def loopback_check(exposed: list[str]) -> Check:
    """EXPOSED: the service's listening addresses that are not loopback (see procs.exposed_listeners)."""
    if exposed:
        return Check("loopback-only", False, f"the service also listens on {', '.join(exposed)}: "
                                             "make the command bind 127.0.0.1")
    return Check("loopback-only", True, "the service listens on 127.0.0.1 only")


def subpath_checks(base_url: str, name: str, auth: tuple[str, str] | None = None,
                   websocket: str | None = None, timeout: float = 10.0,
                   websocket_protocols: tuple[str, ...] = ()) -> list[Check]:
    """BASE_URL is nginx's root (http://127.0.0.1:8080); NAME the instance."""
    prefix = f"/{name}"
    results = []
    # verify=False: plain http to loopback only; it spares building a TLS context (~50 ms).
    with httpx.Client(base_url=base_url, auth=auth, timeout=timeout, follow_redirects=False, trust_env=False,
                      verify=False, headers={"User-Agent": PROBE_AGENT}) as client:
        resp = client.get(prefix)
        loc = resp.headers.get("location", "")
        results.append(Check("redirect", resp.status_code in (301, 302, 307, 308) and urlsplit(loc).path == prefix + "/",
                             f"{prefix} -> {resp.status_code} {loc}"))
        url, hops, outside = prefix + "/", 0, []
        resp = client.get(url)
        while resp.status_code in (301, 302, 303, 307, 308) and hops < 5:
            loc = resp.headers.get("location", "")
            if not _location_ok(loc, prefix):
                outside.append(loc)
                break
            url = urljoin(base_url + url, loc)
            resp = client.get(url)
            hops += 1
        results.append(Check("redirects-under-prefix", not outside,
                             f"redirect to {outside[0]} leaves {prefix}/" if outside else f"{hops} redirect(s)"))
        results.append(Check("page", resp.status_code == 200, f"{url} -> {resp.status_code}"))
        if resp.status_code == 200 and "html" in resp.headers.get("content-type", ""):
            page_url = str(resp.url)
            bad = []
            refs = [r for r in asset_refs(resp.text) if not r.startswith(("data:", "//"))]
            local = [urljoin(page_url, r) for r in refs if urlsplit(urljoin(page_url, r)).netloc == urlsplit(base_url).netloc]
            for asset in local[:MAX_ASSETS]:
                path = urlsplit(asset).path
                if not _location_ok(path, prefix):
                    bad.append(f"{path} is outside {prefix}/ (does the app honour X-Forwarded-Prefix?)")
                    continue
                status = client.get(asset).status_code
                if status != 200:
                    bad.append(f"{path} -> {status}")
            results.append(Check("assets", not bad, "; ".join(bad) or f"{min(len(local), MAX_ASSETS)} asset(s) load"))
    if websocket:
        results.append(websocket_check(base_url, prefix + websocket, auth, tuple(websocket_protocols)))
    return results

"""Cheap HTTP probes of loopback services with the standard library.

Probes run in tight loops (reload verification, health waits, `ls` over many instances); one
`httpx.get` costs ~50-85 ms of CPU building a TLS context it never uses here, http.client ~0.3 ms.
"""
import http.client
from urllib.parse import urlsplit


def get(url: str, timeout: float = 1.0) -> tuple[int, str] | None:
    """(status, body) of a plain-http GET on a new connection, or None when nothing answers."""
    parts = urlsplit(url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    conn = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Connection": "close"})
        resp = conn.getresponse()
        return resp.status, resp.read(65536).decode(errors="replace")
    except (OSError, http.client.HTTPException):
        return None
    finally:
        conn.close()


def status(url: str, timeout: float = 1.0) -> int | None:
    answer = get(url, timeout)
    return answer[0] if answer else None

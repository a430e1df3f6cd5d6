"""Ports on this machine: a free one to bind, and waiting until a server listens on one."""
from __future__ import annotations

import socket
import subprocess
import time

from plumbing.errors import NamedError

LOCALHOST = "127.0.0.1"


class PortTimeout(NamedError):
    """Nothing listened on the port within the wait (or the process meant to serve it exited)."""


def free_port(host: str = LOCALHOST) -> int:
    """A port nothing is bound to right now (the kernel's pick; another process may take it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def port_is_free(port: int, host: str = LOCALHOST) -> bool:
    """Whether PORT can be bound on HOST at this moment."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


def is_listening(port: int, host: str = LOCALHOST, timeout: float = 0.2) -> bool:
    """Whether a TCP connection to HOST:PORT is accepted now."""
    try:
        socket.create_connection((host, port), timeout=timeout).close()
        return True
    except OSError:
        return False


def wait_for_port(port: int, host: str = LOCALHOST, timeout: float = 10.0,
                  process: subprocess.Popen | None = None) -> float:
    """Wait until HOST:PORT accepts connections; returns the seconds it took.

    PortTimeout after TIMEOUT seconds, or as soon as PROCESS (the server, if given) exits."""
    start = time.monotonic()
    delay = 0.01
    while True:
        if is_listening(port, host):
            return time.monotonic() - start
        if process is not None and process.poll() is not None:
            raise PortTimeout(f"{host}:{port}: the server exited with code {process.returncode} "
                              "before it listened; read its log")
        if time.monotonic() - start >= timeout:
            raise PortTimeout(f"nothing listened on {host}:{port} within {timeout:g}s; "
                              "is the server starting, and on that port?")
        time.sleep(delay)
        delay = min(delay * 2, 0.1)

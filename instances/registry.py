"""The registry: one JSON file listing every instance, changed only under an fcntl lock.

Every change is read-modify-write inside ``Registry.transaction()``: the lock is taken, the file
is read, the caller edits the dict, and the file is replaced atomically (temp file + rename), so
readers never see half a file and concurrent `instances up` never lease the same port.
"""
import contextlib
import fcntl
import json
import os
import socket
import tempfile
from pathlib import Path

from instances.errors import InstancesError

VERSION = 1


def atomic_write(path: Path, text: str, mode: int = 0o644, durable: bool = True) -> None:
    """Replace PATH with TEXT so readers see the old or the new file, never half of one.

    DURABLE fsyncs before the rename; files that are regenerated from the registry anyway
    (nginx candidates) skip it, which matters when the disk is busy."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def file_lock(path: Path):
    """An exclusive fcntl lock on PATH, released on every exit path (and by the kernel on crash)."""
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


def _os_free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Registry:
    """State under DIR: registry.json (instances), registry.lock, and per-purpose lock files."""

    def __init__(self, state_dir: Path):
        self.dir = Path(state_dir)
        self.path = self.dir / "registry.json"
        self.lock_path = self.dir / "registry.lock"

    def ensure(self):
        self.dir.mkdir(parents=True, exist_ok=True)

    def _read(self) -> dict:
        try:
            data = json.loads(self.path.read_text())
        except FileNotFoundError:
            return {"version": VERSION, "instances": {}, "generation": 0}
        except json.JSONDecodeError as exc:
            raise InstancesError(f"{self.path} is not valid JSON ({exc}); fix or remove it, then run `instances doctor`") from None
        data.setdefault("instances", {})
        data.setdefault("generation", 0)
        return data

    def load(self) -> dict:
        """A snapshot for reading (no lock: the file is only ever replaced whole)."""
        return self._read()

    @contextlib.contextmanager
    def transaction(self):
        self.ensure()
        with file_lock(self.lock_path):
            data = self._read()
            yield data
            atomic_write(self.path, json.dumps(data, indent=1, sort_keys=True) + "\n")

    def lock(self, purpose: str):
        """A named lock beside the registry (e.g. 'nginx' serialises config applies)."""
        self.ensure()
        return file_lock(self.dir / f"{purpose}.lock")

    def instances(self) -> dict:
        return self.load()["instances"]

    def get(self, name: str) -> dict | None:
        return self.instances().get(name)


def lease_port(data: dict, exclude: set[int] = frozenset(), attempts: int = 50) -> int:
    """A port no instance in DATA holds and nothing on this machine is bound to right now.

    Call inside Registry.transaction(): the caller records the port before the lock is released.
    """
    taken = {rec.get("port") for rec in data["instances"].values()} | set(exclude)
    for _ in range(attempts):
        port = _os_free_port()
        if port not in taken and port_is_free(port):
            return port
    raise InstancesError("could not find a free port on 127.0.0.1 after 50 tries")

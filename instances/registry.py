"""The registry: one JSON file listing every instance, changed only under a file lock.

Every change is read-modify-write inside ``Registry.transaction()``: the lock is taken, the file
is read, the caller edits the dict, and the file is replaced atomically (plumbing.files), so
readers never see half a file and concurrent `instances up` never lease the same port.

Locks (plumbing.lock: the kernel drops them when a holder dies, a waiter gives up after a
bounded wait and names the holder):
    registry  60 s   held for a read-modify-write; doctor may stop a few dead services inside
    nginx    300 s   one config apply (nginx -t, reload, verification up to 15 s, rollback);
                     many concurrent `up`s queue here one apply after another
    git      120 s   `git worktree add/remove` on the app's repository
"""
import contextlib
import json
import sys
from pathlib import Path

from instances.errors import InstancesError
from plumbing.files import atomic_write
from plumbing.lock import locked
from plumbing.ports import free_port, port_is_free

VERSION = 1
LOCK_TIMEOUTS = {"registry": 60.0, "nginx": 300.0, "git": 120.0}
DEFAULT_LOCK_TIMEOUT = 120.0  # a purpose not listed above
_LOCK_FIXES = {
    "registry": "another `instances` command is changing the registry; wait for it, or stop that process if it hangs",
    "nginx": "another `instances` command is applying an nginx configuration; wait for it, or stop that "
             "process if it hangs, then run `instances nginx sync`",
    "git": "another `instances` command is adding or removing a worktree; wait for it, or stop that process if it hangs",
}


def _holder() -> str:
    """Who takes a lock: the command line of this process, e.g. 'instances up 412'."""
    words = [Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python", *sys.argv[1:3]]
    return " ".join(w for w in words if w)


class Registry:
    """State under DIR: registry.json (instances), registry.lock, and per-purpose lock files.

    LOCK_TIMEOUTS maps a purpose ("registry", "nginx", "git") to its bounded wait in seconds."""

    def __init__(self, state_dir: Path, lock_timeouts: dict[str, float] | None = None):
        self.dir = Path(state_dir)
        self.path = self.dir / "registry.json"
        self.lock_path = self.dir / "registry.lock"
        self.lock_timeouts = {**LOCK_TIMEOUTS, **(lock_timeouts or {})}

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
        with self.lock("registry"):
            data = self._read()
            yield data
            atomic_write(self.path, json.dumps(data, indent=1, sort_keys=True) + "\n", mode=0o644)

    def lock(self, purpose: str):
        """A named lock beside the registry ('registry' guards registry.json, 'nginx'
        serialises config applies, 'git' worktree changes), with a bounded wait."""
        self.ensure()
        path = self.lock_path if purpose == "registry" else self.dir / f"{purpose}.lock"
        return locked(path, holder=_holder(), timeout=self.lock_timeouts.get(purpose, DEFAULT_LOCK_TIMEOUT),
                      what=f"the instances {purpose} lock",
                      fix=_LOCK_FIXES.get(purpose, "wait for the other `instances` command and try again"))

    def instances(self) -> dict:
        return self.load()["instances"]

    def get(self, name: str) -> dict | None:
        return self.instances().get(name)


def lease_port(data: dict, exclude: set[int] = frozenset(), attempts: int = 50) -> int:
    """A port no instance in DATA holds and nothing on this machine is bound to right now.

    Call inside Registry.transaction(): the caller records the port before the lock is released.
    """
    taken = {rec.get("port") for rec in data["instances"].values()} | {data.get("dashboard_port")} | set(exclude)
    for _ in range(attempts):
        port = free_port()
        if port not in taken and port_is_free(port):
            return port
    raise InstancesError(f"could not find a free port on 127.0.0.1 after {attempts} tries")


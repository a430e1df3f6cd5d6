"""Run a skill's shell blocks the way an agent following it would: in order, in one scratch
world (tracker, repo, instance), each block a bash -e -o pipefail script whose variables carry
over to the next block (as they would in the agent's shell)."""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pm.model import Actor
from pm.tracker import Tracker

VENV_BIN = str(Path(sys.executable).parent)
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}


@dataclass
class World:
    """A scratch tracker in root/tracker, a home, a working folder, and the shell's env."""
    root: Path
    env: dict = field(default_factory=dict)
    cwd: Path | None = None

    @property
    def tracker_dir(self) -> Path:
        return self.root / "tracker"

    def tracker(self, role="human", session="test") -> Tracker:
        return Tracker(str(self.tracker_dir), Actor(role, session))


def make_world(root: Path) -> World:
    home, work = root / "home", root / "work"
    home.mkdir()
    work.mkdir()
    env = {"PATH": VENV_BIN + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
           "HOME": str(home), "LANG": "C.UTF-8", "PM_DIR": str(root / "tracker"),
           "PM_ROLE": "worker", "PM_SESSION": "eng-1", "TMPDIR": str(root), **GIT_ENV}
    for keep in ("SOLOSHOP_PARITY_SCALE", "CHROMIUM"):
        if keep in os.environ:
            env[keep] = os.environ[keep]
    Tracker.init(str(root / "tracker"), Actor("human", "setup"))
    return World(root, env, work)


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str


def run_block(world: World, text: str, timeout: float = 600) -> Ran:
    """Run TEXT in bash in WORLD; exported variables it sets join world.env afterwards."""
    dump = world.root / ".env-after"
    script = f"set -a\n{text}\nenv -0 > {dump}\n"
    proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=world.cwd,
                          env=world.env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    if proc.returncode == 0 and dump.exists():
        pairs = (item.split("=", 1) for item in dump.read_text().split("\0") if "=" in item)
        new = dict(pairs)
        for noise in ("PWD", "OLDPWD", "SHLVL", "_"):
            new.pop(noise, None)
        world.env = new
        dump.unlink()
    return Ran(proc.returncode, proc.stdout, proc.stderr)

"""git through argv lists (never a shell), its failures as one named error with git's words."""
from __future__ import annotations

import os
import subprocess

from plumbing.errors import NamedError


class GitError(NamedError):
    """A git command failed; the message carries the command, the directory and git's stderr."""


# Work git never needs to do for a tool's own commands; looseCompression=1 is faster zlib for
# loose objects (a 1.5 MB overview hashed on every change: 3x faster than the default level).
QUIET = ("-c", "core.fsmonitor=false", "-c", "gc.auto=0", "-c", "maintenance.auto=false",
         "-c", "core.looseCompression=1")


def run(cwd: str | os.PathLike, *args: str, input: str | None = None,
        env: dict[str, str] | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """Run `git ARGS` in CWD (text in and out); GitError when it fails and CHECK is set.

    ENV adds to (does not replace) the environment."""
    full_env = {**os.environ, **env} if env else None
    proc = subprocess.run(["git", *QUIET, *args], cwd=cwd, input=input, env=full_env,
                          capture_output=True, text=True)
    if check and proc.returncode != 0:
        said = (proc.stderr or proc.stdout).strip()
        raise GitError(f"git {' '.join(args[:3])} failed in {cwd}: {said}")
    return proc


def out(cwd: str | os.PathLike, *args: str, **kwargs) -> str:
    """stdout of `git ARGS` in CWD, stripped."""
    return run(cwd, *args, **kwargs).stdout.strip()

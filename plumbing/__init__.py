"""What every soloshop tool needs once, each idea written a single time.

- `plumbing.files`: atomic writes (old or new content, never a mix or nothing).
- `plumbing.lock`: an exclusive file lock with a bounded, fair wait that names its holder.
- `plumbing.git`: git through argv lists, failures as a named error with git's own words.
- `plumbing.ports`: free ports on 127.0.0.1 and waiting for a server to listen.
- `plumbing.wsgi`: a WSGI app served by waitress in a thread that stops cleanly.
- `plumbing.cli`: click groups that turn named errors into one-line messages (exit 1) and
  import their commands lazily.
- `plumbing.chromium`: Debian's Chromium for Playwright, with the flags this machine needs.
- `plumbing.errors`: `NamedError`, the base of every tool's errors.

Nothing here knows about pm, instances, demo or the engines; they all build on it.
"""

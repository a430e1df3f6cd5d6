"""The listing cache: one summary per task file, kept in .git/pm/cache.pickle and keyed by
each file's (mtime_ns, size, inode). Only files whose key changed are read again, so
`pm ls` over 10,000 tasks reads ~nothing but a directory listing and 10,000 stats. The cache
lives inside .git: it is never tracked, each clone builds its own, and deleting it is safe."""
from __future__ import annotations

import os

from pm.taskfile import summary

_VERSION = 2  # 2: summaries carry labels


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace", newline="") as fh:
        return fh.read()


def load(tasks_dir: str, cache_path: str) -> dict[str, tuple | None]:
    """{file name: summary tuple, or None when the file is not a well-formed task}."""
    import pickle  # lazy: pm show never lists
    try:
        with open(cache_path, "rb") as fh:
            version, cached = pickle.load(fh)
        if version != _VERSION:
            cached = {}
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError):
        cached = {}
    fresh: dict[str, tuple] = {}
    changed = False
    with os.scandir(tasks_dir) as entries:
        for entry in entries:
            name = entry.name
            if not name.endswith(".html") or name.startswith("."):
                continue
            try:
                st = entry.stat()
            except FileNotFoundError:
                continue
            key = (st.st_mtime_ns, st.st_size, st.st_ino)
            hit = cached.get(name)
            if hit is not None and hit[0] == key:
                fresh[name] = hit
                continue
            try:
                fresh[name] = (key, summary(_read_text(entry.path)))
            except FileNotFoundError:
                continue
            changed = True
    if changed or len(fresh) != len(cached):
        _save(cache_path, fresh)
    return {name: value[1] for name, value in fresh.items()}


def _save(cache_path: str, data: dict) -> None:
    import pickle

    from plumbing.files import atomic_write  # a unique temp name per writer: the web UI
    try:                                     # lists from several threads at once
        atomic_write(cache_path, pickle.dumps((_VERSION, data), protocol=pickle.HIGHEST_PROTOCOL),
                     durable=False)  # a cache: rebuilt from the task files if lost
    except OSError:  # a read-only tracker still lists, just without a warm cache
        pass

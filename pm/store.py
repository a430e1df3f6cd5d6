"""The listing cache, in .git/pm (never tracked; each clone builds its own; deleting it is safe).

    summaries.pickle one summary per task file, keyed by the file's (mtime_ns, size, inode):
                     only files whose key changed are read again
    listing.marshal  every task's Summary (pm.model) in id order with its `pm ls` line, and
                     the tasks folder's own (mtime_ns, inode, size) when it was made

Up to FULL_CHECK_LIMIT task files, every listing stats every file (10,000 stats: ~20 ms), so
a file edited in place is seen at once. Above it, stat-ing each file would cost more than the
whole listing may (100,000 stats: ~190 ms here), so the listing is trusted while the folder is
unchanged: every pm write, git checkout, merge and pull, and editors that save by replacing
the file change the folder. A file rewritten in place (same inode) by another program is seen
after the next change in tasks/, or at once with PM_CHECK_EVERY_FILE=1. A listing made less
than RACY_NS after the folder last changed is not trusted (a later change could carry the
same coarse timestamp), as git treats its "racily clean" index entries.
"""
from __future__ import annotations

import os
import time
from typing import NamedTuple

from pm.layout import is_sharded, shard_dirs
from pm.model import Summary, summaries_of
from pm.taskfile import summary

_VERSION = 5  # 5: summaries with labels and pm ls lines; pm ready's order
FULL_CHECK_LIMIT = 20_000
RACY_NS = 2_000_000_000


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace", newline="") as fh:
        return fh.read()


def _folder_stamp(tasks_dir: str) -> tuple:
    st = os.stat(tasks_dir)
    return (st.st_mtime_ns, st.st_ino, st.st_size)


class Listing(NamedTuple):
    rows: list  # every well-formed task as a Summary, by id
    malformed: list  # names of files that are not well-formed tasks (lint names the fault)
    ready: list | None  # pm ready's rows in work order, when the listing file holds them


def load(tasks_dir: str, cache_path: str, listing_path: str, ready: bool = True) -> Listing:
    """The tasks as the listing cache holds them (see the module's docstring); READY=False
    when pm ready's order is not wanted (a sharded tracker then leaves it None)."""
    import marshal  # lazy: pm show never lists
    if is_sharded(os.path.dirname(tasks_dir)):  # the marker, not a listing of 100,000 names
        return _load_sharded(tasks_dir, shard_dirs(tasks_dir), cache_path, listing_path, ready)
    stamp = _folder_stamp(tasks_dir)
    started = time.time_ns()
    if os.environ.get("PM_CHECK_EVERY_FILE") != "1":
        try:
            with open(listing_path, "rb") as fh:  # loads(read()): marshal.load(fh) reads
                data = fh.read()                     # in small pieces, 7x slower here
            version, made_for, racy, count, rows, malformed, ready = marshal.loads(data)
            if version == _VERSION and made_for == stamp and not racy and count > FULL_CHECK_LIMIT:
                rows = summaries_of(rows)
                if ready is None:  # a pm write patched the rows (note_writes): order them once
                    ready = _save_listing(listing_path, stamp, False, count, rows, malformed)
                return Listing(rows, malformed, [rows[i] for i in ready])
        except (OSError, EOFError, ValueError, TypeError):
            pass
    entries = _refresh(tasks_dir, cache_path)
    rows = sorted((Summary(*s, f"tasks/{name}", text) for name, (_key, s, text) in entries.items() if s),
                  key=_by_id)
    malformed = sorted(name for name, (_key, s, _text) in entries.items() if s is None)
    if len(entries) <= FULL_CHECK_LIMIT:
        return Listing(rows, malformed, None)
    ready = _save_listing(listing_path, stamp, started - stamp[0] < RACY_NS, len(entries), rows,
                          malformed)
    return Listing(rows, malformed, [rows[i] for i in ready])


def _save_listing(listing_path: str, stamp: tuple, racy: bool, count: int, rows: list,
                  malformed: list) -> list[int]:
    """Write the listing file; pm ready's order (positions in ROWS). pm ready's answer is a
    pure function of the rows: kept with them, it costs one analysis per change of the
    folder instead of one per call."""
    import marshal

    from plumbing.files import atomic_write

    from pm.graph import analyse
    position = {id(row): i for i, row in enumerate(rows)}
    ready = [position[id(row)] for row in analyse(rows)[0]]
    data = marshal.dumps((_VERSION, stamp, racy, count, [tuple(r) for r in rows], malformed, ready))
    try:
        atomic_write(listing_path, data, durable=False)
    except OSError:  # a read-only tracker still lists
        pass
    return ready


def folder_stamp(tasks_dir: str) -> tuple:
    """The tasks folder's state as a listing records it (a unit of work notes it first)."""
    return _folder_stamp(tasks_dir)


def note_writes(tasks_dir: str, listing_path: str, before: tuple, names: list[str]) -> None:
    """After a pm change that wrote task files NAMES under the lock: if the listing file was
    made for the folder as it was before (BEFORE), patch those rows and record the folder as
    it is now, so the next listing need not stat every file. pm ready's order is made again
    by the next listing that needs it."""
    import marshal
    from bisect import insort

    from plumbing.files import atomic_write
    from pm.output import line
    try:
        with open(listing_path, "rb") as fh:
            data = fh.read()
        version, made_for, racy, count, rows, malformed, _ready = marshal.loads(data)
    except (OSError, EOFError, ValueError, TypeError):
        return
    if version != _VERSION or made_for != before or racy:
        return
    gone = {f"tasks/{n}" for n in names}
    kept = [r for r in rows if r[11] not in gone]
    malformed = [m for m in malformed if m not in names]
    for name in names:
        try:
            s = summary(_read_text(os.path.join(tasks_dir, name)))
        except FileNotFoundError:
            continue
        if s is None:
            malformed.append(name)
            continue
        path = f"tasks/{name}"
        insort(kept, (*s, path, line(Summary(*s, path, ""))), key=lambda r: r[0])
    count = len(kept) + len(malformed)
    data = marshal.dumps((_VERSION, _folder_stamp(tasks_dir), False, count, kept, sorted(malformed), None))
    try:
        atomic_write(listing_path, data, durable=False)
    except OSError:
        pass


def shard_listing_dir(listing_path: str) -> str:
    return os.path.join(os.path.dirname(listing_path), "shards")


def _load_sharded(tasks_dir: str, shards: list[str], cache_path: str, listing_path: str,
                  want_ready: bool) -> Listing:
    """A sharded tracker's listing: one listing file per folder of a thousand, trusted
    while that folder is unchanged (a pm change rewrites one folder, so the next listing
    reads a thousand files again, not 100,000), unless the tracker is small enough for
    every file to be checked. Loose task files in tasks/ itself (lint faults there) are read
    every time."""
    import marshal
    stamps = {shard: _folder_stamp(os.path.join(tasks_dir, shard)) for shard in shards}
    # Up to FULL_CHECK_LIMIT task numbers (a folder holds at most a thousand), every file.
    check_all = os.environ.get("PM_CHECK_EVERY_FILE") == "1" or len(shards) * 1000 <= FULL_CHECK_LIMIT
    if check_all:
        entries = _refresh(tasks_dir, cache_path, shards)
        rows = sorted((Summary(*s, f"tasks/{name}", text) for name, (_key, s, text) in entries.items() if s),
                      key=_by_id)
        malformed = sorted(name for name, (_key, s, _text) in entries.items() if s is None)
        return Listing(rows, malformed, None)
    folder = shard_listing_dir(listing_path)
    rows, malformed = [], []
    started = time.time_ns()
    for shard in shards:
        path = os.path.join(folder, f"{shard}.marshal")
        stamp = stamps[shard]
        try:
            with open(path, "rb") as fh:
                version, made_for, racy, part, bad = marshal.loads(fh.read())
            if version == _VERSION and made_for == stamp and not racy:
                rows += part
                malformed += bad
                continue
        except (OSError, EOFError, ValueError, TypeError):
            pass
        part, bad = _read_folder(tasks_dir, shard)
        _write_quietly(path, marshal.dumps((_VERSION, stamp, started - stamp[0] < RACY_NS, part, bad)))
        rows += part
        malformed += bad
    loose, bad = _read_folder(tasks_dir, "")
    if loose:
        rows = sorted(rows + loose, key=lambda r: r[0])
    rows = summaries_of(rows)
    malformed = sorted(malformed + bad)
    if not want_ready:
        return Listing(rows, malformed, None)
    return Listing(rows, malformed, [rows[i] for i in _ready_order(folder, stamps, rows)])


def _ready_order(folder: str, stamps: dict, rows: list) -> list[int]:
    """pm ready's order (positions in ROWS), kept while no folder changed."""
    import marshal

    from pm.graph import analyse
    path = os.path.join(folder, "ready.marshal")
    key = sorted(stamps.items())
    try:
        with open(path, "rb") as fh:
            version, made_for, order = marshal.loads(fh.read())
        if version == _VERSION and made_for == key:
            return order
    except (OSError, EOFError, ValueError, TypeError):
        pass
    position = {id(row): i for i, row in enumerate(rows)}
    order = [position[id(row)] for row in analyse(rows)[0]]
    _write_quietly(path, marshal.dumps((_VERSION, key, order)))
    return order


def _read_folder(tasks_dir: str, shard: str) -> tuple[list, list]:
    """(rows as tuples in id order, malformed names) of the task files in tasks/SHARD."""
    from pm.output import line
    rows, malformed = [], []
    folder = os.path.join(tasks_dir, shard)
    prefix = f"{shard}/" if shard else ""
    for name in os.listdir(folder):
        if not name.endswith(".html") or name.startswith("."):
            continue
        try:
            s = summary(_read_text(os.path.join(folder, name)))
        except (FileNotFoundError, IsADirectoryError):
            continue
        if s is None:
            malformed.append(prefix + name)
            continue
        path = f"tasks/{prefix}{name}"
        rows.append((*s, path, line(Summary(*s, path, ""))))
    rows.sort(key=lambda r: r[0])
    return rows, malformed


def folder_rows(tasks_dir: str, shard: str) -> list[Summary]:
    """The well-formed tasks of tasks/SHARD as Summaries, by id (read from the files)."""
    return summaries_of(_read_folder(tasks_dir, shard)[0])


def _write_quietly(path: str, data: bytes) -> None:
    from plumbing.files import atomic_write
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic_write(path, data, durable=False)  # a cache: rebuilt from the task files if lost
    except OSError:  # a read-only tracker still lists
        pass


def _by_id(row: Summary) -> int:
    return row.id


def _entry(key: tuple, name: str, text: str) -> tuple:
    """(key, summary tuple or None, the task's pm ls line): the line is made once per change."""
    from pm.output import line
    s = summary(text)
    return (key, s, line(Summary(*s, f"tasks/{name}", "")) if s else "")


def _refresh(tasks_dir: str, cache_path: str, shards: list[str] = ()) -> dict[str, tuple]:
    """{name: (key, summary tuple or None, line)}, reading only files whose key changed (in
    tasks/ and in the SHARDS folders)."""
    import pickle
    try:
        with open(cache_path, "rb") as fh:
            version, cached = pickle.load(fh)
        if version != _VERSION:
            cached = {}
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError):
        cached = {}
    fresh: dict[str, tuple] = {}
    changed = False
    for shard in ("", *shards):
        prefix = f"{shard}/" if shard else ""
        with os.scandir(os.path.join(tasks_dir, shard)) as entries:
            for entry in entries:
                name = entry.name
                if not name.endswith(".html") or name.startswith("."):
                    continue
                name = prefix + name
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
                    fresh[name] = _entry(key, name, _read_text(entry.path))
                except (FileNotFoundError, IsADirectoryError):
                    continue
                changed = True
    if changed or len(fresh) != len(cached):
        _save(cache_path, fresh)
    return fresh


def _save(cache_path: str, data: dict) -> None:
    import pickle

    from plumbing.files import atomic_write  # a unique temp name per writer: the web UI
    try:                                     # lists from several threads at once
        atomic_write(cache_path, pickle.dumps((_VERSION, data), protocol=pickle.HIGHEST_PROTOCOL),
                     durable=False)  # a cache: rebuilt from the task files if lost
    except OSError:  # a read-only tracker still lists, just without a warm cache
        pass

"""Atomic file writes: a reader, or a machine after a power cut, sees the old content or the
new, never a mix, never an empty file, and a failed write leaves nothing behind.

The recipe, once: a temp file made with mkstemp in the target's directory (same file system,
a name no other thread or process can pick), written and fsynced, given the mode, renamed over
the target, then the directory fsynced so the rename itself is on disk.
"""
from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Iterator

StrPath = str | os.PathLike


def atomic_write(path: StrPath, data: str | bytes, *, mode: int | None = None,
                 durable: bool = True) -> None:
    """Replace PATH with DATA (str is written as UTF-8, newlines untouched).

    MODE defaults to the mode PATH has now, or to what a plain open() would give a new file.
    DURABLE=False skips the fsyncs, for files that are regenerated anyway (caches)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_output(path, mode=mode, durable=durable) as tmp:
        fd = os.open(tmp, os.O_WRONLY)
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)


@contextlib.contextmanager
def atomic_output(path: StrPath, *, mode: int | None = None, durable: bool = True,
                  suffix: str = ".tmp") -> Iterator[Path]:
    """Yield an empty temp file beside PATH for a writer (often another program, ffmpeg say)
    to fill; when the block ends cleanly it is fsynced and replaces PATH, on any failure it
    is removed.

    SUFFIX lets a program that picks its format by extension see the right one (".mp4")."""
    target = Path(path)
    final_mode = _mode_for(target, mode)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=suffix)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, final_mode)
        if durable:
            _fsync_path(tmp)
        replace(tmp, target, durable=durable)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def replace(src: StrPath, dst: StrPath, *, durable: bool = True) -> None:
    """Rename SRC over DST (same file system) and, if DURABLE, make the rename itself durable."""
    os.replace(src, dst)
    if durable:
        fsync_dir(os.path.dirname(os.path.abspath(dst)))


def create_exclusive(path: StrPath, data: str | bytes, *, mode: int | None = None,
                     durable: bool = True) -> None:
    """Write a new file whole, then link it into place; FileExistsError if PATH exists.

    Unlike O_EXCL on the final name, a reader never sees the new file half-written.
    DURABLE=False skips the fsyncs (a caller that syncs many files at once)."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".new")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.chmod(tmp, _mode_for(target, mode))
        os.link(tmp, target)
        if durable:
            fsync_dir(target.parent)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def fsync_dir(directory: StrPath) -> None:
    """fsync a directory, so names created, renamed or removed in it survive a power cut."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_path(path: StrPath) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _mode_for(target: Path, mode: int | None) -> int:
    if mode is not None:
        return mode
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        return 0o666 & ~_UMASK


# os.umask can only be read by setting it: read it once, at import, before threads write files.
_UMASK = os.umask(0o022)
os.umask(_UMASK)


def append_line(path: StrPath, line: str, *, durable: bool = True) -> None:
    """Append LINE (a newline is added if missing) to PATH in one write(2) on an O_APPEND
    descriptor, then fsync: a journal whose readers see whole lines, and after a kill or a
    power cut at most a torn last line (which `read_lines` leaves out).

    Creates PATH if needed (and fsyncs its directory then, so the new name is durable too)."""
    payload = (line if line.endswith("\n") else line + "\n").encode("utf-8")
    created = not os.path.exists(path)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        written = os.write(fd, payload)
        if written != len(payload):  # a short write (disk full): finish it, or fail loudly
            view = memoryview(payload)[written:]
            while view:
                view = view[os.write(fd, view):]
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)
    if created and durable:
        fsync_dir(os.path.dirname(os.path.abspath(path)))


def read_lines(path: StrPath, *, repair: bool = False) -> list[str]:
    """The complete lines of a file written by `append_line` (without their newlines); a torn
    last line (no newline: the writer was killed mid-write) is left out, and with REPAIR cut
    off the file so that the next append starts a fresh line."""
    with open(path, "rb") as fh:
        data = fh.read()
    end = data.rfind(b"\n") + 1
    if repair and end < len(data):
        with open(path, "r+b") as fh:
            fh.truncate(end)
            fh.flush()
            os.fsync(fh.fileno())
    return data[:end].decode("utf-8").splitlines()


def read_json_lines(path: StrPath, error: type[Exception], hint: str, *,
                    repair: bool = False) -> list:
    """The values of a file of JSON lines (as `append_line` writes them; a torn last line is
    left out, and with REPAIR cut off). A line that is not JSON raises ERROR naming the file,
    the line and HINT (how to make a good one)."""
    out = []
    for number, line in enumerate(read_lines(path, repair=repair), start=1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise error(f"{path}:{number} is not a JSON line ({exc.msg}): {hint}") from None
    return out

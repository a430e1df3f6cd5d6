"""plumbing.files: every write is all or nothing, even when writers are killed mid-write."""
import hashlib
import os
import random
import signal
import stat
import subprocess
import sys
import threading
import time

import pytest

from plumbing import files
from plumbing.files import atomic_output, atomic_write, create_exclusive


def test_atomic_write_replaces_text_and_bytes(tmp_path):
    path = tmp_path / "a.txt"
    atomic_write(path, "héllo\r\n")
    assert path.read_bytes() == "héllo\r\n".encode()
    atomic_write(path, b"\x00\x01")
    assert path.read_bytes() == b"\x00\x01"
    assert os.listdir(tmp_path) == ["a.txt"]


def test_mode_is_kept_and_new_files_follow_the_umask(tmp_path):
    path = tmp_path / "script.sh"
    path.write_text("old")
    path.chmod(0o750)
    atomic_write(path, "new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o750
    fresh = tmp_path / "fresh"
    atomic_write(fresh, "x")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~files._UMASK
    atomic_write(fresh, "y", mode=0o600)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path):
    path = tmp_path / "keep.json"
    path.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_output(path) as tmp:
            tmp.write_text("half")
            raise RuntimeError("the writer failed")
    assert path.read_text() == "old"
    assert os.listdir(tmp_path) == ["keep.json"]
    with pytest.raises(TypeError):
        atomic_write(path, 42)  # not str or bytes
    assert os.listdir(tmp_path) == ["keep.json"]


def test_atomic_output_gives_the_suffix_a_program_needs(tmp_path):
    target = tmp_path / "video.mp4"
    with atomic_output(target, suffix=".mp4") as tmp:
        assert tmp.parent == tmp_path and tmp.suffix == ".mp4"
        tmp.write_bytes(b"mp4")
    assert target.read_bytes() == b"mp4"


def test_durable_writes_fsync_the_file_and_the_directory(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real(fd)))
    atomic_write(tmp_path / "d", "x")
    assert any(p.startswith(str(tmp_path / ".d.")) for p in synced)  # the temp file, before the rename
    assert str(tmp_path) in synced                                  # the directory, after it
    synced.clear()
    atomic_write(tmp_path / "cache", "x", durable=False)
    assert synced == []


def test_create_exclusive_never_overwrites(tmp_path):
    path = tmp_path / "1-task.html"
    create_exclusive(path, "first")
    with pytest.raises(FileExistsError):
        create_exclusive(path, "second")
    assert path.read_text() == "first"
    assert os.listdir(tmp_path) == ["1-task.html"]


def test_threads_of_one_process_never_collide_on_temp_names(tmp_path):
    path = tmp_path / "shared.txt"
    errors = []

    def writer(n):
        try:
            for i in range(50):
                atomic_write(path, f"{n}:{i}\n" * 100, durable=False)
        except Exception as exc:  # noqa: BLE001 - collected for the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    lines = path.read_text().splitlines()
    assert len(lines) == 100 and len(set(lines)) == 1
    assert os.listdir(tmp_path) == ["shared.txt"]


WRITER = r"""
import hashlib, os, sys
from plumbing.files import atomic_write
directory, seed = sys.argv[1], int(sys.argv[2])
n = 0
while True:
    for name in ("a", "b", "c"):
        n += 1
        body = os.urandom(200_000 + (n * 7919 + seed) % 300_000)
        head = f"{seed} {n} {hashlib.sha256(body).hexdigest()}\n".encode()
        atomic_write(os.path.join(directory, name), head + body)
"""


def _valid(blob: bytes) -> bool:
    head, _, body = blob.partition(b"\n")
    parts = head.split()
    return len(parts) == 3 and hashlib.sha256(body).hexdigest().encode() == parts[2]


def test_writers_killed_at_random_points_leave_old_or_new_content(tmp_path):
    """Real processes overwrite three files as fast as they can and are killed with SIGKILL
    at random moments; every file must still be one complete version, never a mix or empty."""
    for name in "abc":
        body = b"initial"
        (tmp_path / name).write_bytes(f"0 0 {hashlib.sha256(body).hexdigest()}\n".encode() + body)
    rng = random.Random(1234)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    replaced = 0
    for round_ in range(8):
        procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), str(round_ * 10 + k)],
                                  env=env) for k in range(3)]
        time.sleep(0.2 + rng.random() * 0.3)
        for proc in procs:
            time.sleep(rng.random() * 0.05)
            proc.send_signal(signal.SIGKILL)
        for proc in procs:
            proc.wait()
        for name in "abc":
            blob = (tmp_path / name).read_bytes()
            assert _valid(blob), f"round {round_}: {name} holds a torn or empty write"
            replaced += not blob.startswith(b"0 0 ")
    assert replaced > 0  # the writers did replace the files
    # A SIGKILL can leave a writer's temp file behind; it is a dot-file that no reader takes
    # for the real one.
    assert all(n in "abc" or (n.startswith(".") and n.endswith(".tmp")) for n in os.listdir(tmp_path))


def test_append_line_appends_whole_lines_and_read_lines_drops_a_torn_tail(tmp_path):
    from plumbing.files import append_line, read_lines

    path = tmp_path / "journal.jsonl"
    append_line(path, '{"a": 1}')
    append_line(path, '{"b": 2}\n')
    assert path.read_text() == '{"a": 1}\n{"b": 2}\n'
    with open(path, "a") as fh:  # a writer killed mid-line
        fh.write('{"c": ')
    assert read_lines(path) == ['{"a": 1}', '{"b": 2}']
    assert path.read_text().endswith('{"c": ')  # read only: untouched
    assert read_lines(path, repair=True) == ['{"a": 1}', '{"b": 2}']
    append_line(path, '{"d": 4}')
    assert read_lines(path) == ['{"a": 1}', '{"b": 2}', '{"d": 4}']


def test_read_json_lines_leaves_out_a_torn_last_line_and_names_a_bad_one(tmp_path):
    class Bad(Exception):
        pass

    path = tmp_path / "records.jsonl"
    path.write_text('{"a": 1}\n\n[2, 3]\n{"torn": ')
    assert files.read_json_lines(path, Bad, "rewrite it", repair=True) == [{"a": 1}, [2, 3]]
    assert path.read_text() == '{"a": 1}\n\n[2, 3]\n'          # the torn line cut off
    path.write_text('{"a": 1}\nnot json\n')
    with pytest.raises(Bad, match=r"records.jsonl:2 is not a JSON line \(.*\): rewrite it"):
        files.read_json_lines(path, Bad, "rewrite it")

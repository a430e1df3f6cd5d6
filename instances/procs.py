"""Service processes: start in their own process group with the log captured, recognise them
again later despite PID reuse (pid + start time), measure memory (PSS over the process tree),
and stop the whole group."""
import os
import secrets
import signal
import subprocess
import time
from pathlib import Path

import psutil

from instances.errors import StartFailed

# Two start times closer than this are the same process (psutil rounds to clock ticks).
_START_TIME_SLACK = 0.05


def start_service(argv: list[str], cwd: Path, env: dict, log_path: Path) -> dict:
    """Start ARGV (no shell) in a new session; stdout and stderr append to LOG_PATH.

    Returns the identity to store: {"pid", "pgid", "create_time", "token"}. TOKEN is also put in
    the environment (INSTANCES_ID), which every descendant inherits: it tells our orphans apart
    from strangers once the leader is gone and its PID may have been reused.
    """
    log_path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_hex(8)
    env = {**env, "INSTANCES_ID": token}
    with open(log_path, "ab") as log:
        log.write(f"\n--- instances: starting {' '.join(argv)} at {time.strftime('%Y-%m-%d %H:%M:%S')}\n".encode())
        log.flush()
        try:
            proc = subprocess.Popen(
                argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True, close_fds=True,
            )
        except OSError as exc:
            raise StartFailed(f"cannot run {argv[0]!r} ({exc.strerror}); fix command in instances.toml") from None
    return {"pid": proc.pid, "pgid": proc.pid, "create_time": psutil.Process(proc.pid).create_time(), "token": token}


def find(identity: dict | None) -> psutil.Process | None:
    """The live process IDENTITY describes, or None when it exited or its PID now belongs to another."""
    if not identity or not identity.get("pid"):
        return None
    try:
        proc = psutil.Process(identity["pid"])
        if abs(proc.create_time() - identity["create_time"]) > _START_TIME_SLACK:
            return None  # PID reused by an unrelated process
        if proc.status() == psutil.STATUS_ZOMBIE:
            return None
        return proc
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None


def group_members(pgid: int) -> list[psutil.Process]:
    """Processes in process group PGID (e.g. children that outlived a killed leader)."""
    members = []
    for proc in psutil.process_iter(["pid"]):
        try:
            if os.getpgid(proc.pid) == pgid:
                members.append(proc)
        except (ProcessLookupError, PermissionError, psutil.Error):
            continue
    return members


def orphans(identity: dict) -> list[psutil.Process]:
    """What is left of IDENTITY's process group after its leader died, and only that.

    A process whose environment carries our INSTANCES_ID token is ours; a group whose id now
    names a live, different process was reused by a stranger and is left alone.
    """
    pgid, token = identity["pgid"], identity.get("token")
    try:
        holder = psutil.Process(pgid)
        if holder.status() != psutil.STATUS_ZOMBIE and abs(holder.create_time() - identity["create_time"]) > _START_TIME_SLACK:
            return []
    except psutil.Error:
        pass
    ours = []
    for proc in group_members(pgid):
        try:
            if token is None or proc.environ().get("INSTANCES_ID") == token:
                ours.append(proc)
        except psutil.Error:
            continue
    return ours


def stop(identity: dict | None, timeout: float = 5.0) -> bool:
    """SIGTERM the service's process group, SIGKILL what is left after TIMEOUT. True if anything ran."""
    if not identity or not identity.get("pgid"):
        return False
    leader = find(identity)
    if leader is not None:
        try:
            members = [leader, *leader.children(recursive=True)]
        except psutil.Error:
            members = [leader]
        try:
            os.killpg(identity["pgid"], signal.SIGTERM)
        except ProcessLookupError:
            pass
    else:
        members = orphans(identity)
        if not members:
            return False
        _signal_all(members, signal.SIGTERM)
    alive = wait_gone(members, timeout)
    if alive:
        _signal_all(alive, signal.SIGKILL)  # also children that left the group
        wait_gone(alive, 2)
    return True


def _signal_all(processes, sig):
    for proc in processes:
        try:
            proc.send_signal(sig)
        except psutil.Error:
            continue


def wait_gone(processes, timeout: float) -> list[psutil.Process]:
    """Wait until PROCESSES exit (a zombie counts as exited: its parent may never reap it).

    Returns the ones still alive after TIMEOUT."""
    deadline = time.monotonic() + timeout
    while True:
        alive = []
        for proc in processes:
            try:
                if proc.status() != psutil.STATUS_ZOMBIE:
                    alive.append(proc)
                elif proc.ppid() == os.getpid():
                    os.waitpid(proc.pid, os.WNOHANG)  # our own child: reap it
            except (psutil.NoSuchProcess, ChildProcessError):
                continue
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.02)


def tree_pss(proc: psutil.Process | None) -> int | None:
    """Proportional set size summed over PROC and its descendants, in bytes."""
    if proc is None:
        return None
    total = 0
    try:
        members = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return None
    for member in members:
        try:
            total += member.memory_full_info().pss
        except psutil.Error:
            continue
    return total


LOOPBACK_PREFIXES = ("127.", "::1", "::ffff:127.")


def listeners(proc: psutil.Process | None) -> list[tuple[str, int]]:
    """(address, port) of every listening socket in PROC's process tree."""
    if proc is None:
        return []
    try:
        members = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return []
    found = set()
    for member in members:
        try:
            conns = member.net_connections(kind="inet")
        except psutil.Error:
            continue
        found.update((c.laddr.ip, c.laddr.port) for c in conns if c.status == psutil.CONN_LISTEN)
    return sorted(found)


def exposed_listeners(proc: psutil.Process | None) -> list[str]:
    """Listening sockets of PROC's tree bound to a non-loopback address ('0.0.0.0:8000')."""
    return [f"{ip}:{port}" for ip, port in listeners(proc) if not ip.startswith(LOOPBACK_PREFIXES)]


def listens_on(proc: psutil.Process | None, port: int) -> bool:
    """Whether PORT is served by PROC's tree (and not by a stranger that took the port)."""
    return any(p == port for _, p in listeners(proc))


def tail(path: Path, lines: int = 20) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - 16384))
            data = fh.read().decode(errors="replace")
    except FileNotFoundError:
        return ""
    return "\n".join(data.splitlines()[-lines:])


def find_self() -> dict:
    return identity_of(os.getpid())


def identity_of(pid: int) -> dict:
    """{"pid", "create_time"}: what `find` needs to recognise PID's process later."""
    return {"pid": pid, "create_time": psutil.Process(pid).create_time()}

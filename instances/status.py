"""What `instances ls` shows: each instance's observed state, memory, age and git position."""
import os
import time
from concurrent.futures import ThreadPoolExecutor

from instances import gitops, probe, procs
from instances.checks import PROBE_AGENT
from instances.fmt import iso


def last_request(mgr, name: str) -> float | None:
    """When nginx last logged a real request for NAME: the newest line of its per-instance access
    log that is not one of the tool's own checks (their user agent is checks.PROBE_AGENT)."""
    access = mgr.nginx_prefix / "logs" / f"access-{name}.log"
    try:
        with open(access, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - 65536))
            lines = fh.read().decode(errors="replace").splitlines()
    except FileNotFoundError:
        return None
    probe_mark = f'"{PROBE_AGENT}"'
    for line in reversed(lines):
        if line.endswith(probe_mark):
            continue
        try:
            return float(line.split(" ", 1)[0])
        except ValueError:
            continue  # a cut first line, or a log written before $msec led each line
    return None


def observed_state(mgr, rec: dict, proc) -> str:
    """healthy / unhealthy / starting / stopped / dead, from the record, the process and a probe."""
    state = rec.get("state", "stopped")
    if state not in ("running", "starting"):
        return "stopped"
    if proc is None:
        return "dead" if state == "running" else "starting"
    code = probe.status(f"http://127.0.0.1:{rec['port']}{mgr.health_path(rec['name'])}", timeout=1.0)
    if code is None:
        return "unhealthy" if state == "running" else "starting"
    if state != "running":
        return "starting"
    # the port must be served by this instance's own processes, not a stranger that took it
    return "healthy" if code < 400 and procs.listens_on(proc, rec["port"]) else "unhealthy"


def instance_status(mgr, rec: dict) -> dict:
    proc = procs.find(rec.get("process"))
    mem = procs.tree_pss(proc)
    limit = mgr.config.memory_limit
    return {
        "name": rec["name"], "task": rec.get("task"), "branch": rec["branch"], "port": rec.get("port"),
        "url": mgr.url(rec["name"]), "state": observed_state(mgr, rec, proc), "pid": proc.pid if proc else None,
        "uptime_seconds": round(time.time() - rec["started"], 1) if proc and rec.get("started") else None,
        "memory_bytes": mem, "over_memory_limit": bool(mem and limit and mem > limit),
        "ahead": gitops.ahead(mgr.root, mgr.config.main_branch, rec["branch"]),
        "last_request": iso(last_request(mgr, rec["name"])), "worktree": rec["worktree"],
        "last_action": _action(rec.get("last_action")),
    }


def _action(action: dict | None) -> dict | None:
    """What the supervisor (or doctor) last did to the instance, with its time as ISO 8601."""
    return {**action, "at": iso(action["at"])} if action else None


def list_status(mgr) -> list[dict]:
    """Every instance by name; probes run in parallel so a hung service costs one timeout."""
    records = sorted(mgr.registry.instances().values(), key=lambda r: r["name"])
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(lambda rec: instance_status(mgr, rec), records))

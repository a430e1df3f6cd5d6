"""What `instances ls` shows: each instance's observed state, memory, age and git position."""
import time
from concurrent.futures import ThreadPoolExecutor

from instances import gitops, probe, procs
from instances.fmt import iso


def last_request(mgr, name: str) -> float | None:
    """When nginx last logged a request for NAME (its per-instance access log's mtime)."""
    access = mgr.nginx_prefix / "logs" / f"access-{name}.log"
    try:
        stat = access.stat()
    except FileNotFoundError:
        return None
    return stat.st_mtime if stat.st_size else None


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
    }


def list_status(mgr) -> list[dict]:
    """Every instance by name; probes run in parallel so a hung service costs one timeout."""
    records = sorted(mgr.registry.instances().values(), key=lambda r: r["name"])
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(lambda rec: instance_status(mgr, rec), records))

"""`instances doctor`: reconcile the registry with what really runs after crashes or reboots."""
import time
from pathlib import Path

from instances import gitops, procs
from instances.status import last_request
from instances.actions import note


def _released(rec: dict, **extra):
    rec.update(state="stopped", port=None, process=None, **extra)


def _reconcile_records(data: dict, restart_dead: bool) -> tuple[list[str], list[str]]:
    """Inside a registry transaction: dead services, leaked leases, duplicate ports, lost worktrees."""
    actions, restart, ports = [], [], {}
    for name, rec in sorted(data["instances"].items()):
        state = rec.get("state")
        if state == "starting":
            owner = procs.find({"pid": rec.get("owner_pid"), "create_time": rec.get("owner_time")})
            if owner is None:  # the `up` that leased this port is gone
                procs.stop(rec.get("process"), timeout=1)
                _released(rec)
                actions.append(f"{name}: released the port leaked by an interrupted `up`")
            continue
        if state == "stopped" and rec.get("died") and restart_dead:
            restart.append(name)  # found dead by an earlier doctor (or the supervisor): bring it back now
            continue
        if state == "running" and procs.find(rec.get("process")) is None:
            pid = (rec.get("process") or {}).get("pid")
            leftovers = procs.stop(rec.get("process"), timeout=1)  # orphans only, never a PID's new owner
            _released(rec, died=time.time())
            actions.append(f"{name}: service (pid {pid}) was dead or its pid reused"
                           f"{', killed its leftover children' if leftovers else ''}; marked stopped")
            if restart_dead:
                restart.append(name)
        if rec.get("port"):
            if rec["port"] in ports:
                actions.append(f"{name}: port {rec['port']} also leased by {ports[rec['port']]}; released")
                procs.stop(rec.get("process"), timeout=1)
                _released(rec)
            else:
                ports[rec["port"]] = name
        if not Path(rec["worktree"]).exists():
            actions.append(f"{name}: worktree {rec['worktree']} is missing; `instances rm --force {name}` forgets it")
            if rec.get("state") == "running":
                procs.stop(rec.get("process"), timeout=1)
                _released(rec)
    return actions, restart


def _reconcile_nginx(mgr) -> list[str]:
    used = mgr.nginx().live_include() is not None or any(
        rec.get("state") == "running" for rec in mgr.registry.instances().values())
    if not used:  # never routed anything: do not start an nginx nobody asked for
        return []
    actions = []
    if mgr.config.nginx_mode == "private":
        server = mgr.nginx()
        if server.master() is None:
            killed = server.kill_leftovers()
            actions.append("nginx was not running" + (f"; killed {killed} orphaned worker(s)" if killed else "")
                           + "; restarting it")
    outcome = mgr.sync_nginx()
    if outcome != "unchanged" and not actions:
        actions.append(f"nginx routes did not match the registry; {outcome}")
    return actions


def idle_seconds(mgr, name: str) -> float:
    """How long NAME has gone without a real request (counted from its start at the latest)."""
    rec = mgr.registry.get(name)
    return time.time() - max(rec.get("started") or 0, last_request(mgr, name) or 0)


def _reconcile_supervisor(mgr) -> list[str]:
    """Start the supervisor when it should run (private nginx up, supervision on) but does not."""
    if not mgr.config.supervise or mgr.config.nginx_mode != "private" or mgr.nginx().master() is None:
        return []
    pid = mgr.start_supervisor()
    return [f"supervisor was not running; started it (pid {pid})"] if pid else []


def reconcile(mgr, restart_dead: bool = False, supervise: bool = True) -> list[str]:
    """SUPERVISE: also start the supervisor if it is missing (the supervisor itself passes False)."""
    with mgr.registry.transaction() as data:
        actions, restart = _reconcile_records(data, restart_dead)
    known = set(mgr.registry.instances())
    if mgr.worktree_dir.exists():
        for path in sorted(mgr.worktree_dir.iterdir()):
            if path.name not in known:
                actions.append(f"orphaned worktree {path} (no instance); remove it with `git worktree remove {path}`")
    gitops.git("worktree", "prune", cwd=mgr.root, check=False)
    actions += _reconcile_nginx(mgr)
    for name in restart:
        mgr.restart(name, run_checks=False)
        actions.append(f"{name}: restarted")
    if mgr.config.idle_stop:
        for item in mgr.ls():
            if item["state"] == "healthy" and idle_seconds(mgr, item["name"]) > mgr.config.idle_stop:
                mgr.down(item["name"])
                text = f"stopped after {mgr.config.idle_stop:.0f}s without requests"
                note(mgr, item["name"], text, by="doctor")
                actions.append(f"{item['name']}: {text}")
    if supervise:
        actions += _reconcile_supervisor(mgr)
    return actions

"""The supervisor: one small process per state directory that keeps instances within bounds
without anyone running a command.

Every `[supervisor] interval` it looks at each running instance and
    - when the service died (or the private nginx did), runs `doctor`'s reconciliation;
    - stops an instance that had no real request for `idle_stop`;
    - handles a service whose memory (PSS over its process tree) stays above `memory_limit` for
      `memory_grace`, by `memory_action`: "restart" (default; a second memory restart within
      RESTART_WINDOW stops it instead, so a leak cannot loop), "stop", or "warn" (only noted).
What it did goes on the instance's record (`instances ls` shows it) and into its log.

It keeps no state of its own: everything is in the registry, so killing it loses nothing, and
`doctor` starts it again. It is started with the private nginx (`Instances.sync_nginx`) and
stopped with it; a flock on supervisor.lock makes a second one exit at once.

Run as `python -m instances supervise ROOT STATE_DIR` (a hidden command; the manager does this).
"""
import signal
import threading
import time
from pathlib import Path

from instances import procs
from instances.actions import note
from instances.doctor import idle_seconds, reconcile
from instances.fmt import fmt_bytes

RESTART_WINDOW = 600.0  # seconds: a second memory restart within this stops the instance instead


def memory_verdict(pss: int | None, limit: int | None, over_since: float | None, now: float, grace: float,
                   action: str, last_memory_restart: float | None) -> tuple[str | None, float | None]:
    """(what to do now, when the service went over its limit). Pure: the policy in one place.

    What to do is None, "restart", "stop" or "warn"; the second value is kept on the record
    until the service is back under its limit (None)."""
    if not limit or pss is None or pss <= limit:
        return None, None
    since = over_since or now
    if now - since < grace:
        return None, since
    if action == "restart" and last_memory_restart and now - last_memory_restart < RESTART_WINDOW:
        return "stop", since
    return action, since


def tick(mgr) -> list[str]:
    """One round over the instances; returns what was done."""
    done = []
    records = mgr.registry.instances()
    running = {n: r for n, r in records.items() if r.get("state") == "running"}
    alive = {n: procs.find(r.get("process")) for n, r in running.items()}
    dead = [n for n, proc in alive.items() if proc is None]
    nginx_down = bool(running) and mgr.config.nginx_mode == "private" and mgr.nginx().master() is None
    if dead or nginx_down:
        for action in reconcile(mgr, supervise=False):
            name = action.split(":", 1)[0]
            if name in records:
                note(mgr, name, action.split(": ", 1)[1])
            done.append(action)
    now = time.time()
    config = mgr.config
    for name, proc in alive.items():
        if proc is None:
            continue
        if config.idle_stop and idle_seconds(mgr, name) > config.idle_stop:
            mgr.down(name)
            note(mgr, name, f"stopped after {config.idle_stop:.0f}s without requests")
            done.append(f"{name}: idle, stopped")
            continue
        done += _memory(mgr, name, running[name], proc, now)
    return done


def _memory(mgr, name: str, rec: dict, proc, now: float) -> list[str]:
    config = mgr.config
    pss = procs.tree_pss(proc)
    verdict, since = memory_verdict(pss, config.memory_limit, rec.get("over_limit_since"), now,
                                    config.memory_grace, config.memory_action, rec.get("memory_restart"))
    if since != rec.get("over_limit_since"):
        mgr.mark(name, over_limit_since=since)
    if verdict is None:
        return []
    why = (f"memory {fmt_bytes(pss)} above memory_limit {fmt_bytes(config.memory_limit)} "
           f"for {now - since:.0f}s")
    if verdict == "warn":
        if not rec.get("memory_warned"):
            mgr.mark(name, memory_warned=True)
            note(mgr, name, f"{why}; left running (memory_action = \"warn\")")
            return [f"{name}: over its memory limit"]
        return []
    if verdict == "restart":
        mgr.restart(name, run_checks=False)
        mgr.mark(name, memory_restart=now, over_limit_since=None)
        note(mgr, name, f"{why}; restarted (memory_action = \"restart\")")
        return [f"{name}: restarted for memory"]
    mgr.down(name)
    mgr.mark(name, over_limit_since=None)
    again = " again within 10 min of a memory restart" if config.memory_action == "restart" else ""
    note(mgr, name, f"{why}{again}; stopped")
    return [f"{name}: stopped for memory"]


def _serve_dashboard(mgr, make_manager):
    """The dashboard in a waitress thread on the registry's dashboard port; when a stranger took
    that port, a new one is leased and nginx re-rendered to route `/` there."""
    from instances.dashboard import create_app
    from plumbing.wsgi import CannotListen, ServerThread

    dashboard_mgr = make_manager()  # its own manager: no caches shared with the rounds
    dashboard_mgr.may_start_supervisor = False
    app = create_app(dashboard_mgr)
    for renew in (False, True):
        port = mgr.dashboard_port(renew=renew)
        if port is None:
            return None
        try:
            server = ServerThread(app, port=port, threads=4, ident="instances-dashboard").start()
        except CannotListen as exc:
            print(f"dashboard: {exc}", flush=True)
            continue
        if renew:
            mgr.sync_nginx(force=True)
        print(f"dashboard on 127.0.0.1:{port}, at {mgr.dashboard_url()}", flush=True)
        return server
    return None


def serve(state: Path, make_manager) -> int:
    """The supervisor's loop over MAKE_MANAGER()'s instances (its config re-read every round);
    returns the exit code. Exits 0 at once when another one runs for STATE."""
    from plumbing.lock import LockTimeout, locked

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        with locked(state / "supervisor.lock", holder="instances supervisor", timeout=0,
                    what="the instances supervisor lock"):
            mgr = make_manager()
            mgr.may_start_supervisor = False
            me = procs.find_self()
            with mgr.registry.transaction() as data:  # the winner of the lock says who supervises
                data["supervisor"] = {**me, "pgid": me["pid"], "started": time.time()}
            print(f"supervisor pid {me['pid']} for {state}", flush=True)
            dashboard = _serve_dashboard(mgr, make_manager)
            while not stop.is_set():
                try:
                    mgr.config = make_manager().config  # instances.toml edits apply from the next round
                    for action in tick(mgr):
                        print(f"{time.strftime('%H:%M:%S')} {action}", flush=True)
                except Exception as exc:  # one bad round must not end supervision; say why
                    print(f"{time.strftime('%H:%M:%S')} round failed: {type(exc).__name__}: {exc}", flush=True)
                stop.wait(mgr.config.supervise_interval)
            if dashboard:
                dashboard.stop()
            with mgr.registry.transaction() as data:
                if (data.get("supervisor") or {}).get("pid") == me["pid"]:
                    data.pop("supervisor")
    except LockTimeout:
        print(f"another supervisor already runs for {state}", flush=True)
    return 0

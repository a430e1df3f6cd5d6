"""The instance lifecycle: up, down, rm, restart, ls, doctor, approve.

``Instances`` orchestrates the parts (registry, git, processes, nginx, checks, pm) and reports
progress through a callback; it raises the named errors from ``instances.errors`` and never
prints or exits itself.
"""
import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

from instances import checks as subpath
from instances import gitops, pm_link, probe, procs
from instances.approve import approve as approve_instance
from instances.config import AppConfig, fill, load_config, service_argv
from instances.doctor import reconcile
from instances.errors import AlreadyExists, BudgetExceeded, ChecksFailed, NginxError, NotFound, StartFailed
from instances.fmt import fmt_bytes
from instances.names import (instance_name_for_branch, task_branch, task_id_of_branch,
                             task_instance_name, validate_branch, validate_name)
from instances.nginx import PrivateNginx, SystemNginx, probe_generation
from instances.nginx_conf import Route, htpasswd_line, render_locations, render_main_conf
from instances.registry import Registry, lease_port
from instances.status import list_status
from plumbing.files import atomic_write

DEFAULT_INSTANCE_MEMORY = 128 * 1024**2  # admission estimate before any instance was measured


def default_state_dir(root: Path, environ=os.environ) -> Path:
    """$INSTANCES_HOME, else <git common dir>/instances (per repository, invisible to git)."""
    if environ.get("INSTANCES_HOME"):
        return Path(environ["INSTANCES_HOME"]).expanduser().resolve()
    return gitops.common_dir(root) / "instances"


class Instances:
    def __init__(self, root: Path, config: AppConfig, state_dir: Path | None = None,
                 progress=None, python: str = sys.executable):
        self.root = Path(root)
        self.config = config
        self.state = Path(state_dir) if state_dir else default_state_dir(self.root)
        self.registry = Registry(self.state)
        self.progress = progress or (lambda msg: None)
        self.python = python
        self.worktree_dir = self.state / "worktrees"
        self.log_dir = self.state / "logs"
        self.nginx_prefix = self.state / "nginx"
        self._live_listen = None  # cached by `listen`; forgotten whenever nginx is started or stopped
        # False inside the supervisor: while it is being stopped (its registry entry already gone)
        # a round that syncs nginx must not start a successor
        self.may_start_supervisor = True

    @classmethod
    def from_cwd(cls, cwd: Path | None = None, progress=None, environ=os.environ) -> "Instances":
        root = gitops.repo_root(Path(cwd or os.getcwd()))
        return cls(root, load_config(root, environ), default_state_dir(root, environ), progress)

    # -- names and paths -------------------------------------------------------------------------
    @property
    def listen(self) -> tuple[str, int]:
        """Where the private nginx listens: INSTANCES_LISTEN when set; else the address the running
        nginx was started on (so URLs stay right when the environment that started it is gone);
        else [nginx] listen."""
        if self.config.listen_from_env or self.config.nginx_mode != "private":
            return self.config.listen
        if self._live_listen is None:
            self._live_listen = self.nginx().running_listen() or self.config.listen
        return self._live_listen

    @property
    def base_url(self) -> str:
        return f"http://{self.listen[0]}:{self.listen[1]}"

    def url(self, name: str) -> str:
        return f"{self.base_url}/{name}/"

    def worktree(self, name: str) -> Path:
        return self.worktree_dir / validate_name(name)

    def health_path(self, name: str) -> str:
        """The backend's health path; '{prefix}' in it (passthrough apps) becomes /NAME."""
        return self.config.health.replace("{prefix}", f"/{validate_name(name)}")

    def log_path(self, name: str) -> Path:
        return self.log_dir / f"{validate_name(name)}.log"

    def resolve(self, target: str) -> dict:
        """An instance record by name, branch or task id."""
        records = self.registry.instances()
        if target in records:
            return records[target]
        for rec in records.values():
            if rec["branch"] == target or (target.isascii() and target.isdigit() and rec.get("task") == int(target)):
                return rec
        known = ", ".join(sorted(records)) or "none"
        raise NotFound(f"no instance {target!r} (instances: {known}); start one with `instances up {target}`")

    # -- auth ------------------------------------------------------------------------------------
    def credentials(self) -> tuple[str, str] | None:
        """(user, password) protecting review URLs; the password is generated once, mode 0600."""
        if self.config.auth == "none":
            return None
        self.registry.ensure()
        pw_file = self.state / "password"
        password = os.environ.get("INSTANCES_PASSWORD")
        if not password:
            if not pw_file.exists():
                atomic_write(pw_file, secrets.token_urlsafe(18) + "\n", mode=0o600)
            password = pw_file.read_text().strip()
        line = htpasswd_line(self.config.auth_user, password)
        htpasswd = self.state / "htpasswd"
        if not htpasswd.exists() or htpasswd.read_text() != line:
            atomic_write(htpasswd, line, mode=0o600)
        return self.config.auth_user, password

    # -- nginx -----------------------------------------------------------------------------------
    def _routes(self, data: dict) -> list[Route]:
        return [Route(rec["name"], rec["port"], self.config.proxy)
                for rec in data["instances"].values() if rec.get("state") == "running" and rec.get("port")]

    def render_include(self, data: dict, generation: int) -> str:
        private = self.config.nginx_mode == "private"
        auth_file = str(self.state / "htpasswd") if self.config.auth == "basic" else None
        return render_locations(self._routes(data), generation=generation, auth_file=auth_file,
                                log_dir=str(self.nginx_prefix / "logs") if private else None)

    def render_main(self) -> str:
        user = "root" if os.geteuid() == 0 else None  # workers must read our 0600 files
        auth_file = str(self.state / "htpasswd") if self.config.auth == "basic" else None
        return render_main_conf(str(self.nginx_prefix), self.listen, user=user,
                                dashboard_port=self.dashboard_port(), auth_file=auth_file)

    def dashboard_port(self, renew: bool = False) -> int | None:
        """The port the supervisor serves the dashboard on (leased once, kept in the registry);
        None when supervision is off. RENEW leases another (the old one was taken meanwhile)."""
        if not self.config.supervise:
            return None
        port = self.registry.load().get("dashboard_port")
        if port and not renew:
            return port
        taken = {self.listen[1], port} - {None}  # nginx's port, and the one that was taken
        with self.registry.transaction() as data:
            if renew or not data.get("dashboard_port"):
                data["dashboard_port"] = lease_port(data, exclude=taken)
            return data["dashboard_port"]

    def dashboard_url(self) -> str:
        return f"{self.base_url}/"

    def nginx(self):
        if self.config.nginx_mode == "system":
            return SystemNginx(Path(self.config.include_dir), self.config.reload_command, self.config.test_command)
        return PrivateNginx(self.nginx_prefix)

    def sync_nginx(self, force: bool = False) -> str:
        """Make nginx route exactly the running instances in the registry (serialised by a lock).

        FORCE reloads even when nothing changed (benchmarks, `instances nginx sync --reload`)."""
        self.credentials()
        with self.registry.lock("nginx"):
            data = self.registry.load()
            server = self.nginx()
            current = self.render_include(data, data["generation"])
            if not force and server.live_include() == current and (
                    self.config.nginx_mode == "system" or (
                        server.master() is not None and server.live_main() == self.render_main())):
                if subpath_probe_ok(self.base_url, data["generation"]):
                    return "unchanged"
            with self.registry.transaction() as tx:
                tx["generation"] += 1
                generation = tx["generation"]
                data = tx
            text = self.render_include(data, generation)
            if self.config.nginx_mode == "system":
                return server.apply(text, self.base_url, generation)
            try:
                outcome = server.apply(self.render_main(), text, self.base_url, generation)
            finally:
                self._live_listen = None
        if self.config.supervise:
            self.start_supervisor()
        return outcome

    def stop_nginx(self) -> bool:
        """Stop the private nginx, and the supervisor first (it would start nginx again)."""
        self._live_listen = None
        if self.config.nginx_mode != "private":
            return False
        self.stop_supervisor()
        return self.nginx().stop()

    # -- the supervisor (instances/supervisor.py) --------------------------------------------------
    def supervisor(self) -> dict | None:
        """The running supervisor's identity ({"pid", "create_time", "started"}), or None."""
        identity = self.registry.load().get("supervisor")
        return identity if procs.find(identity) else None

    def start_supervisor(self) -> int | None:
        """Start one if none runs; the new one's pid, or None. Decided inside the registry lock,
        so two callers start one; a stray second one would exit at its flock anyway."""
        if not self.may_start_supervisor:
            return None
        with self.registry.transaction() as data:
            if procs.find(data.get("supervisor")):
                return None
            log = self.log_dir / "supervisor.log"
            log.parent.mkdir(parents=True, exist_ok=True)
            with open(log, "ab") as fh:
                # `instances supervise` (instances/supervisor.py); cwd is the state directory: from
                # the app's root, `-m instances` could import the app's own package of that name
                proc = subprocess.Popen([self.python, "-m", "instances", "supervise", str(self.root), str(self.state)],
                                        cwd=self.state, stdin=subprocess.DEVNULL, stdout=fh, stderr=subprocess.STDOUT,
                                        start_new_session=True, close_fds=True)
            data["supervisor"] = {**procs.identity_of(proc.pid), "pgid": proc.pid, "started": time.time()}
            return proc.pid

    def stop_supervisor(self) -> bool:
        with self.registry.transaction() as data:
            identity = data.pop("supervisor", None)
        return procs.stop(identity, timeout=10) if identity else False

    # -- memory admission --------------------------------------------------------------------
    def admission(self, data: dict | None = None) -> dict:
        """Budget, memory in use, per-instance estimate and how many more fit.

        Instances still starting have no measurable memory yet; each counts as one estimate, so
        concurrent `up`s (admitted inside the registry lock) cannot overshoot the budget together.
        """
        data = data if data is not None else self.registry.load()
        used, measured, starting = 0, [], 0
        for rec in data["instances"].values():
            pss = procs.tree_pss(procs.find(rec.get("process")))
            if pss:
                used += pss
                measured.append(pss)
            elif rec.get("state") == "starting":
                starting += 1
        estimate = self.config.memory_limit or (max(measured) if measured else DEFAULT_INSTANCE_MEMORY)
        used += starting * estimate
        budget = self.config.memory_budget
        fit = None if budget is None else max(0, (budget - used) // estimate)
        return {"budget": budget, "used": used, "estimate": estimate, "more_fit": fit,
                "running": len(measured) + starting}

    def _admit(self, data: dict):
        adm = self.admission(data)
        if adm["more_fit"] is not None and adm["more_fit"] < 1:
            raise BudgetExceeded(
                f"memory budget {fmt_bytes(adm['budget'])} would be exceeded: {fmt_bytes(adm['used'])} in use by "
                f"{adm['running']} instance(s), about {fmt_bytes(adm['estimate'])} each; 0 more fit. "
                "Stop one with `instances down NAME` or raise [limits] memory_budget in instances.toml")
        return adm

    # -- up --------------------------------------------------------------------------------------
    def plan(self, target: str, name: str | None = None) -> tuple[str, str, int | None]:
        """(branch, instance name, task id) for TARGET: a task id or a branch name."""
        if target.isascii() and target.isdigit():
            task = int(target)
            existing = [wt["branch"] for wt in gitops.worktrees(self.root)
                        if wt["branch"] and task_id_of_branch(wt["branch"]) == task]
            prefix = f"task/{task}-"
            branches = gitops.branches(self.root, f"task/{task}", prefix)
            if existing or branches:
                branch = (existing or branches)[0]
            else:
                title = pm_link.task_title(task)
                if title is None:
                    self.progress(f"no pm tracker reachable (set PM_DIR); naming the branch task/{task}")
                branch = task_branch(task, title)
            return branch, validate_name(name) if name else task_instance_name(task), task
        branch = validate_branch(target)
        return branch, validate_name(name) if name else instance_name_for_branch(branch), task_id_of_branch(branch)

    def up(self, target: str, name: str | None = None, run_checks: bool = True) -> dict:
        started = time.monotonic()
        branch, name, task = self.plan(target, name)
        front = {self.listen[1]}  # nginx may not be bound yet: its port is no service's to take
        # Decide and lease in one registry transaction, so concurrent `up`s of one instance
        # start exactly one service: the others see it starting (error) or running (its URL).
        with self.registry.transaction() as data:
            other = data["instances"].get(name)
            if other and other["branch"] != branch:
                raise AlreadyExists(f"instance {name} already serves branch {other['branch']}; pass --name for {branch}")
            already = bool(other and other.get("state") == "running" and procs.find(other.get("process")))
            if not already:
                if other and other.get("state") == "starting" and procs.find(
                        {"pid": other.get("owner_pid"), "create_time": other.get("owner_time")}):
                    raise AlreadyExists(f"instance {name} is being started by process {other['owner_pid']}")
                if other:
                    other["state"] = "stopped"  # a stale record of this very instance is not in the way
                self._admit(data)
                port = lease_port(data, exclude=front)
                me = procs.find_self()
                data["instances"][name] = {
                    **(other or {}), "name": name, "branch": branch, "task": task, "port": port,
                    "state": "starting", "owner_pid": me["pid"], "owner_time": me["create_time"],
                    "worktree": str(self.worktree(name)), "created": (other or {}).get("created", time.time()),
                }
        if already:
            self.progress(f"{name} is already running")
            self.sync_nginx()
            return self._result(name, started, [], "logged when it started", already=True)
        try:
            self._prepare_worktree(name, branch)
            self._start(name, port)
        except BaseException:
            procs.stop((self.registry.get(name) or {}).get("process"), timeout=2)
            self.mark(name, state="stopped", port=None, process=None)
            raise
        self.progress("routing through nginx")
        try:
            self.sync_nginx()
        except NginxError as exc:
            raise NginxError(f"{name} is running on 127.0.0.1:{port} but is not routed: {exc}") from None
        results = self.check(name) if run_checks else []
        note = pm_link.log_on_task(task, f"Review instance up: {self.url(name)} (branch {branch})")
        result = self._result(name, started, results, note or "logged")
        if any(not c.ok for c in results):
            failed = "; ".join(f"{c.name}: {c.detail}" for c in results if not c.ok)
            error = ChecksFailed(f"{name} is up at {result['url']} but sub-path checks failed: {failed}")
            error.result = result
            raise error
        return result

    def _result(self, name, started, results, pm: str, already=False) -> dict:
        rec = self.registry.get(name)
        return {"name": name, "branch": rec["branch"], "task": rec.get("task"), "port": rec.get("port"),
                "url": self.url(name), "seconds": round(time.monotonic() - started, 3), "already_running": already,
                "checks": [c.__dict__ for c in results], "pm": pm}

    def mark(self, name: str, **fields):
        with self.registry.transaction() as data:
            if name in data["instances"]:
                data["instances"][name].update(fields)

    def _prepare_worktree(self, name: str, branch: str):
        path = self.worktree(name)
        if not path.exists():
            t0 = time.monotonic()
            with self.registry.lock("git"):
                created = gitops.add_worktree(self.root, path, branch, self.config.main_branch)
            self.progress(f"worktree {path} ({'new branch ' if created else ''}{branch}) in {time.monotonic() - t0:.2f}s")
            for rel in self.config.copy:
                src, dst = self.root / rel, path / rel
                if src.is_dir():
                    shutil.copytree(src, dst, dirs_exist_ok=True, symlinks=True)
                elif src.exists():
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(src, dst)
                else:
                    self.progress(f"warning: {rel} (listed in copy) does not exist in {self.root}")
                    continue
                self.progress(f"copied {rel}")
            if self.config.setup:
                self._setup(name, path)

    def _setup(self, name: str, path: Path):
        argv = fill(self.config.setup, self.python)
        self.progress(f"setup: {' '.join(argv)}")
        log = self.log_path(name)
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as fh:
            try:
                result = subprocess.run(argv, cwd=path, env=self.service_env(name, 0), stdout=fh,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            except OSError as exc:
                raise StartFailed(f"cannot run setup command {argv[0]!r} ({exc.strerror}); fix setup in instances.toml") from None
        if result.returncode != 0:
            raise StartFailed(f"setup command for {name} exited {result.returncode}; last log lines:\n{procs.tail(log)}")

    def service_env(self, name: str, port: int) -> dict:
        env = dict(os.environ)
        env.update(dict(self.config.env))
        env.update({"PORT": str(port), "INSTANCES_NAME": name, "INSTANCES_PREFIX": f"/{name}",
                    "INSTANCES_URL": self.url(name)})
        return env

    def _start(self, name: str, port: int):
        path = self.worktree(name)
        argv = service_argv(self.config, port, f"/{name}", self.python)
        log = self.log_path(name)
        offset = log.stat().st_size if log.exists() else 0
        self.progress(f"starting {' '.join(argv)} on 127.0.0.1:{port}")
        t0 = time.monotonic()
        identity = procs.start_service(argv, path, self.service_env(name, port), log)
        self.mark(name, process=identity)
        self._wait_healthy(name, identity, port, t0, log, offset, path)
        self.progress(f"healthy after {time.monotonic() - t0:.2f}s")
        self.mark(name, state="running", started=time.time(), owner_pid=None, owner_time=None, died=None)

    def _wait_healthy(self, name, identity, port, t0, log, offset, path):
        """Poll the health path (backing off from 20 ms to 250 ms) until it answers < 400."""
        health = f"http://127.0.0.1:{port}{self.health_path(name)}"
        deadline, delay, last = t0 + self.config.startup_timeout, 0.02, "no answer"
        while True:
            if procs.find(identity) is None:
                raise StartFailed(f"{name} exited during startup; last log lines ({log}):\n{_tail_since(log, offset)}")
            status = probe.status(health, timeout=1.0)
            if status is not None and status < 400:
                if procs.listens_on(procs.find(identity), port):
                    return
                procs.stop(identity)
                raise StartFailed(f"port {port} answers, but not from {name}'s process: another program took "
                                  f"the port; run `instances up` again for a new port. Log ({log}):\n"
                                  f"{_tail_since(log, offset)}")
            if status is not None:
                last = f"HTTP {status}"
            if time.monotonic() > deadline:
                procs.stop(identity)
                raise StartFailed(
                    f"{name} did not answer {self.health_path(name)} within {self.config.startup_timeout:.0f}s "
                    f"(last answer: {last}; {_startup_hint(last, path)}); last log lines ({log}):\n"
                    f"{_tail_since(log, offset)}")
            time.sleep(delay)
            delay = min(delay * 1.5, 0.25)

    def check(self, name: str) -> list:
        """The sub-path checks through nginx, plus: the service listens on loopback only."""
        results = subpath.subpath_checks(self.base_url, name, self.credentials(), self.config.websocket,
                                         websocket_protocols=self.config.websocket_protocols)
        if self.config.browser_check and all(c.ok for c in results if c.name == "page"):
            from instances.browser_check import browser_requests_check

            results.append(browser_requests_check(self.base_url, name, self.credentials()))
        exposed = procs.exposed_listeners(procs.find((self.registry.get(name) or {}).get("process")))
        results.append(subpath.loopback_check(exposed))
        return results

    # -- down / restart / rm -------------------------------------------------------------------
    def down(self, target: str) -> dict:
        rec = self.resolve(target)
        stopped = procs.stop(rec.get("process"))
        self.mark(rec["name"], state="stopped", port=None, process=None, stopped=time.time(), died=None)
        self.sync_nginx()
        return {"name": rec["name"], "was_running": stopped}

    def restart(self, target: str, run_checks: bool = True) -> dict:
        rec = self.resolve(target)
        procs.stop(rec.get("process"))
        self.mark(rec["name"], state="stopped", port=None, process=None)
        return self.up(rec["branch"], name=rec["name"], run_checks=run_checks)

    def rm(self, target: str, force: bool = False) -> dict:
        rec = self.resolve(target)
        name, path = rec["name"], Path(rec["worktree"])
        if not force:
            gitops.check_safe_to_remove(self.root, path, rec["branch"], self.config.main_branch, self.config.copy,
                                        name=name)
        procs.stop(rec.get("process"))
        self.mark(name, state="stopped", port=None, process=None)
        self.sync_nginx()
        with self.registry.lock("git"):
            gitops.remove_worktree(self.root, path)
        with self.registry.transaction() as data:
            data["instances"].pop(name, None)
        return {"name": name, "removed": str(path), "branch_kept": rec["branch"]}

    # -- ls, doctor, approve (instances/status.py, doctor.py, approve.py) ----------------------
    def ls(self) -> list[dict]:
        return list_status(self)

    def doctor(self, restart_dead: bool = False) -> list[str]:
        """Reconcile the registry, processes, worktrees and nginx after crashes. Returns what it did."""
        return reconcile(self, restart_dead)

    def approve(self, target: str, run_app_checks: bool = True) -> dict:
        return approve_instance(self, target, run_app_checks)


def subpath_probe_ok(base_url: str, generation: int) -> bool:
    return probe_generation(base_url) == generation


def _startup_hint(last: str, worktree) -> str:
    """What to do about a service that never answered its health path healthily."""
    if last == "HTTP 403" and ".git" in Path(worktree).resolve().parts:
        # Vite (server.fs.deny) and other dev servers refuse every file under a .git folder,
        # which is where the worktrees live by default (<repo>/.git/instances/).
        return ("the worktree is inside a .git folder, and dev servers such as Vite refuse to "
                "serve files from one: set INSTANCES_HOME to a folder outside the repository")
    return "fix health in instances.toml, or raise startup_timeout if it is just slow"


def _tail_since(path: Path, offset: int, lines: int = 20) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            text = fh.read().decode(errors="replace")
    except FileNotFoundError:
        return ""
    return "\n".join(text.splitlines()[-lines:])

"""Running nginx: the private server in a prefix we own, or a system nginx we only feed an
include file to. Both apply a configuration the same careful way:

candidate files -> ``nginx -t`` on the full config -> atomic rename -> reload -> verify
(new worker PIDs AND the generation probe answers the new number through nginx) -> on any
failure restore the last good files and reload them, so running instances keep serving.
``nginx -s reload`` exits 0 even when the reload failed (e.g. the listen port is taken), hence
the verification.
"""
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import psutil

from instances import probe
from instances.errors import NginxError
from instances.nginx_conf import GENERATION_PATH, INCLUDE_NAME
from instances.procs import group_members, wait_gone
from plumbing.files import atomic_write, replace

NGINX_BIN = os.environ.get("INSTANCES_NGINX", shutil.which("nginx") or "/usr/sbin/nginx")


def _run(argv: list[str]) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(argv, capture_output=True, text=True)
    except OSError as exc:
        raise NginxError(f"cannot run {argv[0]} ({exc.strerror}); install nginx (Debian: apt-get install nginx) "
                         "or set INSTANCES_NGINX to its path") from None
VERIFY_TIMEOUT = 15.0  # generous: on a loaded 2-core machine a healthy reload took 5.6 s


def probe_generation(base_url: str, timeout: float = 0.5) -> int | None:
    """The generation number nginx answers right now (each probe on a new connection)."""
    answer = probe.get(base_url + GENERATION_PATH, timeout)
    try:
        return int(answer[1].strip()) if answer and answer[0] == 200 else None
    except ValueError:
        return None


class PrivateNginx:
    """Debian's nginx run with -p PREFIX: conf/, logs/, run/, tmp/ all live under PREFIX."""

    def __init__(self, prefix: Path):
        self.prefix = Path(prefix)
        self.conf_dir = self.prefix / "conf"
        self.candidate_dir = self.prefix / "conf.candidate"
        self.good_dir = self.prefix / "conf" / "last-good"
        self.pid_file = self.prefix / "run" / "nginx.pid"
        self.error_log = self.prefix / "logs" / "error.log"

    # -- layout and process ------------------------------------------------------------------
    def ensure_dirs(self):
        for sub in ("conf", "conf/last-good", "conf.candidate", "logs", "run",
                    "tmp/client_body", "tmp/proxy", "tmp/fastcgi", "tmp/uwsgi", "tmp/scgi"):
            (self.prefix / sub).mkdir(parents=True, exist_ok=True)

    def _argv(self, conf: str = "conf/nginx.conf", *extra: str) -> list[str]:
        return [NGINX_BIN, "-p", f"{self.prefix}/", "-c", conf, "-e", "logs/error.log", *extra]

    def master(self) -> psutil.Process | None:
        """The running master, recognised by its pid file and its command line naming our prefix."""
        try:
            pid = int(self.pid_file.read_text().strip())
            proc = psutil.Process(pid)
            if str(self.prefix) in " ".join(proc.cmdline()) and proc.status() != psutil.STATUS_ZOMBIE:
                return proc
        except (FileNotFoundError, ValueError, psutil.Error):
            pass
        return None

    def workers(self) -> set[int]:
        master = self.master()
        try:
            return {c.pid for c in master.children()} if master else set()
        except psutil.Error:
            return set()

    def leftovers(self) -> list[psutil.Process]:
        """Processes of a dead master's group (orphaned workers still holding the port)."""
        try:
            pgid = int(self.pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return []
        ours = []
        for proc in group_members(pgid):
            try:
                if "nginx" in proc.name() and any(str(self.prefix) in f.path for f in proc.open_files()):
                    ours.append(proc)
            except psutil.Error:
                continue
        return ours

    def kill_leftovers(self) -> int:
        procs = self.leftovers()
        for proc in procs:
            try:
                proc.kill()
            except psutil.Error:
                pass
        wait_gone(procs, 3)
        return len(procs)

    def start(self):
        self.kill_leftovers()
        result = _run(self._argv())
        if result.returncode != 0:
            detail = (result.stderr.strip() or result.stdout.strip()).splitlines()[-1:]
            raise NginxError(f"nginx did not start ({' '.join(detail)}); if its port is taken, set [nginx] listen "
                             "in instances.toml or INSTANCES_LISTEN to a free 127.0.0.1 port")

    def stop(self, timeout: float = 5.0) -> bool:
        master = self.master()
        if master is None:
            return self.kill_leftovers() > 0
        procs = [master, *master.children()]
        master.send_signal(signal.SIGQUIT)  # graceful: requests in flight complete
        alive = wait_gone(procs, timeout)
        for proc in alive:
            try:
                proc.kill()
            except psutil.Error:
                pass
        return True

    def test(self, conf: str) -> None:
        result = _run(self._argv(conf, "-t", "-q"))
        if result.returncode != 0:
            raise NginxError(f"nginx rejected the new configuration, serving continues unchanged: "
                             f"{result.stderr.strip()}")

    # -- applying a configuration ------------------------------------------------------------
    def apply(self, main_text: str, include_text: str, probe_url: str, generation: int,
              timeout: float = VERIFY_TIMEOUT) -> str:
        """Make MAIN_TEXT + INCLUDE_TEXT the live configuration, or raise with the old one serving.

        Returns "started", "reloaded" or "unchanged". Callers hold the registry's nginx lock.
        """
        self.ensure_dirs()
        names = ("nginx.conf", INCLUDE_NAME)
        texts = dict(zip(names, (main_text, include_text)))
        master = self.master()
        live = {n: (self.conf_dir / n) for n in names}
        if master and all(p.exists() and p.read_text() == texts[n] for n, p in live.items()):
            if probe_generation(probe_url) is not None:
                return "unchanged"
        for name, text in texts.items():
            atomic_write(self.candidate_dir / name, text, mode=0o644, durable=False)
        self.test("conf.candidate/nginx.conf")
        had_live = all(p.exists() for p in live.values())
        for name, path in live.items():
            if path.exists():
                shutil.copy2(path, self.good_dir / name)
        for name in names:
            replace(self.candidate_dir / name, live[name], durable=False)
        try:
            if master is None:
                offset = self.error_log.stat().st_size if self.error_log.exists() else 0
                self.start()
                self._verify(probe_url, generation, set(), timeout, offset)
                return "started"
            self._reload(master, probe_url, generation, timeout)
            return "reloaded"
        except NginxError:
            if had_live:
                self._restore()
            raise

    def _reload(self, master: psutil.Process, probe_url: str, generation: int, timeout: float):
        old_workers = self.workers()
        log_offset = self.error_log.stat().st_size if self.error_log.exists() else 0
        master.send_signal(signal.SIGHUP)  # what `nginx -s reload` sends
        self._verify(probe_url, generation, old_workers, timeout, log_offset)

    def _verify(self, probe_url, generation, old_workers, timeout, log_offset):
        deadline = time.monotonic() + timeout
        while True:
            new_workers = self.workers() - old_workers
            if new_workers and self._retired(old_workers) and probe_generation(probe_url) == generation:
                return
            emerg = self._new_emergencies(log_offset)
            if emerg or time.monotonic() > deadline:
                reason = emerg or f"no new workers answering generation {generation} at {probe_url} within {timeout:.0f}s"
                raise NginxError(f"nginx reload did not take effect ({reason}); the last good configuration was restored")
            time.sleep(0.02)

    @staticmethod
    def _retired(old_workers: set[int]) -> bool:
        """True once every old worker has exited or closed its listening sockets (it renames
        itself 'worker process is shutting down' right before closing them); until then an old
        worker can still accept a new connection and answer with the old routes."""
        for pid in old_workers:
            try:
                if "shutting down" not in " ".join(psutil.Process(pid).cmdline()):
                    return False
            except psutil.Error:
                continue
        return True

    def _new_emergencies(self, offset: int) -> str | None:
        try:
            with open(self.error_log, "rb") as fh:
                fh.seek(offset)
                text = fh.read().decode(errors="replace")
        except FileNotFoundError:
            return None
        # "bind() ... failed" is logged once per retry (nginx tries 5 times, 0.5 s apart); the
        # attempt is over only at "still could not bind()" or another emergency.
        lines = [ln for ln in text.splitlines() if "[emerg]" in ln and not
                 ("bind() to" in ln and "still could not" not in ln)]
        return lines[-1].split("[emerg]", 1)[1].strip() if lines else None

    def _restore(self):
        for name in ("nginx.conf", INCLUDE_NAME):
            good = self.good_dir / name
            if good.exists():
                atomic_write(self.conf_dir / name, good.read_bytes(), durable=False)
        master = self.master()
        if master is not None:
            before = self.workers()
            master.send_signal(signal.SIGHUP)
            deadline = time.monotonic() + VERIFY_TIMEOUT
            while not (self.workers() - before) and time.monotonic() < deadline:
                time.sleep(0.02)  # let the restored files take over before anyone reloads again
        else:
            try:
                self.start()
            except NginxError:
                pass

    def live_include(self) -> str | None:
        try:
            return (self.conf_dir / INCLUDE_NAME).read_text()
        except FileNotFoundError:
            return None

    def live_main(self) -> str | None:
        try:
            return (self.conf_dir / "nginx.conf").read_text()
        except FileNotFoundError:
            return None

    def running_listen(self) -> tuple[str, int] | None:
        """The address the running master was configured with (its live nginx.conf), or None."""
        if self.master() is None:
            return None
        try:
            match = re.search(r"^\s*listen (\S+):(\d+);", (self.conf_dir / "nginx.conf").read_text(), re.M)
        except FileNotFoundError:
            return None
        return (match.group(1), int(match.group(2))) if match else None


class SystemNginx:
    """A system nginx that includes our file from INCLUDE_DIR (inside one of its server blocks).

    We write the include file atomically, run TEST_COMMAND (if given) and RELOAD_COMMAND, then
    verify through PROBE_URL; on failure the previous include file is restored and reloaded.
    """

    def __init__(self, include_dir: Path, reload_command, test_command=()):
        self.include_dir = Path(include_dir)
        self.reload_command = list(reload_command)
        self.test_command = list(test_command)

    def _run(self, argv, what):
        result = _run(argv)
        if result.returncode != 0:
            raise NginxError(f"{what} failed ({' '.join(argv)}): {result.stderr.strip()}")

    def apply(self, include_text: str, probe_url: str, generation: int, timeout: float = VERIFY_TIMEOUT) -> str:
        path = self.include_dir / INCLUDE_NAME
        old = path.read_text() if path.exists() else None
        if old == include_text:
            return "unchanged"
        atomic_write(path, include_text, mode=0o644)
        try:
            if self.test_command:
                self._run(self.test_command, "nginx test")
            self._run(self.reload_command, "nginx reload")
            self._verify(probe_url, generation, timeout)
        except NginxError:
            if old is None:
                path.unlink(missing_ok=True)
            else:
                atomic_write(path, old, mode=0o644)
            try:
                _run(self.reload_command)
            except NginxError:
                pass  # the error being raised already says the reload command cannot run
            raise
        return "reloaded"

    @staticmethod
    def _verify(probe_url: str, generation: int, timeout: float, settle: float = 0.15):
        """The system master's workers are not ours to list, so an old worker that has not yet
        stopped accepting is ruled out by time: the new generation must answer every probe
        (each on a new connection) for SETTLE seconds."""
        deadline = time.monotonic() + timeout
        first_ok = None
        while True:
            now = time.monotonic()
            if probe_generation(probe_url) == generation:
                first_ok = first_ok or now
                if now - first_ok >= settle:
                    return
            else:
                first_ok = None
            if now > deadline:
                raise NginxError(f"system nginx did not start serving generation {generation} at {probe_url}")
            time.sleep(0.01)

    def live_include(self) -> str | None:
        path = self.include_dir / INCLUDE_NAME
        return path.read_text() if path.exists() else None

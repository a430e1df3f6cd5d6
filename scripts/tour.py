"""The tour behind `make run` / `make stop`.

    .venv/bin/python scripts/tour.py run     # build what the tour shows, start its servers, print URLs
    .venv/bin/python scripts/tour.py stop    # stop every server the tour started

`run` goes through STEPS in order; each step prints one progress line and returns. A step
whose tool is not there yet says so instead of failing the tour. Servers started in the
background leave a pid file in var/tour/ (`<pid> <marker>`); `stop` ends exactly those
processes (it checks the marker against the process's command line first).
"""
from __future__ import annotations

import base64
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VAR = os.environ.get("SOLOSHOP_TOUR_DIR") or os.path.join(ROOT, "var", "tour")
PYTHON = sys.executable
SAMPLE = os.path.join(ROOT, "pm", "samples", "engines-backlog.jsonl")


class Tour:
    """What the steps share: directories, and the URLs and files to print at the end."""

    def __init__(self):
        self.tracker = os.path.join(VAR, "pm")
        self.results: list[str] = []
        self.listen = ""
        self.review_url = ""
        self.second_url = ""
        self.credentials: dict = {}


def say(line: str) -> None:
    print(f"tour: {line}", flush=True)


def pm_env(tour: Tour, role: str = "ceo", session: str = "tour") -> dict:
    return dict(os.environ, PM_DIR=tour.tracker, PM_ROLE=role, PM_SESSION=session)


def run_pm(tour: Tour, *args: str, role: str = "ceo", session: str = "tour") -> str:
    proc = subprocess.run([PYTHON, "-m", "pm.cli", *args], env=pm_env(tour, role, session),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"tour: pm {' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout


# -- steps ---------------------------------------------------------------------------------------
def step_tracker(tour: Tour) -> None:
    """A fresh sample tracker under var/tour/pm: the engines backlog, then a little live work."""
    if os.path.isdir(tour.tracker):
        if not os.path.isfile(os.path.join(tour.tracker, ".pmtracker")):
            raise SystemExit(f"tour: {tour.tracker} exists and is not a pm tracker; move it away")
        shutil.rmtree(tour.tracker)
    os.makedirs(VAR, exist_ok=True)
    run_pm(tour, "init", tour.tracker)
    run_pm(tour, "import", SAMPLE)
    # A few real changes by different sessions, so history and the log show real commits.
    run_pm(tour, "log", "3", "Playwright clicks land on the right points on 9x9 and 13x13.",
           role="worker", session="go-engineer")
    new_id = run_pm(tour, "new", "Go: last-move marker hidden under the hover stone", "--kind", "bug",
                    "--priority", "P2", "--spawned-from", "3",
                    "--problem", "<p>Hovering over the last move hides its marker.</p>",
                    role="worker", session="go-engineer").strip()
    run_pm(tour, "promote", new_id, "--rank", "3")
    sessions_at_work(tour)
    count = len(run_pm(tour, "ls").splitlines())
    say(f"pm tracker with {count} tasks for shipping the engines: {tour.tracker}")
    tour.results.append(f"tracker:   {tour.tracker}")
    tour.results.append(hint(f"PM_DIR={q(tour.tracker)} {q(tool('pm'))} ls"))


def sessions_at_work(tour: Tour) -> None:
    """Two more worker sessions log and file work, and the ceo puts the new bug in the sprint."""
    run_pm(tour, "log", "9", "Five-in-a-row highlight drawn over the winning stones.",
           role="worker", session="gomoku-engineer")
    bug = run_pm(tour, "new", "Quoridor: wall preview flickers on hover", "--kind", "bug", "--priority", "P3",
                 "--spawned-from", "14", "--problem", "<p>The wall preview redraws on every mouse move.</p>",
                 role="worker", session="quoridor-engineer").strip()
    run_pm(tour, "log", bug, "Seen on the review instance; the preview should only move between slots.",
           role="worker", session="quoridor-engineer")
    run_pm(tour, "promote", bug, role="ceo", session="lead")
    run_pm(tour, "log", "3", "Sprint review: task 3 and task 9 get review instances and a demo today.",
           role="ceo", session="lead")


def q(text: str) -> str:
    return shlex.quote(text)


def hint(command: str) -> str:
    """A command the summary prints to paste into a shell (tests/test_tour.py runs every one)."""
    return f"           $ {command}"


def step_pm_web(tour: Tour) -> None:
    """pm's web UI on 127.0.0.1 in the background."""
    try:
        import pm.web.serve  # noqa: F401
    except ImportError as err:
        say(f"pm web UI not available yet ({err}); skipping it")
        return
    url = start_server(["-m", "pm.cli", "serve", "--host", "127.0.0.1", "--port", "0"],
                       name="pm-web", env=pm_env(tour, "human", "tour"))
    say(f"pm web UI: {url}")
    tour.results.append(f"pm web UI: {url}")


# -- the review instance and the demo video ------------------------------------------------------
REVIEW_TASK = "3"  # "Go: board page with click-to-play" in the sample backlog
SECOND_TASK = "17"  # "Arcade: landing page with the three games": the demo is recorded from it
# One short narrated video of the whole arcade: the landing page and every registered game
# (engines/demos/ has a longer demo per game; three of those would take the tour past 5 minutes).
DEMO_SCRIPT = os.path.join(ROOT, "scripts", "arcade_demo.py")


def app_dir() -> str:
    """A clone of this repository: the tour's task branch never touches yours."""
    return os.path.join(VAR, "app")


def instances_home() -> str:
    return os.path.join(VAR, "instances")


def tool(name: str) -> str:
    """A console script installed next to this interpreter (.venv/bin/NAME)."""
    return os.path.join(os.path.dirname(PYTHON), name)


def instances_env(tour: Tour) -> dict:
    env = pm_env(tour, role="worker", session="tour")
    env.update(INSTANCES_HOME=instances_home(), INSTANCES_LISTEN=tour.listen)
    return env


def free_listen(preferred: int = 8080) -> str:
    """127.0.0.1:8080 when it is free, else any free loopback port."""
    for port in (preferred, 0):
        with socket.socket() as sock:
            # as nginx binds: connections of a previous tour in TIME_WAIT do not make 8080 busy
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return f"127.0.0.1:{sock.getsockname()[1]}"
    raise SystemExit("tour: no free loopback port for nginx")


def step_review_instances(tour: Tour) -> None:
    """The arcade on task 3's and task 17's branches behind the private nginx at /task-3/ and
    /task-17/ (basic auth): two `instances up` at once, as two sessions would (each builds its
    worktree's C cores, most of the time here)."""
    stop_instances()
    # A fresh clone and a fresh state directory: a previous tour's instances would otherwise stay
    # on the record (and on the dashboard) pointing at worktrees of the old clone.
    for left in (app_dir(), instances_home()):
        if os.path.isdir(left):
            shutil.rmtree(left)
    app = app_dir()
    subprocess.run(["git", "clone", "-q", ROOT, app], check=True)
    subprocess.run(["git", "-C", app, "checkout", "-q", "-B", "main"], check=True)
    tour.listen = free_listen()
    say(f"starting review instances of the arcade for tasks {REVIEW_TASK} and {SECOND_TASK} at once "
        "(worktree, build, service, nginx)...")
    started = {task: subprocess.Popen([tool("instances"), "up", task], cwd=app, env=instances_env(tour),
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for task in (REVIEW_TASK, SECOND_TASK)}
    answers = {task: (proc.communicate(), proc.returncode) for task, proc in started.items()}
    for task, ((out, err), code) in answers.items():
        if code != 0:
            raise SystemExit(f"tour: instances up {task} failed:\n{err.strip() or out.strip()}")
    urls = {task: out.strip().splitlines()[-1] for task, ((out, _), _) in answers.items()}
    tour.review_url, tour.second_url = urls[REVIEW_TASK], urls[SECOND_TASK]
    auth = subprocess.run([tool("instances"), "auth", "--json"], cwd=app, env=instances_env(tour),
                          capture_output=True, text=True, check=True)
    tour.credentials = json.loads(auth.stdout)
    say(f"review instances: {tour.review_url} and {tour.second_url} (basic auth, user {tour.credentials['user']})")
    tour.results.append(f"review:    {tour.review_url}  (basic auth; this prints the user and password:)")
    tour.results.append(hint(instances_command("auth")))
    tour.results.append(f"review {SECOND_TASK}: {tour.second_url}")


def instances_command(args: str) -> str:
    """`instances ARGS` as pasted into any shell: in the tour's clone, with the tour's state directory."""
    return f"cd {q(app_dir())} && INSTANCES_HOME={q(instances_home())} {q(tool('instances'))} {args}"


def step_dashboard(tour: Tour) -> None:
    """The dashboard at the private nginx's root: both instances, their tasks, memory, the video."""
    url = subprocess.run([tool("instances"), "dashboard"], cwd=app_dir(), env=instances_env(tour),
                         capture_output=True, text=True, check=True).stdout.strip()
    user, password = tour.credentials["user"], tour.credentials["password"]
    request = urllib.request.Request(url + "__instances/overview")
    request.add_header("Authorization", "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode())
    deadline = time.monotonic() + 20  # the supervisor serves it; give it a moment after nginx started
    while True:
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                names = [it["name"] for it in json.load(response)["instances"]]
            break
        except OSError as err:
            if time.monotonic() > deadline:
                raise SystemExit(f"tour: the dashboard at {url} did not answer: {err}")
            time.sleep(0.5)
    say(f"dashboard: {url} shows {', '.join(names)}")
    tour.results.append(f"dashboard: {url}  (every instance, live; the same user and password)")
    tour.results.append(hint(instances_command("ls")))
    tour.results.append(hint(f"PM_DIR={q(tour.tracker)} {q(tool('pm'))} show {SECOND_TASK}"))


def step_demo(tour: Tour) -> None:
    """A narrated video of the arcade (every game), recorded from task 17's review URL and logged
    on task 17."""
    out = os.path.join(VAR, "demo")
    voice = "ElevenLabs" if os.environ.get("ELEVENLABS_API_KEY") else "espeak-ng"
    say(f"recording the narrated demo of the arcade from the review URL of task {SECOND_TASK} ({voice} narration)...")
    env = pm_env(tour, role="worker", session="tour")
    env["DEMO_HTTP_CREDENTIALS"] = f"{tour.credentials['user']}:{tour.credentials['password']}"
    proc = subprocess.run([tool("demo"), "record", DEMO_SCRIPT, "--base-url", tour.second_url,
                           "--out", out, "--task", SECOND_TASK], env=env, cwd=ROOT, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for line in proc.stdout.splitlines():
        print(f"  {line}", flush=True)
    if proc.returncode != 0:
        raise SystemExit(f"tour: the demo recording failed (exit {proc.returncode}); see the lines above")
    tour.results.append(f"video:     {os.path.join(out, 'demo.mp4')}  (logged on task {SECOND_TASK}; "
                        f"report: {os.path.join(out, 'report.html')})")


def stop_instances() -> None:
    """Stop the tour's instances and its private nginx, if a previous tour left them."""
    app, home = app_dir(), instances_home()
    if not os.path.isdir(os.path.join(app, ".git")) or not os.path.isdir(home):
        return
    env = dict(os.environ, INSTANCES_HOME=home)
    for args in (["down", "--all"], ["nginx", "stop"]):
        subprocess.run([tool("instances"), *args], cwd=app, env=env, capture_output=True)


STEPS = [step_tracker, step_pm_web, step_review_instances, step_demo, step_dashboard]


# -- background servers --------------------------------------------------------------------------
def start_server(args: list[str], name: str, env: dict, timeout: float = 30) -> str:
    """Start `python ARGS` detached, wait until it prints its http:// URL and answers; the URL."""
    stop_one(name)
    log_path = os.path.join(VAR, f"{name}.log")
    log = open(log_path, "w")
    proc = subprocess.Popen([PYTHON, *args], stdout=log, stderr=subprocess.STDOUT, env=env,
                            cwd=ROOT, start_new_session=True)
    with open(os.path.join(VAR, f"{name}.pid"), "w") as fh:
        fh.write(f"{proc.pid} {' '.join(args)}\n")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"tour: {name} exited with {proc.returncode}; see {log_path}")
        with open(log_path) as fh:
            m = re.search(r"http://127\.0\.0\.1:\d+/", fh.read())
        if m:
            try:
                urllib.request.urlopen(m.group(0), timeout=2).close()
                return m.group(0)
            except OSError:
                pass
        time.sleep(0.2)
    stop_one(name)
    raise SystemExit(f"tour: {name} did not answer within {timeout:.0f}s; see {log_path}")


def _alive_with(pid: int, marker: str) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return False
    return marker in cmdline


def stop_one(name: str) -> bool:
    path = os.path.join(VAR, f"{name}.pid")
    try:
        with open(path) as fh:
            pid_text, marker = fh.read().strip().split(" ", 1)
    except (OSError, ValueError):
        return False
    pid = int(pid_text)
    stopped = False
    if _alive_with(pid, marker):
        os.kill(pid, signal.SIGTERM)
        for _ in range(50):
            if not _alive_with(pid, marker):
                break
            time.sleep(0.1)
        else:
            os.kill(pid, signal.SIGKILL)
        stopped = True
    os.unlink(path)
    return stopped


def run() -> None:
    tour = Tour()
    os.makedirs(VAR, exist_ok=True)
    for step in STEPS:
        step(tour)
    print("\n".join(["", "The tour is running; open the URLs below (the last command stops it):", *tour.results,
                     "stop:", hint(stop_command())]), flush=True)


def stop_command() -> str:
    """`make stop` as pasted into any shell: in this checkout, for this tour's folder."""
    moved = f"SOLOSHOP_TOUR_DIR={q(VAR)} " if os.environ.get("SOLOSHOP_TOUR_DIR") else ""
    return f"{moved}make -C {q(ROOT)} stop"


def stop() -> None:
    had_instances = os.path.isdir(instances_home())
    stop_instances()
    if had_instances:
        say("stopped the review instances and their nginx")
    names = sorted(n[:-4] for n in os.listdir(VAR) if n.endswith(".pid")) if os.path.isdir(VAR) else []
    stopped = [n for n in names if stop_one(n)]
    say(f"stopped {', '.join(stopped)}" if stopped else "nothing was running")


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("run", "stop"):
        raise SystemExit("usage: tour.py run|stop")
    run() if sys.argv[1] == "run" else stop()

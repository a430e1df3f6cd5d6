"""`make run`'s tour end to end: tracker, pm web UI, two review instances behind the private
nginx, a narrated demo of every game recorded from one and logged on its task, the dashboard;
every printed command run as pasted; then the printed stop command ends every server."""
import base64
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

pytestmark = [pytest.mark.nginx, pytest.mark.chromium, pytest.mark.ffmpeg, pytest.mark.espeak]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOUR = [sys.executable, os.path.join(ROOT, "scripts", "tour.py")]


def status(url, auth=None):
    request = urllib.request.Request(url)
    if auth:
        request.add_header("Authorization", "Basic " + base64.b64encode(auth.encode()).decode())
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as err:
        return err.code


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    var = tmp_path_factory.mktemp("tour")
    # What an earlier tour leaves after `make stop`: its instances on the record, stopped.
    os.makedirs(var / "instances")
    stale = {"name": "task-9", "branch": "task/9-gomoku", "task": 9, "state": "stopped", "port": None,
             "process": None, "worktree": str(var / "instances" / "worktrees" / "task-9"), "created": 1.0,
             "started": 1.0, "stopped": 2.0, "died": None, "owner_pid": None, "owner_time": None}
    (var / "instances" / "registry.json").write_text(json.dumps({"version": 1, "generation": 1,
                                                                 "instances": {"task-9": stale}}))
    env = dict(os.environ, SOLOSHOP_TOUR_DIR=str(var))
    env.pop("ELEVENLABS_API_KEY", None)  # the offline narration, as on a fresh machine
    run = subprocess.run([*TOUR, "run"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=1200)
    try:
        yield var, env, run
    finally:
        subprocess.run([*TOUR, "stop"], env=env, cwd=ROOT, capture_output=True, timeout=120)


# A shell that knows nothing of the tour (the hints must carry every variable they need).
clean = {k: v for k, v in os.environ.items() if not k.startswith(("PM_", "INSTANCES_", "SOLOSHOP_"))}


def printed_commands(run) -> list[str]:
    """The `$ command` lines of the tour's summary, in order."""
    return [line.split("$ ", 1)[1] for line in run.stdout.splitlines() if line.lstrip().startswith("$ ")]


def result(run, label):
    match = re.search(rf"^{label}:\s+(\S+)", run.stdout, re.M)
    assert match, f"no '{label}:' line in the tour's output:\n{run.stdout}\n{run.stderr}"
    return match.group(1)


def test_the_tour_runs_every_step_and_prints_where_things_are(tour):
    var, env, run = tour
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    review = result(run, "review")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/task-3/", review)
    credentials = json.loads(subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "instances"), "auth", "--json"],
        cwd=var / "app", env=dict(env, INSTANCES_HOME=str(var / "instances")),
        capture_output=True, text=True, check=True).stdout)
    auth = f"{credentials['user']}:{credentials['password']}"
    assert status(review) == 401  # the review URL is private
    assert status(review, auth) == 200 and status(review + "go", auth) == 200
    assert status(result(run, "pm web UI")) == 200
    assert status(result(run, "review 17"), auth) == 200
    video = result(run, "video")
    beats = os.path.join(os.path.dirname(video), "beats.json")
    check = subprocess.run([os.path.join(os.path.dirname(sys.executable), "demo"), "check", video, beats],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    # The demo visits every game the arcade registers, each reached from the landing page.
    from engines.web.plugins import registered_games

    with open(beats) as fh:
        names = [b["name"] for b in json.load(fh)]
    assert names[0] == "arcade" and all(f"{g.name}-page" in names for g in registered_games())
    for task_id, url, logged in (("3", review, None), ("17", result(run, "review 17"), video)):
        task = subprocess.run([sys.executable, "-m", "pm.cli", "show", task_id, "--json"], capture_output=True,
                              text=True, env=dict(env, PM_DIR=str(var / "pm")), check=True)
        log = " ".join(entry["html"] for entry in json.loads(task.stdout)["log"])
        assert url in log and (logged is None or logged in log)


def test_every_printed_hint_works_pasted_into_a_shell_and_the_dashboard_shows_both(tour):
    var, env, run = tour
    hints = printed_commands(run)
    assert len(hints) >= 5 and hints[-1].endswith(" stop"), run.stdout
    for command in hints[:-1]:  # from another directory, in a shell that knows nothing of the tour
        done = subprocess.run(["bash", "-c", command], cwd="/", env=clean, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{command}\n{done.stdout}{done.stderr}"
    listing = subprocess.run(["bash", "-c", next(h for h in hints if h.endswith("instances ls"))], env=clean,
                             capture_output=True, text=True).stdout
    review, second = result(run, "review"), result(run, "review 17")
    assert review in listing and second in listing  # the URLs of the running nginx, whatever the shell says
    dashboard = result(run, "dashboard")
    auth = subprocess.run(["bash", "-c", next(h for h in hints if h.endswith("instances auth"))], env=clean,
                          capture_output=True, text=True).stdout
    user, password = (line.split(": ", 1)[1] for line in auth.splitlines()[:2])
    request = urllib.request.Request(dashboard + "__instances/overview")
    request.add_header("Authorization", "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode())
    with urllib.request.urlopen(request, timeout=10) as response:
        shown = {it["name"]: it for it in json.load(response)["instances"]}
    assert set(shown) == {"task-3", "task-17"} and all(it["state"] == "healthy" for it in shown.values())
    assert shown["task-3"]["title"] == "Go: board page with click-to-play"
    assert shown["task-17"]["videos"], "the demo video logged on task 17 is on its card"


def test_the_printed_stop_command_ends_every_server_the_tour_started(tour):
    var, env, run = tour
    review, web = result(run, "review"), result(run, "pm web UI")
    stop = subprocess.run(["bash", "-c", printed_commands(run)[-1]], cwd="/", env=clean, capture_output=True,
                          text=True, timeout=120)
    assert stop.returncode == 0 and "stopped" in stop.stdout, stop.stdout + stop.stderr
    for url in (review, web):
        with pytest.raises(urllib.error.URLError):
            urllib.request.urlopen(url, timeout=5)


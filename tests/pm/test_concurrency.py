"""Many real `pm` processes on one tracker with real git (the bench runs the full figures)."""
import json
import os
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from tests.pm.conftest import PM, git, pm_env, run_pm

PROCS, EACH = 8, 10


def _many_new(root, proc):
    code = ("import sys\nfrom pm.tracker import Tracker\nt = Tracker.find()\n"
            f"print(' '.join(str(t.new('task from %d #%d' % ({proc}, i)).id) for i in range({EACH})))")
    return subprocess.run([sys.executable, "-c", code], env=pm_env(root, session=f"p{proc}"),
                          capture_output=True, text=True, timeout=300)


def test_parallel_new_gives_distinct_numbers_and_one_commit_each(tracker_dir):
    with ThreadPoolExecutor(PROCS) as pool:
        results = list(pool.map(lambda p: _many_new(tracker_dir, p), range(PROCS)))
    assert [r.returncode for r in results] == [0] * PROCS, [r.stderr for r in results]
    ids = [int(i) for r in results for i in r.stdout.split()]
    assert sorted(ids) == list(range(1, PROCS * EACH + 1))
    assert len(os.listdir(tracker_dir / "tasks")) == PROCS * EACH + 1  # + .keep
    assert git(tracker_dir, "rev-list", "--count", "HEAD").strip() == str(PROCS * EACH + 1)
    assert git(tracker_dir, "status", "--porcelain") == ""
    assert run_pm(tracker_dir, "lint").returncode == 0


def test_parallel_cli_new_processes(tracker_dir):
    procs = [subprocess.Popen(PM + ["new", f"cli task {i}"], env=pm_env(tracker_dir, session=f"c{i}"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(PROCS)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * PROCS, outs
    assert sorted(int(o.strip()) for o, _e in outs) == list(range(1, PROCS + 1))


def test_racing_claims_on_one_ready_task_have_exactly_one_winner(tracker_dir):
    run_pm(tracker_dir, "new", "the only ready task", check=True)
    procs = [subprocess.Popen(PM + ["claim", "--next"], env=pm_env(tracker_dir, session=f"r{i}"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(PROCS)]
    outs = [p.communicate(timeout=120) for p in procs]
    codes = [p.returncode for p in procs]
    assert sorted(codes) == [0] + [1] * (PROCS - 1), outs
    winner = codes.index(0)
    assert outs[winner][0].strip() == "1"
    task = json.loads(run_pm(tracker_dir, "show", "1", "--json", check=True).stdout)
    assert (task["status"], task["owner"]) == ("in-progress", f"worker/r{winner}")
    losers = [e for (_o, e), c in zip(outs, codes) if c == 1]
    assert all("no task is ready" in e for e in losers)


def test_concurrent_logs_are_all_kept(tracker_dir):
    run_pm(tracker_dir, "new", "busy task", check=True)
    procs = [subprocess.Popen(PM + ["log", "1", f"entry from session {i}"],
                              env=pm_env(tracker_dir, session=f"l{i}"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(PROCS)]
    assert [p.wait(timeout=120) for p in procs] == [0] * PROCS
    log = json.loads(run_pm(tracker_dir, "show", "1", "--json", check=True).stdout)["log"]
    assert sorted(e["html"] for e in log) == sorted(f"entry from session {i}" for i in range(PROCS))
    assert sorted(e["who"] for e in log) == sorted(f"worker/l{i}" for i in range(PROCS))
    times = [e["time"] for e in log]
    assert times == sorted(times)  # appended in lock order
    assert git(tracker_dir, "rev-list", "--count", "HEAD").strip() == str(2 + PROCS)


def test_kill_9_while_holding_the_lock_leaves_nothing_broken(tracker_dir):
    run_pm(tracker_dir, "new", "victim", check=True)
    before = (next((tracker_dir / "tasks").glob("1-*.html"))).read_text()
    # A pm that takes the lock, writes half a temp file, then hangs (is killed mid-change).
    # Both temp names: pm's former `.{name}.{pid}.tmp` and plumbing.files' mkstemp names.
    code = ("import os, time\nfrom pm.tracker import Tracker\nt = Tracker.find()\n"
            "with t.unit_of_work():\n"
            "    open(os.path.join(t.tasks_dir, '.1-victim.html.99.tmp'), 'w').write('<!DOCTYPE')\n"
            "    open(os.path.join(t.tasks_dir, '.1-victim.html.k3j9x_2a.tmp'), 'w').write('<!DOC')\n"
            "    open(os.path.join(t.root, '.overview.html.0abc_xyz.new'), 'w').write('<!DOC')\n"
            "    print('locked', flush=True)\n    time.sleep(60)\n")
    holder = subprocess.Popen([sys.executable, "-c", code], env=pm_env(tracker_dir, session="dying"),
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    waiting = run_pm(tracker_dir, "log", "1", "must wait", PM_LOCK_TIMEOUT="0.3")
    assert waiting.returncode == 1
    assert "still held" in waiting.stderr and "worker/dying" in waiting.stderr
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(timeout=10)
    # The kernel dropped the dead holder's flock: the next change gets the lock at once (a
    # stale lock would make it fail after PM_LOCK_TIMEOUT instead of the test timing it).
    assert run_pm(tracker_dir, "log", "1", "after the kill", PM_LOCK_TIMEOUT="30").returncode == 0
    task_file = next((tracker_dir / "tasks").glob("1-*.html"))
    assert task_file.read_text().startswith(before[:200])
    assert "after the kill" in task_file.read_text()
    lint = run_pm(tracker_dir, "lint")
    assert lint.returncode == 1 and "temp file left by an interrupted pm" in lint.stdout
    doctor = run_pm(tracker_dir, "doctor")
    assert doctor.returncode == 0
    assert sorted(l for l in doctor.stdout.splitlines() if l.startswith("fixed: removed")) == [
        "fixed: removed .overview.html.0abc_xyz.new", "fixed: removed tasks/.1-victim.html.99.tmp",
        "fixed: removed tasks/.1-victim.html.k3j9x_2a.tmp"]
    assert [p.name for p in (tracker_dir / "tasks").iterdir()] != [] and not [
        p for p in (tracker_dir / "tasks").iterdir() if p.name.startswith(".") and p.name != ".keep"]
    assert task_file.exists()
    assert run_pm(tracker_dir, "lint").returncode == 0


def test_racing_claims_on_many_ready_tasks_each_get_a_different_one(tracker_dir):
    for i in range(PROCS):
        run_pm(tracker_dir, "new", f"ready task {i}", check=True)
    procs = [subprocess.Popen(PM + ["claim", "--next"], env=pm_env(tracker_dir, session=f"m{i}"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(PROCS)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * PROCS, outs
    assert sorted(int(o) for o, _e in outs) == list(range(1, PROCS + 1))
    owners = {t["owner"] for t in json.loads(run_pm(tracker_dir, "ls", "--json", check=True).stdout)}
    assert owners == {f"worker/m{i}" for i in range(PROCS)}

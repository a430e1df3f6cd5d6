"""pm sync through a real bare git remote: clones that create, log and sync - one after the
other and all at once from separate processes - end with every task, one number each, every
log entry, and `pm lint` clean on every clone."""
import json
import subprocess
import sys

import pytest

from tests.pm.conftest import PM, git, pm_env, run_pm


@pytest.fixture
def remote(tmp_path):
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(path)], check=True)
    return path


def clone(remote, path):
    subprocess.run(["git", "clone", "-q", str(remote), str(path)], check=True, capture_output=True)
    return path


def sync(root, session="proc"):
    result = run_pm(root, "sync", session=session)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def tasks(root):
    return {t["title"]: t for t in json.loads(run_pm(root, "ls", "--json", check=True).stdout)}


def full(root, task_id):
    return json.loads(run_pm(root, "show", str(task_id), "--json", check=True).stdout)


def lint_clean(root):
    result = run_pm(root, "lint")
    return result.returncode == 0 and result.stdout.strip() == "ok"


def test_a_fresh_clone_of_the_remote_is_a_working_tracker(tracker, tracker_dir, remote, tmp_path):
    tracker.new("Ship the Go engine")
    first = run_pm(tracker_dir, "sync", str(remote), check=True).stdout
    assert first.splitlines()[0] == f"pm sync {remote} main: received 0 commit(s), sent 2"
    assert "is now this clone's origin" in first
    laptop = clone(remote, tmp_path / "laptop")  # a plain git clone, nothing else
    assert list(tasks(laptop)) == ["Ship the Go engine"] and lint_clean(laptop)
    assert run_pm(laptop, "new", "Gomoku API", session="laptop").stdout.strip() == "2"
    assert "sent 1" in sync(laptop)
    assert "received 1 commit(s), sent 0" in sync(tracker_dir)  # no argument: origin now
    assert list(tasks(tracker_dir)) == ["Ship the Go engine", "Gomoku API"] and lint_clean(tracker_dir)


def test_same_numbers_are_renumbered_on_the_side_that_has_not_pushed(tracker, tracker_dir, remote, tmp_path):
    tracker.new("base")
    run_pm(tracker_dir, "sync", str(remote), check=True)
    a, b = clone(remote, tmp_path / "a"), clone(remote, tmp_path / "b")
    assert run_pm(a, "new", "from a", "--related", "1", session="a").stdout.strip() == "2"
    run_pm(a, "log", "1", "a was here", session="a", check=True)
    sync(a, "a")
    assert run_pm(b, "new", "from b", "--blocked-by", "1", session="b").stdout.strip() == "2"
    assert run_pm(b, "new", "b again", "--related", "2", session="b").stdout.strip() == "3"
    run_pm(b, "log", "1", "b was here", session="b", check=True)
    run_pm(b, "set", "1", "-p", "P0", session="b", check=True)
    report = sync(b, "b")
    assert "#2 (made here, not pushed yet) is now #4 (tasks/4-from-b.html): the remote has its own #2" in report
    assert "merged tasks/1-base.html: both sides changed it" in report
    sync(a, "a")
    for root in (a, b):
        ids = {title: t["id"] for title, t in tasks(root).items()}
        assert ids == {"base": 1, "from a": 2, "b again": 3, "from b": 4}
        base = full(root, 1)
        assert {(l["type"], l["id"]) for l in base["links"]} == {("related", 2), ("blocks", 4)}
        assert sorted(e["html"] for e in base["log"]) == ["a was here", "b was here"]
        assert base["priority"] == "P0"
        assert full(root, 3)["links"] == [{"type": "related", "id": 4}]  # followed the renumber
        assert lint_clean(root)
    assert git(a, "rev-parse", "HEAD") == git(b, "rev-parse", "HEAD")
    assert run_pm(b, "next").stdout.strip() == "5"


def test_a_field_changed_on_both_sides_keeps_the_later_and_says_so(tracker, tracker_dir, remote, tmp_path):
    tracker.new("contested")
    run_pm(tracker_dir, "sync", str(remote), check=True)
    a, b = clone(remote, tmp_path / "a"), clone(remote, tmp_path / "b")
    run_pm(a, "set", "1", "-p", "P3", session="a", check=True)
    sync(a, "a")
    # b's change is later (pm:updated has whole seconds)
    subprocess.run(["sleep", "1.1"], check=True)
    run_pm(b, "set", "1", "-p", "P0", session="b", check=True)
    sync(b, "b")
    task = full(b, 1)
    assert task["priority"] == "P0"
    assert task["log"][-1]["who"] == "pm/sync"
    assert "pm:priority was P3 on the other clone" in task["log"][-1]["html"]
    assert lint_clean(b)


def test_sprint_ranks_that_clash_after_a_merge_are_renumbered(tracker, tracker_dir, remote, tmp_path):
    for title in ("one", "two", "three", "four", "five"):
        tracker.new(title)
    for task_id in (1, 2, 3):
        run_pm(tracker_dir, "promote", str(task_id), role="ceo", check=True)
    run_pm(tracker_dir, "sync", str(remote), check=True)
    a, b = clone(remote, tmp_path / "a"), clone(remote, tmp_path / "b")
    run_pm(a, "promote", "4", "--rank", "1", role="ceo", session="a", check=True)  # both at rank 1
    run_pm(b, "promote", "5", "--rank", "1", role="ceo", session="b", check=True)
    run_pm(b, "demote", "2", role="ceo", session="b", check=True)  # and a gap on b's side
    sync(a, "a")
    report = sync(b, "b")
    assert "sprint ranks renumbered after the merge (they clashed or had gaps)" in report
    sync(a, "a")
    for root in (a, b):
        sprint = json.loads(run_pm(root, "sprint", "--json", check=True).stdout)
        assert [(t["id"], t["sprint"]) for t in sprint] == [(4, 1), (5, 2), (1, 3), (3, 4)]
        assert lint_clean(root)
    assert "PM-Sprint: sync renumbers the merged sprint ranks" in git(b, "log", "-1", "--format=%B", "HEAD")


def test_refusals_name_the_problem_and_the_fix(tracker, tracker_dir, remote, tmp_path):
    result = run_pm(tracker_dir, "sync")
    assert result.returncode == 1 and "no remote to sync with: give one (pm sync PATH-OR-URL)" in result.stderr
    run_pm(tracker_dir, "sync", str(remote), check=True)
    other = tmp_path / "other"
    run_pm(other, "init", check=True)
    result = run_pm(other, "sync", str(remote))
    assert result.returncode == 1
    assert "shares no history with this tracker: clone it instead (git clone" in result.stderr


WORKER = r"""
import json, random, subprocess, sys
pm, clone, name, rounds = sys.argv[1:2], sys.argv[2], sys.argv[3], int(sys.argv[4])
def run(*args):
    return subprocess.run([sys.executable, "-m", "pm.cli", *args], capture_output=True, text=True)
random.seed(name)
done, failures = [], []
for k in range(rounds):
    made = run("new", f"{name} task {k}")
    if made.returncode:
        failures.append(made.stderr)
    listed = json.loads(run("ls", "--json").stdout)
    target = random.choice(listed)
    message = f"{name} note {k}"
    logged = run("log", str(target["id"]), message)
    (done.append([target["title"], message]) if logged.returncode == 0 else failures.append(logged.stderr))
    synced = run("sync")
    if synced.returncode:
        failures.append(synced.stderr)
print(json.dumps({"logged": done, "failures": failures}))
"""


def test_clones_creating_logging_and_syncing_at_once_lose_nothing(tracker, tracker_dir, remote, tmp_path):
    tracker.new("seed")
    run_pm(tracker_dir, "sync", str(remote), check=True)
    names, rounds = ["alpha", "beta", "gamma"], 4
    clones = {n: clone(remote, tmp_path / n) for n in names}
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, "pm", str(clones[n]), n, str(rounds)],
                                env=pm_env(clones[n], session=n), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for n in names]
    results = []
    for worker in workers:
        out, err = worker.communicate(timeout=600)
        assert worker.returncode == 0, err
        results.append(json.loads(out))
    assert [r["failures"] for r in results] == [[], [], []]
    for _round in range(2):  # settle: everyone receives everything
        for n in names:
            sync(clones[n], n)
    expected = {"seed"} | {f"{n} task {k}" for n in names for k in range(rounds)}
    exports = []
    for n in names:
        root = clones[n]
        listed = json.loads(run_pm(root, "ls", "--json", check=True).stdout)
        ids = [t["id"] for t in listed]
        assert len(ids) == len(set(ids)) == len(expected)  # no duplicate number, none lost
        assert {t["title"] for t in listed} == expected
        logs = {t["title"]: {e["html"] for e in full(root, t["id"])["log"]} for t in listed}
        for result in results:
            for title, message in result["logged"]:
                assert message in logs[title], (n, title, message)
        assert lint_clean(root), run_pm(root, "lint").stdout
        exports.append(run_pm(root, "export", check=True).stdout)
    assert exports[0] == exports[1] == exports[2]
    assert git(clones["alpha"], "status", "--porcelain") == ""

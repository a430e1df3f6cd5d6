"""Two clones that change different tasks merge with zero conflicts, overview included."""
import json
import subprocess

from tests.pm.conftest import git, run_pm


def test_two_clones_merge_without_conflicts(tracker, tracker_dir, tmp_path):
    for title in ("Go board page", "Gomoku API", "Quoridor walls"):
        tracker.new(title)
    a, b = tmp_path / "a", tmp_path / "b"
    git(tmp_path, "clone", "-q", str(tracker_dir), str(a))
    git(tmp_path, "clone", "-q", str(tracker_dir), str(b))
    assert run_pm(a, "start", "1", session="alice").returncode == 0
    assert run_pm(a, "log", "1", "alice was here", session="alice").returncode == 0
    assert run_pm(b, "done", "2", session="bob").returncode == 0
    assert run_pm(b, "promote", "3", role="ceo", session="bob").returncode == 0
    ident = ["-c", "user.name=t", "-c", "user.email=t@t"]
    merge = subprocess.run(["git", "-C", str(a), *ident, "pull", "-q", "--no-rebase", "--no-edit",
                            str(b), "main"], capture_output=True, text=True)
    assert merge.returncode == 0, merge.stdout + merge.stderr
    assert "CONFLICT" not in merge.stdout + merge.stderr
    assert git(a, "status", "--porcelain") == ""
    # the post-merge hook regenerated the overview from the merged task files and committed it
    assert run_pm(a, "lint").returncode == 0, run_pm(a, "lint").stdout
    overview = (a / "overview.html").read_text()
    assert "in-progress (1)</h3>" in overview and "done (1)</h3>" in overview
    assert '<h2 id="sprint">Sprint (1)</h2>' in overview
    assert git(a, "log", "-1", "--format=%s").strip() == "pm: regenerate overview"


def test_clones_that_both_created_a_task_merge_and_doctor_renumbers(tracker, tracker_dir, tmp_path):
    tracker.new("base")
    a, b = tmp_path / "a", tmp_path / "b"
    git(tmp_path, "clone", "-q", str(tracker_dir), str(a))
    git(tmp_path, "clone", "-q", str(tracker_dir), str(b))
    assert run_pm(a, "new", "from alice", "--related", "1", session="alice").stdout.strip() == "2"
    assert run_pm(b, "new", "from bob", "--blocked-by", "1", session="bob").stdout.strip() == "2"
    ident = ["-c", "user.name=t", "-c", "user.email=t@t"]
    merge = subprocess.run(["git", "-C", str(a), *ident, "pull", "-q", "--no-rebase", "--no-edit",
                            str(b), "main"], capture_output=True, text=True)
    # Both added a link line to task 1 at the same place: git reports that one conflict.
    if merge.returncode != 0:
        assert "tasks/1-base.html" in merge.stdout + merge.stderr
        path = a / "tasks" / "1-base.html"
        path.write_text(_keep_both_links(path.read_text()))
        git(a, *ident, "commit", "-qam", "merge: keep both links")
    lint = run_pm(a, "lint")
    assert lint.returncode == 1 and "duplicate id 2" in lint.stdout
    doctor = run_pm(a, "doctor", "--renumber")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "is now #3" in doctor.stdout
    assert run_pm(a, "lint").returncode == 0, run_pm(a, "lint").stdout
    tasks = {t["title"]: t["id"] for t in json.loads(run_pm(a, "ls", "--json").stdout)}
    assert sorted(tasks.values()) == [1, 2, 3] and tasks["base"] == 1
    links = {(l["type"], l["id"]) for l in json.loads(run_pm(a, "show", "1", "--json").stdout)["links"]}
    assert links == {("related", tasks["from alice"]), ("blocks", tasks["from bob"])}
    assert run_pm(a, "next").stdout.strip() == "4"
    assert git(a, "status", "--porcelain") == ""


def _keep_both_links(text: str) -> str:
    """Resolve conflict hunks as a person would: both sides' link lines, our side otherwise."""
    out, ours, theirs, side = [], [], [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("<<<<<<<"):
            side, ours, theirs = "ours", [], []
        elif line.startswith("=======") and side:
            side = "theirs"
        elif line.startswith(">>>>>>>") and side:
            links = all(l.startswith("<li data-type=") for l in ours + theirs)
            out += ours + (theirs if links else [])
            side = None
        elif side == "ours":
            ours.append(line)
        elif side == "theirs":
            theirs.append(line)
        else:
            out.append(line)
    return "".join(out)

"""Two clones that change different tasks merge with zero conflicts, overview included."""
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

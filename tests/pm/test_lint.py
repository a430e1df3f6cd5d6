"""pm lint with seeded faults, and pm doctor repairing the safe ones."""
import json

from tests.pm.conftest import git, run_pm


def _file(root, task_id):
    return next((root / "tasks").glob(f"{task_id}-*.html"))


def test_clean_tracker_lints_ok(tracker):
    tracker.new("A")
    tracker.new("B", links=[("blocked-by", 1)])
    assert run_pm(tracker.root, "lint").returncode == 0


def test_seeded_faults_are_each_reported(tracker, tracker_dir):
    for title in ("one", "two", "three", "four", "five"):
        tracker.new(title)
    tracker.link(1, "related", 2)
    # 1: bad value; 2: file name vs id; 3: duplicate id (copy of 4); 4: broken link; 5: cycle with 4
    p1 = _file(tracker_dir, 1)
    p1.write_text(p1.read_text().replace('pm:priority" content="P2"', 'pm:priority" content="P9"'))
    p2 = _file(tracker_dir, 2)
    p2.rename(tracker_dir / "tasks" / "20-two.html")
    (tracker_dir / "tasks" / "4-copy.html").write_text(_file(tracker_dir, 4).read_text())
    tracker_file5 = _file(tracker_dir, 5)
    text5 = tracker_file5.read_text().replace(
        "<ul>\n", '<ul>\n<li data-type="blocks" data-id="4">blocks <a href="4-four.html">#4</a></li>\n'
                  '<li data-type="blocked-by" data-id="4">blocked-by <a href="4-four.html">#4</a></li>\n'
                  '<li data-type="related" data-id="77">related <a href="77-x.html">#77</a></li>\n')
    tracker_file5.write_text(text5)
    (tracker_dir / "tasks" / "3-three.html").write_text("<html><body>no pm structure</body></html>\n")
    result = run_pm(tracker_dir, "lint", "--json")
    assert result.returncode == 1
    faults = {(f["path"], f["problem"].split(":")[0]) for f in json.loads(result.stdout)}
    problems = " | ".join(f["path"] + " " + f["problem"] for f in json.loads(result.stdout))
    assert "tasks/1-one.html pm:priority 'P9' is not one of P0, P1, P2, P3" in problems
    assert "tasks/20-two.html file name says 20 but pm:id says 2" in problems
    assert "tasks/3-three.html no </head> line" in problems
    assert "duplicate id 4" in problems
    assert "broken link: related #77 does not exist" in problems
    assert "dependency cycle: #4 -> #5" in problems
    assert "overview.html differs from the task files" in problems
    assert "lacks the inverse link" in problems  # 5 blocks 4, but 4 has no blocked-by 5
    assert len(faults) >= 8


def test_doctor_repairs_links_overview_and_inverse_links(tracker, tracker_dir):
    tracker.new("A")
    tracker.new("B")
    p2 = _file(tracker_dir, 2)
    p2.write_text(p2.read_text().replace(
        "<ul>\n", '<ul>\n<li data-type="blocked-by" data-id="1">blocked-by <a href="1-old-name.html">#1</a></li>\n'))
    (tracker_dir / "overview.html").write_text("stale\n")
    (tracker_dir / ".gitattributes").write_text("*.png binary\n")
    lint = run_pm(tracker_dir, "lint")
    assert lint.returncode == 1 and "pm doctor repairs this" in lint.stdout
    assert "merges of two clones would conflict" in lint.stdout
    doctor = run_pm(tracker_dir, "doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "link to #1 now points at 1-a.html" in doctor.stdout
    assert "added blocks #2" in doctor.stdout
    assert ".gitattributes: added the overview merge driver line" in doctor.stdout
    assert (tracker_dir / ".gitattributes").read_text() == "*.png binary\noverview.html merge=pm-overview\n"
    assert run_pm(tracker_dir, "lint").returncode == 0
    assert git(tracker_dir, "status", "--porcelain") == ""
    assert git(tracker_dir, "log", "-1", "--format=%s").strip() == "pm: doctor repairs"

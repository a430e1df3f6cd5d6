"""Sharded trackers (pm doctor --shard): task files in folders of a thousand, the overview in
one page per folder, each folder's own listing file; every change keeps `pm lint` clean and
the overview equal to a full render, with real git and real pm processes."""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from pm import store
from pm.layout import file_of, href, shard_of
from pm.web.static import render_board
from tests.pm.conftest import git, pm_env, run_pm


def records(ids, links=()):
    out = [{"id": i, "title": f"task {i}", "priority": "P1" if i % 2 else "P2"} for i in ids]
    for rec in out:
        rec["links"] = [{"type": "blocked-by", "id": other} for task, other in links if task == rec["id"]]
    return out


def import_records(root, recs, tmp_path):
    data = tmp_path / "records.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in recs))
    run_pm(root, "import", str(data), check=True)


def lint(root):
    result = run_pm(root, "lint")
    assert (result.returncode, result.stdout.strip()) == (0, "ok"), result.stdout + result.stderr


def overview_is_a_full_render(tracker):
    expected = tracker.overview_files()
    present = {f"overview/{n}" for n in os.listdir(os.path.join(tracker.root, "overview"))}
    assert present | {"overview.html"} == set(expected)
    for rel, text in expected.items():
        with open(os.path.join(tracker.root, rel), encoding="utf-8", newline="") as fh:
            assert fh.read() == text, rel


def test_layout_names_and_links():
    assert shard_of(1) == "0xxx" and shard_of(999) == "0xxx" and shard_of(12345) == "12xxx"
    assert href("0xxx/5-a.html", "0xxx/7-b.html") == "7-b.html"
    assert href("0xxx/5-a.html", "12xxx/12345-b.html") == "../12xxx/12345-b.html"
    assert href("5-a.html", "7-b.html") == "7-b.html"  # a flat tracker: unchanged


def test_doctor_shard_moves_every_file_and_rewrites_links(tracker, tracker_dir, tmp_path):
    import_records(tracker_dir, records([5, 998, 1000, 2500], links=[(1000, 5), (2500, 998)]), tmp_path)
    result = run_pm(tracker_dir, "doctor", "--shard")
    assert result.returncode == 0, result.stderr
    assert "fixed: moved 4 task files into 3 folders of a thousand" in result.stdout
    assert sorted(os.listdir(tracker_dir / "tasks")) == [".keep", "0xxx", "1xxx", "2xxx"]
    assert file_of(str(tracker_dir / "tasks"), 1000) == "1xxx/1000-task-1000.html"
    text = (tracker_dir / "tasks" / "1xxx" / "1000-task-1000.html").read_text()
    assert '<a href="../0xxx/5-task-5.html">#5</a>' in text  # the link crosses folders
    assert '<a href="../../overview.html">overview</a>' in text
    peer = (tracker_dir / "tasks" / "0xxx" / "5-task-5.html").read_text()
    assert '<a href="../1xxx/1000-task-1000.html">#1000</a>' in peer
    assert sorted(os.listdir(tracker_dir / "overview")) == ["0xxx.html", "1xxx.html", "2xxx.html"]
    assert git(tracker_dir, "status", "--porcelain") == ""
    assert git(tracker_dir, "config", "core.splitIndex").strip() == "true"
    lint(tracker_dir)
    overview_is_a_full_render(tracker)
    again = run_pm(tracker_dir, "doctor", "--shard")  # nothing more to do
    assert again.returncode == 0 and "moved" not in again.stdout
    subjects = [e.message.splitlines()[0] for e in tracker.history(1000)]  # from before the move too
    assert subjects[0].startswith("pm: shard tasks/") and subjects[-1] == "pm: import 4 tasks"
    hrefs = set(re.findall(r'href="(tasks/[^"]+)"', render_board(tracker)))
    assert len(hrefs) == 4 and all(os.path.isfile(tracker_dir / h) for h in hrefs)


def test_changes_in_a_sharded_tracker_keep_lint_clean_and_the_overview_whole(ceo, tracker_dir, tmp_path):
    import_records(tracker_dir, records([1, 2, 999]), tmp_path)
    run_pm(tracker_dir, "doctor", "--shard", check=True)
    new = run_pm(tracker_dir, "new", "crosses a folder", "--blocked-by", "999", check=True).stdout.strip()
    assert new == "1000"  # the first task of a folder that did not exist
    assert (tracker_dir / "tasks" / "1xxx" / "1000-crosses-a-folder.html").is_file()
    run_pm(tracker_dir, "status", "2", "review", check=True)
    run_pm(tracker_dir, "log", "999", "a note", check=True)
    run_pm(tracker_dir, "link", "1", "related", "1000", check=True)
    import_records(tracker_dir, [{"id": 3500, "title": "imported later",
                                  "links": [{"type": "blocked-by", "id": 1}]}], tmp_path)
    assert "../0xxx/1-task-1.html" in (tracker_dir / "tasks" / "3xxx" / "3500-imported-later.html").read_text()
    ceo.promote(1000)
    ceo.promote(2, 1)
    assert [t.id for t in ceo.sprint()] == [2, 1000]
    for t in ceo.all():
        assert ceo.get(t.id).id == t.id
    assert {t.id for t in ceo.ready(rows=True)} == {1, 999}  # 2 in review, 1000 and 3500 blocked
    lint(tracker_dir)
    overview_is_a_full_render(ceo)
    ls = run_pm(tracker_dir, "ls", check=True).stdout
    assert "1000  open" in ls and "crosses a folder" in ls
    assert git(tracker_dir, "status", "--porcelain") == ""


def test_a_failed_change_in_a_new_folder_leaves_nothing(tracker, tracker_dir, tmp_path):
    import_records(tracker_dir, records([999]), tmp_path)
    run_pm(tracker_dir, "doctor", "--shard", check=True)
    head = git(tracker_dir, "rev-parse", "HEAD")
    hook = tracker_dir / ".git" / "index.lock"  # git cannot stage: the commit fails
    hook.write_text("")
    try:
        result = run_pm(tracker_dir, "new", "never lands")
    finally:
        hook.unlink()
    assert result.returncode == 1
    assert not (tracker_dir / "tasks" / "1xxx").exists()
    assert git(tracker_dir, "rev-parse", "HEAD") == head
    assert git(tracker_dir, "status", "--porcelain") == ""
    lint(tracker_dir)


def test_lint_wants_the_pages_merge_driver_and_doctor_adds_it(tracker, tracker_dir, tmp_path):
    import_records(tracker_dir, records([3]), tmp_path)
    run_pm(tracker_dir, "doctor", "--shard", check=True)
    (tracker_dir / ".gitattributes").write_text("overview.html merge=pm-overview\n")
    result = run_pm(tracker_dir, "lint")
    assert result.returncode == 1
    assert ".gitattributes:1: no 'overview/*.html merge=pm-overview' line" in result.stdout
    assert "fixed: .gitattributes: added the overview merge driver line" in run_pm(
        tracker_dir, "doctor", check=True).stdout
    lint(tracker_dir)


def test_lint_names_a_file_outside_its_folder(tracker, tracker_dir, tmp_path):
    import_records(tracker_dir, records([3]), tmp_path)
    run_pm(tracker_dir, "doctor", "--shard", check=True)
    os.rename(tracker_dir / "tasks" / "0xxx" / "3-task-3.html", tracker_dir / "tasks" / "3-task-3.html")
    result = run_pm(tracker_dir, "lint")
    assert result.returncode == 1
    assert "tasks/3-task-3.html:1: task file outside its folder" in result.stdout


def test_a_big_sharded_listing_reads_only_the_folder_that_changed(tracker, tracker_dir, tmp_path):
    ids = [k * 1000 + 1 for k in range(25)]  # 25 folders: above FULL_CHECK_LIMIT's 20,000 numbers
    import_records(tracker_dir, records(ids), tmp_path)
    run_pm(tracker_dir, "doctor", "--shard", check=True)
    assert [t.id for t in tracker.list()] == ids
    listing = store.shard_listing_dir(tracker.paths.listing)
    made = {n: os.stat(os.path.join(listing, n)).st_mtime_ns for n in os.listdir(listing) if n.endswith("xxx.marshal")}
    assert len(made) == 25
    # A listing made within RACY_NS of its folder's change is not trusted: let them age.
    old = (os.stat(tracker_dir / "tasks").st_mtime_ns - 10 * store.RACY_NS) / 1e9
    for shard in os.listdir(tracker_dir / "tasks"):
        if shard.endswith("xxx"):
            os.utime(tracker_dir / "tasks" / shard, (old, old))
    [t.id for t in tracker.list()]
    made = {n: os.stat(os.path.join(listing, n)).st_mtime_ns for n in made}
    run_pm(tracker_dir, "status", "5001", "done", check=True)
    assert {t.id: t.status for t in tracker.list()}[5001] == "done"
    after = {n: os.stat(os.path.join(listing, n)).st_mtime_ns for n in made}
    assert [n for n in made if after[n] != made[n]] == ["5xxx.marshal"]
    # A file added behind pm's back changes its folder: seen at once.
    source = (tracker_dir / "tasks" / "7xxx" / "7001-task-7001.html").read_text()
    (tracker_dir / "tasks" / "7xxx" / "7002-task-7002.html").write_text(
        source.replace('content="7001"', 'content="7002"').replace("#7001", "#7002"))
    assert 7002 in {t.id for t in tracker.list()}


def _many_new(root, proc, each):
    code = ("from pm.tracker import Tracker\nt = Tracker.find()\n"
            f"print(' '.join(str(t.new('task from %d #%d' % ({proc}, i)).id) for i in range({each})))")
    return subprocess.run([sys.executable, "-c", code], env=pm_env(root, session=f"p{proc}"),
                          capture_output=True, text=True, timeout=300)


def test_parallel_new_processes_across_a_folder_boundary(tracker, tracker_dir, tmp_path):
    import_records(tracker_dir, records([990]), tmp_path)  # the next numbers cross into 1xxx
    run_pm(tracker_dir, "doctor", "--shard", check=True)
    procs, each = 8, 5
    with ThreadPoolExecutor(procs) as pool:
        results = list(pool.map(lambda p: _many_new(tracker_dir, p, each), range(procs)))
    assert [r.returncode for r in results] == [0] * procs, [r.stderr for r in results]
    ids = sorted(int(i) for r in results for i in r.stdout.split())
    assert ids == list(range(991, 991 + procs * each))
    assert len(os.listdir(tracker_dir / "tasks" / "1xxx")) == 991 + procs * each - 1000
    assert git(tracker_dir, "status", "--porcelain") == ""
    lint(tracker_dir)
    overview_is_a_full_render(tracker)


@pytest.fixture
def remote(tmp_path):
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(path)], check=True)
    return path


def test_sharded_clones_sync(tracker, tracker_dir, remote, tmp_path):
    import_records(tracker_dir, records([1, 998]), tmp_path)
    run_pm(tracker_dir, "doctor", "--shard", check=True)
    run_pm(tracker_dir, "sync", str(remote), check=True)
    laptop = tmp_path / "laptop"
    subprocess.run(["git", "clone", "-q", str(remote), str(laptop)], check=True, capture_output=True)
    assert run_pm(laptop, "new", "from the laptop", session="laptop", check=True).stdout.strip() == "999"
    assert run_pm(tracker_dir, "new", "from the desk", check=True).stdout.strip() == "999"
    run_pm(laptop, "sync", session="laptop", check=True)
    report = run_pm(tracker_dir, "sync", check=True).stdout
    assert "#999 (made here, not pushed yet) is now #1000 (tasks/1xxx/1000-from-the-desk.html)" in report
    run_pm(laptop, "sync", session="laptop", check=True)
    for root in (tracker_dir, laptop):
        listed = json.loads(run_pm(root, "ls", "--json", check=True).stdout)
        assert [(t["id"], t["title"]) for t in listed][-2:] == [(999, "from the laptop"), (1000, "from the desk")]
        lint(root)
    assert git(laptop, "config", "core.splitIndex").strip() == "true"  # a clone's first change set it


def test_a_big_flat_tracker_is_advised_to_shard(tracker, monkeypatch):
    import pm.tracker

    for title in ("one", "two", "three"):
        tracker.new(title)
    assert tracker.shard_advice() is None  # small: no advice
    monkeypatch.setattr(pm.tracker, "SHARD_ADVICE_AT", 3)
    advice = tracker.shard_advice()
    assert advice.startswith("3 task files in one folder") and "pm doctor --shard" in advice
    tracker.doctor(shard=True)
    assert tracker.shard_advice() is None  # sharded: nothing left to advise

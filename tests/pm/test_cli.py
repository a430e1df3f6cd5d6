"""The CLI in-process (click's CliRunner) against a real tracker and real git."""
import json
import os

import pytest
from click.testing import CliRunner

from pm.commands import cli
from tests.pm.conftest import git


@pytest.fixture
def pm(tracker_dir):
    runner = CliRunner()

    def invoke(*args, role="worker", code=0, input=None):
        result = runner.invoke(cli, list(args), env={"PM_ROLE": role, "PM_SESSION": "cli"},
                               input=input, catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output
    return invoke


def test_new_prints_the_number_and_ls_json_has_the_contract_fields(pm, tracker_dir):
    assert pm("new", "Ship the Go board page", "-p", "P1", "-k", "feature").strip() == "1"
    assert pm("new", "Second").strip() == "2"
    items = json.loads(pm("ls", "--json"))
    assert items == [
        {"id": 1, "title": "Ship the Go board page", "status": "open", "priority": "P1", "kind": "feature"},
        {"id": 2, "title": "Second", "status": "open", "priority": "P2", "kind": "task"}]
    assert json.loads(pm("ls", "--json", "-p", "P1"))[0]["id"] == 1
    assert json.loads(pm("ls", "--json", "--text", "second"))[0]["id"] == 2
    assert json.loads(pm("ls", "--json", "--kind", "bug")) == []
    assert pm("next").strip() == "3"
    log = git(tracker_dir, "log", "--format=%an|%s", "-2")
    assert log.splitlines()[0] == 'worker/cli|pm: new #2 "Second"'
    assert "tasks/1-ship-the-go-board-page.html" in git(tracker_dir, "ls-files")


def test_each_change_is_one_commit_of_exactly_the_touched_paths(pm, tracker_dir):
    pm("new", "A")
    pm("new", "B")
    (tracker_dir / "notes.txt").write_text("not pm's\n")
    pm("log", "1", "looked at it")
    files = git(tracker_dir, "show", "--name-only", "--format=", "HEAD").split()
    assert files == ["tasks/1-a.html"]  # overview unchanged by a log entry
    pm("start", "2")
    files = git(tracker_dir, "show", "--name-only", "--format=", "HEAD").split()
    assert files == ["overview.html", "tasks/2-b.html"]
    assert "notes.txt" in git(tracker_dir, "status", "--porcelain")
    body = git(tracker_dir, "log", "-1", "--format=%B")
    assert "PM-Role: worker" in body and "PM-Session: cli" in body


def test_start_and_status_are_compare_and_set(pm):
    pm("new", "A")
    pm("start", "1")
    out = pm("start", "1", code=1)
    assert "task 1 is in-progress, not open" in out
    pm("status", "1", "review", "--from", "in-progress")
    assert "task 1 is review, not open" in pm("status", "1", "done", "--from", "open", code=1)
    pm("done", "1")
    assert json.loads(pm("show", "1", "--json"))["status"] == "done"
    assert "not allowed" in pm("status", "1", "finished", code=1)


def test_claim_next_follows_sprint_then_priority_and_exits_1_when_nothing_is_ready(pm):
    pm("new", "low", "-p", "P3")
    pm("new", "high", "-p", "P0")
    pm("new", "sprint pick", "-p", "P3")
    pm("promote", "3", role="ceo")
    assert pm("claim", "--next").strip() == "3"
    assert pm("claim", "--next").strip() == "2"
    assert pm("claim", "--next").strip() == "1"
    assert "no task is ready" in pm("claim", "--next", code=1)
    assert json.loads(pm("show", "1", "--json"))["owner"] == "worker/cli"


def test_ready_blocked_and_cycles(pm):
    pm("new", "base")
    pm("new", "needs base", "--blocked-by", "1")
    pm("new", "x")
    pm("new", "y")
    pm("link", "3", "blocks", "4")
    pm("link", "4", "blocks", "3")
    assert [t["id"] for t in json.loads(pm("ready", "--json"))] == [1]
    blocked = {b["id"]: b for b in json.loads(pm("blocked", "--json"))}
    assert blocked[2]["blocked_by"] == [1] and not blocked[2]["cycle"]
    assert blocked[3]["cycle"] and blocked[4]["cycle"]
    assert "dependency cycle: #3 -> #4" in pm("lint", code=1)
    pm("done", "1")
    assert [t["id"] for t in json.loads(pm("ready", "--json"))] == [2]
    # the inverse link was written on the other task too
    assert ["blocks", 2] in [[l["type"], l["id"]] for l in json.loads(pm("show", "1", "--json"))["links"]]


def test_only_the_ceo_changes_the_sprint_and_audit_finds_changes_without_trailer(pm, tracker_dir):
    pm("new", "A")
    pm("new", "B")
    assert "only the ceo role may promote" in pm("promote", "1", code=1)
    assert "only the ceo role may rank" in pm("rank", "1", "1", code=1)
    pm("promote", "1", role="ceo")
    pm("promote", "2", "--rank", "1", role="ceo")
    assert [t["id"] for t in json.loads(pm("sprint", "--json"))] == [2, 1]
    pm("rank", "1", "1", role="ceo")
    assert [(t["id"], t["sprint"]) for t in json.loads(pm("sprint", "--json"))] == [(1, 1), (2, 2)]
    assert "PM-Sprint: rank #1" in git(tracker_dir, "log", "-1", "--format=%B")
    assert pm("audit").strip() == "ok"
    # A hand edit that sneaks task 2 out of the sprint, committed without the trailer.
    path = next((tracker_dir / "tasks").glob("2-*.html"))
    path.write_text(path.read_text().replace('pm:sprint" content="2">', 'pm:sprint" content="">'))
    git(tracker_dir, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-qam", "sneaky")
    findings = json.loads(pm("audit", "--json", code=1))
    assert [(f["task_id"], f["change"], f["problem"]) for f in findings] == [(2, "'2' -> ''", "no PM-Sprint trailer")]
    pm("demote", "1", role="ceo")
    assert json.loads(pm("sprint", "--json")) == []


def test_set_and_log_keep_human_text(pm, tracker_dir):
    pm("new", "A", "--problem", "<p>orig</p>")
    path = next((tracker_dir / "tasks").glob("1-*.html"))
    human = "<p>Hand written, odd   spacing &amp; <b>markup</b></p>\n<!-- note -->\n"
    path.write_text(path.read_text().replace("<p>orig</p>\n", human))
    pm("log", "1", "first <b>plain</b>")
    pm("log", "1", "<i>html</i>", "--html")
    pm("log", "1", "-", input="from stdin\nsecond line\n")
    pm("set", "1", "--fix", "<p>the fix</p>", "--priority", "P0", "--title", "A renamed")
    task = json.loads(pm("show", "1", "--json"))
    assert task["problem"] == human
    assert task["fix"] == "<p>the fix</p>\n"
    assert (task["title"], task["priority"]) == ("A renamed", "P0")
    assert [e["html"] for e in task["log"]] == ["first &lt;b&gt;plain&lt;/b&gt;", "<i>html</i>",
                                                 "from stdin&#10;second line"]
    assert all(e["who"] == "worker/cli" for e in task["log"])
    out = pm("show", "1")
    assert "#1 A renamed" in out and "first <b>plain</b>" in out


def test_unparseable_file_is_refused_and_left_alone(pm, tracker_dir):
    pm("new", "A")
    path = next((tracker_dir / "tasks").glob("1-*.html"))
    broken = path.read_text().replace('<section id="fix">', '<section id="fixx">')
    path.write_text(broken)
    out = pm("log", "1", "hello", code=1)
    assert "tasks/1-a.html:" in out and 'unknown section "fixx"' in out
    assert path.read_text() == broken
    assert "1 fault(s)" in pm("lint", code=1)


def test_show_missing_task_and_usage_errors(pm):
    assert "task 99 not found" in pm("show", "99", code=1)
    assert "give a TASK_ID or --next" in pm("claim", code=2)
    assert "No such command" in pm("frobnicate", code=2)


def test_export_import_round_trip(pm, tracker_dir, tmp_path, monkeypatch):
    pm("new", "A", "--problem", "<p>p</p>")
    pm("new", "B", "--blocked-by", "1")
    pm("log", "2", "note")
    pm("export", "-o", str(tmp_path / "out.jsonl"))
    records = [json.loads(l) for l in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == [1, 2]
    other = tmp_path / "other"
    monkeypatch.setenv("PM_DIR", str(other))
    pm("init")
    assert "imported 2 task(s)" in pm("import", str(tmp_path / "out.jsonl"))
    again = [json.loads(l) for l in pm("export").splitlines()]
    for record in records + again:
        record.pop("updated")
    assert again == records
    assert git(other, "rev-list", "--count", "HEAD").strip() == "2"  # init + one import commit
    assert "already taken" in pm("import", str(tmp_path / "out.jsonl"), code=1)


def test_prime_is_short(pm):
    text = pm("prime")
    assert "pm claim --next" in text and "PM_ROLE" in text
    assert len(text.split()) < 450  # words; well under 800 tokens
    assert len(text) < 3000


def test_grep_and_search(pm):
    pm("new", "Gomoku threat search", "--problem", "<p>VCF misses a <b>double four</b></p>")
    pm("new", "Quoridor walls")
    hits = json.loads(pm("grep", "double four", "--json"))
    assert [(h["id"], h["path"]) for h in hits] == [(1, "tasks/1-gomoku-threat-search.html")]
    assert [t["id"] for t in json.loads(pm("search", "VCF", "four", "--json"))] == [1]
    assert "not a regular expression" in pm("grep", "(", code=2)


def test_tracker_is_found_by_walking_up(tracker_dir, monkeypatch):
    from pm.tracker import Tracker
    monkeypatch.delenv("PM_DIR")
    sub = tracker_dir / "tasks"
    assert Tracker.find(str(sub)).root == str(tracker_dir)
    with pytest.raises(Exception, match="no pm tracker"):
        Tracker.find(os.path.dirname(str(tracker_dir)))


def test_history_shows_each_change_as_a_diff_with_who(pm, tracker_dir):
    pm("new", "A")
    pm("start", "1")
    pm("log", "1", "halfway")
    entries = json.loads(pm("history", "1", "--json"))
    assert [e["message"].splitlines()[0] for e in entries] == [
        'pm: #1 log: log "A"', 'pm: #1 claim: claimed by worker/cli "A"', 'pm: new #1 "A"']
    assert all(e["who"] == "worker/cli" for e in entries)
    assert '+<meta name="pm:status" content="in-progress">' in entries[1]["diff"]
    assert '-<meta name="pm:status" content="open">' in entries[1]["diff"]
    assert "halfway" in entries[0]["diff"]
    assert "commit " in pm("history", "1")


def test_unlink_removes_both_sides(pm):
    pm("new", "A")
    pm("new", "B")
    pm("link", "1", "blocks", "2")
    assert json.loads(pm("ready", "--json"))[0]["id"] == 1 and len(json.loads(pm("ready", "--json"))) == 1
    pm("unlink", "1", "blocks", "2")
    assert json.loads(pm("show", "2", "--json"))["links"] == []
    assert json.loads(pm("show", "1", "--json"))["links"] == []
    assert len(json.loads(pm("ready", "--json"))) == 2
    assert "cannot link to itself" in pm("link", "1", "related", "1", code=1)
    assert "link type 'child'" in pm("link", "1", "child", "2", code=1)


def test_overview_static_writes_the_board_page(pm, tmp_path):
    import re
    pm("new", "Quoridor walls")
    target = tmp_path / "elsewhere" / "board.html"
    target.parent.mkdir()
    assert "wrote" in pm("overview", "--static", "-o", str(target))
    page = target.read_text()
    assert "Quoridor walls" in page and "<html" in page.lower()
    # Card links work from where the page was saved, not only from the tracker root.
    hrefs = re.findall(r'href="([^"#]+\.html)"', page)
    assert hrefs and all((target.parent / h).resolve().is_file() for h in hrefs)
    stdout_page = pm("overview", "--static")
    assert "Quoridor walls" in stdout_page and 'href="tasks/1-quoridor-walls.html"' in stdout_page
    assert pm("overview").strip() == "overview.html is up to date"


def test_a_failed_commit_puts_every_file_back(tracker, tracker_dir, monkeypatch):
    from pm import gitrepo
    from pm.errors import GitError
    tracker.new("A")
    files = {p: p.read_text() for p in list((tracker_dir / "tasks").glob("*.html")) + [tracker_dir / "overview.html"]}

    def broken(*args, **kwargs):
        raise GitError("simulated: update-ref failed")
    monkeypatch.setattr(gitrepo, "commit_paths", broken)
    with pytest.raises(GitError):
        tracker.new("B", links=[("blocked-by", 1)])
    with pytest.raises(GitError):
        tracker.set_status(1, "done")
    assert {p: p.read_text() for p in files} == files
    assert sorted(p.name for p in (tracker_dir / "tasks").glob("*.html")) == ["1-a.html"]
    assert git(tracker_dir, "status", "--porcelain") == ""
    monkeypatch.undo()
    assert tracker.new("C").id == 3  # number 2 stays burnt: never handed out twice

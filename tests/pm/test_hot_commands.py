"""The hot commands (ls, ready, show, next, status, start, done, claim, log, new) through the
one CLI, click: the real `pm` process prints exactly what click's runner prints, every
option works, and anything odd gets click's own usage error (formerly tests/pm/test_fast.py,
which compared the hand-written fast parser with click)."""
import json
import subprocess

import pytest
from click.testing import CliRunner

from pm.commands import cli
from tests.pm.conftest import PM, pm_env


def _process(root, argv):
    proc = subprocess.run(PM + argv, env=pm_env(root, session="test"), capture_output=True,
                          text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def _click(argv):
    result = CliRunner().invoke(cli, argv, catch_exceptions=False)
    return result.exit_code, result.stdout


@pytest.fixture
def seeded(tracker, ceo):
    tracker.new("Ship the Go page", priority="P1", kind="feature")
    tracker.new("Gomoku threats", kind="bug", links=[("blocked-by", 1)])
    tracker.new("Quoridor walls <&>", priority="P0")
    tracker.log(1, "first note")
    ceo.promote(3)
    return tracker


@pytest.mark.parametrize("argv", [
    ["ls"], ["ls", "--json"], ["ls", "-p", "P1", "-p", "P0"], ["ls", "--status=open", "--sprint"],
    ["ls", "--no-sprint", "-k", "bug", "--json"], ["ls", "--text", "go", "--limit", "1"],
    ["ready"], ["ready", "--json"], ["show", "1"], ["show", "2", "--json"], ["next"], ["next", "--json"],
])
def test_reads_print_the_same_in_a_real_process_as_in_click(seeded, argv):
    code, out, _err = _process(seeded.root, argv)
    assert code == 0
    assert (code, out) == _click(argv)


def test_writes_print_the_task_line(seeded):
    assert _click(["status", "1", "review", "--from", "open"]) == (0, _line(seeded, 1))
    assert _click(["status", "1", "in-progress", "--from", "review"]) == (0, _line(seeded, 1))
    assert _click(["claim", "--next"]) == (0, "3\n")
    assert _click(["log", "2", "plain <b>", "--json"])[1].startswith('{"id": 2,')
    assert _click(["done", "1"]) == (0, _line(seeded, 1))
    assert seeded.get(2).log[-1].html == "plain &lt;b&gt;"


def test_errors_are_one_line_and_exit_1(seeded):
    code, out, err = _process(seeded.root, ["show", "99"])
    assert (code, out, err) == (1, "", "Error: task 99 not found (pm ls lists the tasks)\n")
    result = CliRunner().invoke(cli, ["show", "99"])
    assert result.exit_code == 1 and result.stderr == err


@pytest.mark.parametrize("argv", [
    [], ["--help"], ["ls", "--help"], ["show"], ["show", "x"], ["ls", "--bogus"], ["claim"],
    ["claim", "1", "--next"], ["ls", "--limit", "many"], ["log", "1"],
    ["ls", "--sprint", "--no-sprint"], ["ls", "-p"],
    ["show", "\u00b9"], ["ls", "--limit", "\u00b2"],     # digits to str.isdigit(), not to int()
])
def test_odd_arguments_get_help_or_a_usage_error(seeded, argv):
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code in (0, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output


def test_every_option_of_ls(seeded):
    def ids(*argv):
        code, out = _click(["ls", "--json", *argv])
        assert code == 0
        return [t["id"] for t in json.loads(out)]
    assert ids() == [1, 2, 3]
    assert ids("--status", "open", "-s", "in-progress") == [1, 2, 3]
    assert ids("-s", "done") == []
    assert ids("--priority", "P0") == [3] and ids("-p", "P1", "-p", "P0") == [1, 3]
    assert ids("--kind", "bug") == [2] and ids("-k", "feature", "-k", "bug") == [1, 2]
    assert ids("--sprint") == [3] and ids("--no-sprint") == [1, 2]
    assert ids("--text", "GO") == [1, 2] and ids("-t", "walls") == [3]
    assert ids("--limit", "2") == [1, 2]
    code, out = _click(["ls", "-p", "P0"])
    assert (code, out) == (0, _line(seeded, 3))


def test_every_option_of_new(seeded):
    code, out = _click(["new", "Full task", "--priority", "P0", "--kind", "bug",
                        "--problem", "<p>broken</p>", "--fix", "<p>mend</p>",
                        "--verification", "<p>test</p>", "--blocked-by", "1", "--blocks", "2",
                        "--related", "3", "--spawned-from", "1", "--json"])
    assert code == 0
    made = json.loads(out)
    task = seeded.get(made["id"])
    assert (task.title, task.priority, task.kind) == ("Full task", "P0", "bug")
    assert {k: v.strip() for k, v in task.sections.items()} == {
        "problem": "<p>broken</p>", "fix": "<p>mend</p>", "verification": "<p>test</p>"}
    assert sorted(task.links) == sorted([("blocked-by", 1), ("blocks", 2), ("related", 3),
                                         ("spawned-from", 1)])
    assert ("blocks", task.id) in seeded.get(1).links
    assert ("blocked-by", task.id) in seeded.get(2).links
    assert ("related", task.id) in seeded.get(3).links
    code, out = _click(["new", "Short", "-p", "P3", "-k", "docs"])
    assert code == 0 and seeded.get(int(out)).priority == "P3" and seeded.get(int(out)).kind == "docs"


def test_start_and_claim_by_id(seeded):
    assert _click(["start", "2", "--json"])[0] == 0
    assert (seeded.get(2).status, seeded.get(2).owner) == ("in-progress", "worker/test")
    assert _click(["claim", "1"]) == (0, "1\n")
    result = CliRunner().invoke(cli, ["claim", "1"])
    assert result.exit_code == 1 and "not open" in result.stderr


def test_log_reads_stdin_and_keeps_html(seeded):
    result = CliRunner().invoke(cli, ["log", "1", "-", "--html"], input="<b>from stdin</b>\n")
    assert result.exit_code == 0 and result.stdout == "logged on #1\n"
    assert seeded.get(1).log[-1].html == "<b>from stdin</b>"


def test_ls_into_a_closed_pipe_exits_quietly(seeded):
    from pm.transfer import normalise
    seeded.import_records([normalise({"title": f"filler task number {i} with a title long "
                                               "enough to fill a pipe's buffer"}, "test")
                           for i in range(2000)])  # far more than one pipe buffer of output
    proc = subprocess.run(" ".join(PM) + " ls | head -1", shell=True, env=pm_env(seeded.root),
                          capture_output=True, text=True, timeout=60,
                          executable="/bin/bash")
    assert proc.stdout == _line(seeded, 1)
    assert proc.stderr == ""
    piped = subprocess.run(["bash", "-o", "pipefail", "-c", " ".join(PM) + " ls | head -1"],
                           env=pm_env(seeded.root), capture_output=True, text=True, timeout=60)
    assert piped.returncode == 0 and piped.stderr == ""


def _line(tracker, task_id):
    from pm.output import line
    return line(tracker.get(task_id)) + "\n"

"""The fast path (no click) prints exactly what the click commands print, and hands
everything it does not know to click."""
import pytest
from click.testing import CliRunner

from pm import fast
from pm.commands import cli


def _fast(capsys, argv):
    code = fast.run_fast(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


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
def test_reads_print_the_same_as_click(seeded, capsys, argv):
    code, out, _err = _fast(capsys, argv)
    assert code == 0
    assert (code, out) == _click(argv)


def test_writes_print_the_same_as_click(seeded, capsys):
    assert _fast(capsys, ["status", "1", "review", "--from", "open"])[:2] == (0, _line(seeded, 1))
    assert _click(["status", "1", "in-progress", "--from", "review"]) == (0, _line(seeded, 1))
    assert _fast(capsys, ["claim", "--next"])[:2] == (0, "3\n")
    assert _fast(capsys, ["log", "2", "plain <b>", "--json"])[1].startswith('{"id": 2,')
    assert _fast(capsys, ["done", "1"])[:2] == (0, _line(seeded, 1))
    assert seeded.get(2).log[-1].html == "plain &lt;b&gt;"


def test_errors_match_click(seeded, capsys):
    code, out, err = _fast(capsys, ["show", "99"])
    assert (code, out, err) == (1, "", "Error: task 99 not found (pm ls lists the tasks)\n")
    result = CliRunner().invoke(cli, ["show", "99"])
    assert result.exit_code == 1 and result.stderr == err


@pytest.mark.parametrize("argv", [
    [], ["--help"], ["ls", "--help"], ["show"], ["show", "x"], ["ls", "--bogus"], ["claim"],
    ["claim", "1", "--next"], ["new", "title"], ["ls", "--limit", "many"], ["log", "1"],
    ["ls", "--sprint", "--no-sprint"], ["ls", "-p"],
    ["show", "\u00b9"], ["ls", "--limit", "\u00b2"],     # digits to str.isdigit(), not to int()
])
def test_anything_else_goes_to_click(argv):
    assert fast.parse(argv) is None


def _line(tracker, task_id):
    from pm.output import line
    return line(tracker.get(task_id)) + "\n"

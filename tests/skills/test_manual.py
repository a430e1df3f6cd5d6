"""skills manual init (never clobbers: writes, merges or refuses with why) and skills rule
add / list / check, against real git repositories and real bash."""
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from skills import manual
from skills.cli import cli
from tests.skills.blockrun import GIT_ENV, VENV_BIN


@pytest.fixture
def repo(tmp_path, monkeypatch):
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    (root / "README").write_text("x\n")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "start"], cwd=root, check=True)
    monkeypatch.chdir(root)
    return root


def invoke(*args):
    return CliRunner().invoke(cli, list(args))


def test_init_writes_the_manual_and_the_claude_import(repo):
    result = invoke("manual", "init", "--json")
    assert result.exit_code == 0, result.output
    actions = {row["file"].rsplit("/", 1)[1]: row["action"] for row in json.loads(result.output)}
    assert actions == {"AGENTS.md": "created", "CLAUDE.md": "created"}
    assert (repo / "AGENTS.md").read_text() == manual.template()
    assert "@AGENTS.md" in (repo / "CLAUDE.md").read_text().splitlines()
    rules = manual.parse((repo / "AGENTS.md").read_text())
    assert len(rules) == 8 and all(r.because for r in rules)
    again = invoke("manual", "init")
    assert again.exit_code == 0 and "up to date" in again.output


def test_init_merges_the_rules_an_existing_manual_lacks_and_keeps_its_own(repo):
    own = ("# Our manual\n\nLocal words.\n\n## Rules\n<!-- skills:rules -->\n\n"
           "### R1. Never deploy to production without explicit sign-off in this session\n"
           "- Because: we did.\n\n### R2. Our own rule\n- Because: reasons.\n\n## Later\n"
           "More local words.\n")
    (repo / "AGENTS.md").write_text(own)
    (repo / "CLAUDE.md").write_text("# Claude\nOur notes.\n")
    result = invoke("manual", "init", "--json")
    assert result.exit_code == 0, result.output
    text = (repo / "AGENTS.md").read_text()
    assert text.startswith("# Our manual\n\nLocal words.\n") and text.endswith("## Later\nMore local words.\n")
    rules = manual.parse(text)
    titles = [r.title for r in rules]
    assert titles[:2] == ["Never deploy to production without explicit sign-off in this session",
                          "Our own rule"]
    assert [r.number for r in rules] == list(range(1, len(rules) + 1))
    template_titles = [r.title for r in manual.parse(manual.template())]
    assert set(template_titles) - set(titles) == set()
    assert len(rules) == 2 + len(template_titles)      # R3 of the template has another title
    assert (repo / "CLAUDE.md").read_text() == "# Claude\nOur notes.\n\n@AGENTS.md\n"


def test_init_appends_the_rules_section_to_a_manual_without_one(repo):
    (repo / "AGENTS.md").write_text("# Notes for agents\nUse tabs.\n")
    assert invoke("manual", "init").exit_code == 0
    text = (repo / "AGENTS.md").read_text()
    assert text.startswith("# Notes for agents\nUse tabs.\n\n## Rules\n")
    assert len(manual.parse(text)) == 8


@pytest.mark.parametrize("make,why", [
    (lambda r: (r / "AGENTS.md").write_bytes(b"\xff\xfe rules"), "is not UTF-8 text"),
    (lambda r: (r / "AGENTS.md").symlink_to(r / "README"), "is not a regular file"),
    (lambda r: (r / "AGENTS.md").write_text("<!-- skills:rules -->\n<!-- skills:rules -->\n"),
     "appears 2 times"),
    (lambda r: (r / "AGENTS.md").write_text("## Rules\n<!-- skills:rules -->\n### R1. A\n"),
     "has no '- Because:' line"),
    (lambda r: (r / "CLAUDE.md").mkdir(), "is not a regular file"),
])
def test_init_refuses_what_it_cannot_merge_and_writes_nothing(repo, make, why):
    make(repo)
    before = sorted(p.name for p in repo.iterdir())
    result = invoke("manual", "init")
    assert result.exit_code == 1 and why in result.output and "Error:" in result.output
    assert sorted(p.name for p in repo.iterdir()) == before


def test_rule_add_appends_with_its_origin_and_check(repo):
    invoke("manual", "init")
    result = invoke("rule", "add", "Run the parity tests before any engine merge",
                    "--because", "a core change broke ko detection; no parity run",
                    "--check", "test -f parity.ok", "--json")
    assert result.exit_code == 0, result.output
    added = json.loads(result.output)
    assert added["number"] == 9 and added["check"] == "test -f parity.ok"
    text = (repo / "AGENTS.md").read_text()
    assert text.endswith("### R9. Run the parity tests before any engine merge\n- Because: a core "
                         "change broke ko detection; no parity run\n- Check: `test -f parity.ok`\n")
    listed = json.loads(invoke("rule", "list", "--json").output)
    assert [r["number"] for r in listed] == list(range(1, 10))
    dup = invoke("rule", "add", "run the parity tests before any engine merge", "--because", "x")
    assert dup.exit_code == 1 and "already has the rule" in dup.output
    assert invoke("rule", "add", "X", "--because", " ").exit_code == 1
    assert invoke("rule", "add", "X", "--because", "y", "--check", "echo `id`").exit_code == 1
    assert invoke("rule", "add", "X").exit_code == 2                 # --because is required


def test_rule_check_names_the_rules_whose_mistake_recurred(repo, tmp_path):
    invoke("manual", "init")
    invoke("rule", "add", "Keep parity.ok", "--because", "parity was skipped",
           "--check", "test -f parity.ok")
    tracker = tmp_path / "tracker"
    subprocess.run([sys.executable, "-m", "pm.cli", "init", str(tracker)], check=True,
                   capture_output=True)
    env = {"PM_DIR": str(tracker), "PATH": VENV_BIN + os.pathsep + os.environ["PATH"]}
    result = CliRunner().invoke(cli, ["rule", "check", "--json"], env=env)
    checks = {c["number"]: c for c in json.loads(result.output)["checks"]}
    assert result.exit_code == 1
    assert sorted(checks) == [1, 5, 6, 9]
    assert [n for n, c in checks.items() if not c["ok"]] == [9]
    (repo / "parity.ok").write_text("")
    assert CliRunner().invoke(cli, ["rule", "check"], env=env).exit_code == 0
    # R1's mistake: a merge into main that instances approve did not make
    subprocess.run(["git", "checkout", "-q", "-b", "side"], cwd=repo, check=True)
    (repo / "side.txt").write_text("s\n")
    subprocess.run(["git", "add", "side.txt"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "side"], cwd=repo, check=True)
    subprocess.run(["git", "checkout", "-q", "main"], cwd=repo, check=True)
    subprocess.run(["git", "merge", "-q", "--no-ff", "-m", "Merge branch 'side'", "side"],
                   cwd=repo, check=True)
    result = CliRunner().invoke(cli, ["rule", "check"], env=env)
    assert result.exit_code == 1
    assert "FAIL R1. Nothing merges without `instances approve`" in result.output
    assert "the mistake it guards against: a branch was merged on a green diff" in result.output


def test_a_check_that_cannot_run_is_named_as_such(repo):
    invoke("manual", "init")
    invoke("rule", "add", "Y", "--because", "z", "--check", "no-such-command-here --x")
    result = CliRunner().invoke(cli, ["rule", "check"], env={"PATH": "/usr/bin:/bin"})
    assert result.exit_code == 1
    assert "`no-such-command-here --x` could not run (exit 127" in result.output


def test_rule_commands_without_a_manual_say_how_to_make_one(repo):
    result = invoke("rule", "check")
    assert result.exit_code == 1 and "skills manual init writes it" in result.output
    result = invoke("rule", "add", "X", "--because", "y")
    assert result.exit_code == 1 and "skills manual init writes it" in result.output

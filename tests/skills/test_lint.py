"""skills lint: the shipped skills pass; each format rule, the token budget, links and the
command check fail a skill that breaks them, and a flag renamed in the real click tree fails
the shipped skills."""
import shutil
import tomllib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from skills import catalog, clitree, lint, markdown, tokens
from skills.cli import cli

REPO = Path(__file__).resolve().parents[2]


def test_the_shipped_skills_and_the_manual_template_lint_clean():
    result = CliRunner().invoke(cli, ["lint", "--json"])
    assert result.exit_code == 0, result.output
    assert '"faults": []' in result.output
    assert len(catalog.all_skills()) == 6


def test_every_console_script_is_a_tool_lint_knows():
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert set(scripts) == set(clitree.tools())


@pytest.fixture
def skills_copy(tmp_path):
    root = tmp_path / "skills"
    shutil.copytree(catalog.get("worker-pm").path, root / "worker-pm")
    return root


def _lint(root, *args):
    return CliRunner().invoke(cli, ["lint", "--root", str(root), *args])


def _edit(root, old, new, rel="worker-pm/SKILL.md"):
    path = root / rel
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("old,new,problem", [
    ("name: worker-pm", "name: Worker_PM", "must be lowercase letters, digits and single hyphens"),
    ("name: worker-pm", "name: worker--pm", "single hyphens"),
    ("name: worker-pm", "name: worker-pm-", "not starting or ending with a hyphen"),
    ("name: worker-pm", "name: other-skill", "must equal the folder's name 'worker-pm'"),
    ("name: worker-pm", "name: " + "a" * 65, "is 65 characters; at most 64"),
    ("name: worker-pm\n", "", "frontmatter needs name"),
    ("description: How", "description: " + "x" * 1030 + " How", "characters; at most 1024"),
    ("description: How", "owner: me\ndescription: How", "unknown frontmatter key 'owner'"),
    ("---\nname", "name", "must start with a '---' line"),
    ("pm claim --next", "pm claim --nxt", "`pm claim` has no option --nxt"),
    ("pm ready\n", "pm readyy\n", "`pm` has no command 'readyy'"),
    ("pm status \"$N\" review --from in-progress", "pm status \"$N\" review --since x",
     "`pm status` has no option --since"),
    ("`pm promote`", "`pm promote --top`", "`pm promote` has no option --top"),
    ("[references/task-format.md](references/task-format.md)", "[x](references/gone.md)",
     "link 'references/gone.md' points at nothing"),
])
def test_a_broken_skill_fails_naming_the_fault(skills_copy, old, new, problem):
    _edit(skills_copy, old, new)
    result = _lint(skills_copy)
    assert result.exit_code == 1
    assert problem in result.output


def test_a_wrong_flag_in_a_reference_fails_too(skills_copy):
    _edit(skills_copy, "`pm link A blocks B`", "`pm link A blocks B --both`",
          "worker-pm/references/task-format.md")
    result = _lint(skills_copy)
    assert result.exit_code == 1 and "task-format.md" in result.output and "--both" in result.output


def test_an_unlinked_reference_is_a_fault(skills_copy):
    (skills_copy / "worker-pm" / "references" / "orphan.md").write_text("# never loaded\n")
    result = _lint(skills_copy)
    assert result.exit_code == 1 and "orphan.md:1: not linked from SKILL.md" in result.output


def test_the_body_budget_counts_tokens(skills_copy):
    body = catalog.get("worker-pm", skills_copy).body
    used = tokens.count(body)
    assert _lint(skills_copy, "--budget", str(used)).exit_code == 0
    result = _lint(skills_copy, "--budget", str(used - 1))
    assert result.exit_code == 1
    assert f"the body is {used} tokens; the budget is {used - 1}" in result.output


def test_token_counts_are_cl100k():
    assert tokens.count("hello world") == 2
    assert tokens.count("") == 0
    assert tokens.count("<|endoftext|>") > 1        # special-token text counts as plain text


def test_a_flag_renamed_in_the_real_cli_fails_the_shipped_skills(monkeypatch):
    """Not a regex on help text: rename pm claim's --next in pm's click tree and lint fails."""
    from pm.commands import cli as pm_cli
    option = next(p for p in pm_cli.commands["claim"].params if p.name == "next_")
    monkeypatch.setattr(option, "opts", ["--upcoming"])
    faults = [f for s in catalog.all_skills() for f in lint.lint_skill(s)]
    assert any(f.path == "worker-pm/SKILL.md" and "`pm claim` has no option --next" in f.problem
               for f in faults)


def test_a_command_renamed_in_the_real_cli_fails_the_manual(monkeypatch):
    from pm.commands import cli as pm_cli
    monkeypatch.setitem(pm_cli.commands, "inspect", pm_cli.commands.pop("audit"))
    result = CliRunner().invoke(cli, ["lint"])
    assert result.exit_code == 1
    assert "templates/AGENTS.md" in result.output and "no command 'audit'" in result.output


def test_mentions_split_shell_lines_like_bash():
    text = ("```bash\nN=$(pm claim --next)  # a comment\nPM_ROLE=ceo pm promote 4 --rank 1 && "
            "pm log 4 \"why (reason)\" | cat\npm new \"T\" -k bug \\\n  --spawned-from 3\n"
            "git status\n```\nAnd `pm show 4` inline; `git log` is not ours.\n")
    found = [(m.line, m.argv, m.source) for m in markdown.mentions(text, set(clitree.tools()))]
    assert found == [
        (2, ("pm", "claim", "--next"), "block"),
        (3, ("pm", "promote", "4", "--rank", "1"), "block"),
        (3, ("pm", "log", "4", "why (reason)"), "block"),
        (4, ("pm", "new", "T", "-k", "bug", "--spawned-from", "3"), "block"),
        (8, ("pm", "show", "4"), "inline"),
    ]


@pytest.mark.parametrize("argv,problem", [
    (["instances", "up", "412", "--json"], None),
    (["instances", "nginx", "sync", "--reload"], None),
    (["instances", "nginx", "start"], "`instances nginx` has no command 'start'"),
    (["engines", "match", "go", "--games", "2", "--opponent-playouts", "5"], None),
    (["engines", "match", "go", "--games"], "`engines match go --games` needs a value"),
    (["pm", "ls", "--json=yes"], "`pm ls --json` is a flag and takes no value"),
    (["pm", "new", "T", "-kbug", "-p", "P1"], None),
    (["demo", "record", "x.py", "--voice-engine", "espeak", "-q"], None),
    (["skills", "rule", "add", "x", "--because", "y", "--check", "true"], None),
    (["pm", "mcp"], None),
])
def test_argv_checks_walk_the_click_tree(argv, problem):
    found = clitree.check(argv)
    assert found == problem if problem is None else found.startswith(problem)


def test_tools_load_as_click_commands():
    for tool in clitree.tools():
        assert isinstance(clitree.load(tool), click.Group)

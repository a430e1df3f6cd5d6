"""skills install: copy or link into ~/.claude/skills, a project's .claude/skills or a folder;
an unchanged older copy is replaced, a changed one is refused without --force; --json."""
import json
import os

import pytest
from click.testing import CliRunner

from skills import catalog
from skills.cli import cli


def install(*args, home=None):
    env = {"HOME": str(home)} if home else {}
    return CliRunner().invoke(cli, ["install", *args], env=env)


def test_install_all_into_the_users_claude_folder_then_again_is_up_to_date(tmp_path):
    result = install("--json", home=tmp_path)
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    names = sorted(s.name for s in catalog.all_skills())
    assert sorted(r["name"] for r in rows) == names and {r["action"] for r in rows} == {"installed"}
    target = tmp_path / ".claude" / "skills"
    for name in names:
        assert (target / name / "SKILL.md").read_bytes() == \
            (catalog.get(name).path / "SKILL.md").read_bytes()
    again = json.loads(install("--json", home=tmp_path).output)
    assert {r["action"] for r in again} == {"up to date"}


def test_install_into_a_project_and_a_folder(tmp_path):
    project = tmp_path / "repo"
    project.mkdir()
    assert install("worker-pm", "--project", str(project)).exit_code == 0
    assert (project / ".claude/skills/worker-pm/references/task-format.md").is_file()
    assert install("review-gate", "--dir", str(tmp_path / "agents")).exit_code == 0
    assert (tmp_path / "agents/review-gate/scripts/look.py").is_file()
    assert not (tmp_path / "agents/worker-pm").exists()


def test_link_mode_points_at_this_checkout(tmp_path):
    result = install("worker-pm", "--dir", str(tmp_path), "--link", "--json")
    dest = tmp_path / "worker-pm"
    assert dest.is_symlink() and dest.resolve() == catalog.get("worker-pm").path.resolve()
    assert json.loads(result.output)[0]["mode"] == "link"
    again = json.loads(install("worker-pm", "--dir", str(tmp_path), "--link", "--json").output)
    assert again[0]["action"] == "up to date"
    # a copy over the link replaces it (a link holds no edits of its own)
    copied = json.loads(install("worker-pm", "--dir", str(tmp_path), "--json").output)
    assert copied[0]["action"] == "replaced" and not dest.is_symlink() and dest.is_dir()


def test_a_changed_skill_is_refused_without_force_and_nothing_is_written(tmp_path):
    install("--dir", str(tmp_path))
    edited = tmp_path / "worker-pm" / "SKILL.md"
    edited.write_text(edited.read_text() + "\nmy local note\n")
    other = tmp_path / "review-gate" / "SKILL.md"
    other_before = other.read_bytes()
    result = install("--dir", str(tmp_path))
    assert result.exit_code == 1
    assert "worker-pm was changed since it was installed (SKILL.md differ)" in result.output
    assert "--force" in result.output
    assert "my local note" in edited.read_text() and other.read_bytes() == other_before
    forced = json.loads(install("--dir", str(tmp_path), "--force", "--json").output)
    assert {r["name"]: r["action"] for r in forced}["worker-pm"] == "overwritten"
    assert "my local note" not in edited.read_text()


def test_an_unchanged_older_install_is_upgraded(tmp_path):
    install("worker-pm", "--dir", str(tmp_path))
    dest = tmp_path / "worker-pm"
    # an older release of the skill, installed by skills: its recorded digest still matches
    (dest / "SKILL.md").write_text("---\nname: worker-pm\ndescription: old\n---\nold body\n")
    manifest = json.loads((dest / ".skills-install.json").read_text())
    from skills.catalog import tree_digest
    manifest["digest"] = tree_digest(dest)
    (dest / ".skills-install.json").write_text(json.dumps(manifest))
    rows = json.loads(install("worker-pm", "--dir", str(tmp_path), "--json").output)
    assert rows[0]["action"] == "replaced"
    assert (dest / "SKILL.md").read_bytes() == (catalog.get("worker-pm").skill_md).read_bytes()


def test_a_folder_not_installed_by_skills_is_refused(tmp_path):
    (tmp_path / "worker-pm").mkdir()
    (tmp_path / "worker-pm" / "SKILL.md").write_text("someone else's\n")
    result = install("worker-pm", "--dir", str(tmp_path))
    assert result.exit_code == 1 and "not installed by skills" in result.output
    os.symlink(tmp_path, tmp_path / "review-gate")
    result = install("review-gate", "--dir", str(tmp_path))
    assert result.exit_code == 1 and "is a link to" in result.output


def test_unknown_skill_and_conflicting_targets(tmp_path):
    result = install("no-such-skill", "--dir", str(tmp_path))
    assert result.exit_code == 1 and "no skill 'no-such-skill'; skills: " in result.output
    result = install("--dir", str(tmp_path), "--project", str(tmp_path))
    assert result.exit_code == 2


def test_list_json_names_each_skill_with_its_token_counts():
    rows = json.loads(CliRunner().invoke(cli, ["list", "--json"]).output)
    assert {r["name"] for r in rows} == {s.name for s in catalog.all_skills()}
    for row in rows:
        assert 0 < row["description_tokens"] < 300 and 0 < row["body_tokens"] <= 1000

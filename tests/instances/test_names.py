import pytest

from instances.errors import NameError_
from instances.names import (instance_name_for_branch, slugify, task_branch, task_id_of_branch,
                             validate_branch, validate_name)

HOSTILE_BRANCHES = [
    "-rf", "--upload-pack=touch /tmp/x", "a b", "a..b", "x~1", "x^", "x:y", "what?", "a*", "[a]",
    "a\\b", "a\nb", "a\x00b", "trailing/", "/leading", ".hidden", "x.lock", "a//b", "a@{1}", "@", "",
]


@pytest.mark.parametrize("branch", HOSTILE_BRANCHES)
def test_hostile_branch_names_are_refused(branch):
    with pytest.raises(NameError_, match="invalid branch name"):
        validate_branch(branch)


@pytest.mark.parametrize("branch", ["main", "task/412-fix-ko", "feat/Login_UI", "x;y", "a$b{c}", "quote'\"d"])
def test_git_valid_branches_pass_and_slug_to_safe_names(branch):
    assert validate_branch(branch) == branch
    name = instance_name_for_branch(branch)
    assert validate_name(name) == name
    assert set(name) <= set("abcdefghijklmnopqrstuvwxyz0123456789-")


@pytest.mark.parametrize("name", ["", "-a", "a-", "A", "a_b", "a/b", "a;b", "a b", "x" * 49, "a{b}", "__instances",
                                  "a\nlocation / {", "ü"])
def test_invalid_instance_names(name):
    with pytest.raises(NameError_):
        validate_name(name)


def test_slugify():
    assert slugify("Fix: Ko rule (#3) — Ünïcode") == "fix-ko-rule-3-unicode"
    assert slugify("   ") == ""
    assert len(slugify("word " * 40)) <= 48


def test_task_branch_and_name():
    assert task_branch(412, "Fix the ko rule; rm -rf /") == "task/412-fix-the-ko-rule-rm-rf"
    assert task_branch(7, None) == "task/7"
    assert instance_name_for_branch("task/412-fix-the-ko-rule") == "task-412"
    assert task_id_of_branch("task/412-x") == 412
    assert task_id_of_branch("feature/412") is None


def test_branch_without_letters_needs_a_name():
    with pytest.raises(NameError_, match="--name"):
        instance_name_for_branch("___")

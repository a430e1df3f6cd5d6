"""pm import of a Backlog.md project keeps everything it holds: subtasks, labels, type, drafts,
archived tasks, custom prefixes; refusals name the file and the fix; the summary lists the
real numbers. The task files below are written as Backlog.md 1.x writes them."""
import json

import pytest

from tests.pm.conftest import git, run_pm


def task_md(ref, title, *, status="To Do", extra="", body="## Description\n\nSome text.\n"):
    return (f"---\nid: {ref}\ntitle: {title}\nstatus: {status}\nassignee: []\n"
            f"created_date: '2025-06-10 12:30'\nlabels: []\ndependencies: []\n{extra}---\n\n{body}")


def project(root, files: dict[str, str], config: str | None = None):
    """A Backlog.md project under ROOT: {"tasks/task-1 - Title.md": text, ...}."""
    base = root / "proj" / "backlog"
    for rel, text in files.items():
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / rel).write_text(text)
    if config:
        (base / "config.yml").write_text(config)
    return root / "proj"


def show(root, task_id):
    return json.loads(run_pm(root, "show", str(task_id), "--json", check=True).stdout)


def by_title(root):
    return {t["title"]: t for t in json.loads(run_pm(root, "ls", "--json", check=True).stdout)}


# Defect 1: TASK-2.1 was read as number 1, collided with TASK-1 and stopped the whole import.
def test_a_subtask_becomes_a_task_linked_to_its_parent(tracker_dir, tmp_path):
    proj = project(tmp_path, {
        "tasks/task-1 - First.md": task_md("TASK-1", "First"),
        "tasks/task-2 - Parent.md": task_md("TASK-2", "Parent"),
        "tasks/task-2.1 - Child.md": task_md("TASK-2.1", "Child", extra="parent_task_id: TASK-2\n"),
    })
    result = run_pm(tracker_dir, "import", str(proj))
    assert result.returncode == 0, result.stderr
    titles = by_title(tracker_dir)
    assert (titles["First"]["id"], titles["Parent"]["id"]) == (1, 2)
    child = titles["Child"]["id"]
    assert child == 3 and "TASK-2.1 is #3 (task-2.1 - Child.md)" in result.stdout
    assert show(tracker_dir, child)["links"] == [{"type": "parent", "id": 2}]
    assert show(tracker_dir, 2)["links"] == [{"type": "subtask", "id": 3}]
    assert run_pm(tracker_dir, "lint").returncode == 0


def test_a_subtask_without_parent_field_is_linked_by_its_dotted_id(tracker_dir, tmp_path):
    proj = project(tmp_path, {"tasks/task-4 - Epic.md": task_md("task-4", "Epic"),
                              "tasks/task-4.1 - Part.md": task_md("task-4.1", "Part")})
    run_pm(tracker_dir, "import", str(proj), check=True)
    assert show(tracker_dir, 5)["links"] == [{"type": "parent", "id": 4}]


# Defect 2: labels, type, the parent relation, drafts and archived tasks were dropped.
def test_labels_type_drafts_and_archived_tasks_are_kept(tracker_dir, tmp_path):
    proj = project(tmp_path, {
        "tasks/task-1 - Board.md": task_md("TASK-1", "Board", status="In Progress",
                                           extra="type: feature\nmilestone: v1.0\nreporter: '@bob'\n")
        .replace("labels: []", "labels:\n  - ui\n  - Web UI"),
        "tasks/task-2 - Odd.md": task_md("TASK-2", "Odd", extra="type: research\n"),
        "drafts/draft-1 - Idea.md": task_md("DRAFT-1", "Idea", status="Draft"),
        "archive/tasks/task-3 - Dropped.md": task_md("TASK-3", "Dropped"),
        "completed/task-4 - Shipped.md": task_md("TASK-4", "Shipped", status="Done"),
    })
    result = run_pm(tracker_dir, "import", str(proj))
    assert result.returncode == 0, result.stderr
    titles = by_title(tracker_dir)
    board = show(tracker_dir, titles["Board"]["id"])
    assert (board["kind"], board["labels"], board["status"]) == ("feature", ["ui", "web-ui"], "in-progress")
    assert "milestone: v1.0" in board["log"][0]["html"] and "reporter: @bob" in board["log"][0]["html"]
    assert show(tracker_dir, titles["Odd"]["id"])["labels"] == ["type-research"]
    idea = show(tracker_dir, titles["Idea"]["id"])
    assert (idea["status"], idea["labels"]) == ("open", ["draft"])
    dropped = show(tracker_dir, titles["Dropped"]["id"])
    assert (dropped["status"], dropped["labels"]) == ("wontfix", ["archived"])
    assert titles["Shipped"]["status"] == "done"
    assert "1 drafts imported as open, labelled draft" in result.stdout
    # The labels are a field pm filters by.
    ui = json.loads(run_pm(tracker_dir, "ls", "--label", "ui", "--json", check=True).stdout)
    assert [t["title"] for t in ui] == ["Board"]
    assert run_pm(tracker_dir, "lint").returncode == 0


# Defect 3: a project with a custom task prefix was refused.
def test_a_custom_prefix_is_imported(tracker_dir, tmp_path):
    proj = project(tmp_path, {
        "tasks/back-1 - Login.md": task_md("BACK-1", "Login"),
        "tasks/back-2 - Logout.md": task_md("BACK-2", "Logout").replace(
            "dependencies: []", "dependencies:\n  - BACK-1"),
    }, config='project_name: "shop"\ntask_prefix: "back"\n')
    result = run_pm(tracker_dir, "import", str(proj))
    assert result.returncode == 0, result.stderr
    assert "imported 2 task(s): #1..#2" in result.stdout
    assert show(tracker_dir, 2)["links"] == [{"type": "blocked-by", "id": 1}]


# Defect 4: the summary printed a range (#1..#9) when the numbers had a gap.
def test_the_summary_lists_the_real_numbers(tracker_dir, tmp_path):
    proj = project(tmp_path, {f"tasks/task-{n} - T{n}.md": task_md(f"TASK-{n}", f"T{n}")
                              for n in (1, 2, 4, 5)})
    result = run_pm(tracker_dir, "import", str(proj), check=True)
    assert result.stdout.splitlines()[0] == "imported 4 task(s): #1..#2, #4..#5"
    # Numbers the tracker already uses are given fresh ones, and the summary says which.
    again = project(tmp_path / "second", {"tasks/task-2 - Again.md": task_md("TASK-2", "Again")})
    result = run_pm(tracker_dir, "import", str(again), check=True)
    assert result.stdout.splitlines() == ["imported 1 task(s): #6", "  TASK-2 is #6 (task-2 - Again.md)"]


# Defect 5: pm show's text view dropped list bullets.
def test_show_keeps_list_bullets(tracker_dir, tmp_path):
    body = ("## Description\n\nSteps:\n\n- first thing\n- second thing\n\n"
            "## Acceptance Criteria\n<!-- AC:BEGIN -->\n- [ ] #1 works\n- [x] #2 tested\n<!-- AC:END -->\n\n"
            "## Implementation Plan\n\n1. Diff the board\n2. Remove captures\n")
    proj = project(tmp_path, {"tasks/task-1 - Steps.md": task_md("TASK-1", "Steps", body=body)})
    run_pm(tracker_dir, "import", str(proj), check=True)
    text = run_pm(tracker_dir, "show", "1", check=True).stdout
    assert "PROBLEM\nSteps:\n- first thing\n- second thing" in text
    assert "- [ ] #1 works\n- [x] #2 tested" in text
    assert "1. Diff the board\n2. Remove captures" in text


@pytest.mark.parametrize("files, message", [
    ({"tasks/task-1 - A.md": task_md("TASK-1", "A"), "tasks/task-1 - Copy.md": task_md("TASK-1", "Copy")},
     "task-1 - Copy.md: id TASK-1 is also the id of .*task-1 - A.md; give one of the two files another id"),
    ({"tasks/task-1 - A.md": task_md("TASK-1", "A").replace("dependencies: []", "dependencies: [task-9]")},
     "task-1 - A.md: dependencies names TASK-9, which is not among the project's task files; "
     "add TASK-9's file or remove it from dependencies"),
    ({"tasks/task-1 - A.md": "---\ntitle: a: b: c\n---\n"}, "task-1 - A.md: the front matter is not YAML"),
    ({"tasks/task-1 - A.md": "no front matter\n"}, "task-1 - A.md: no YAML front matter; Backlog.md"),
    ({"notes.txt": "x"}, "no Backlog.md task files .* give pm import the project folder"),
])
def test_refusals_name_the_file_and_the_fix(tracker_dir, tmp_path, files, message):
    import re
    proj = project(tmp_path, files)
    before = git(tracker_dir, "rev-parse", "HEAD")
    result = run_pm(tracker_dir, "import", str(proj))
    assert result.returncode == 1
    assert re.search(message, result.stderr), result.stderr
    assert git(tracker_dir, "rev-parse", "HEAD") == before
    assert json.loads(run_pm(tracker_dir, "ls", "--json").stdout) == []

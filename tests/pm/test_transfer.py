"""pm import from JSONL and from Backlog.md markdown tasks; pm export."""
import json

import pytest

from pm.errors import InvalidValue, RoleRefused
from pm.backlogmd import read as read_backlog
from pm.transfer import read_jsonl
from tests.pm.conftest import git, run_pm

TASK_1 = """---
id: task-1
title: Board renders captures
status: In Progress
assignee:
  - '@alice'
created_date: '2025-06-10 12:30'
labels: [bug, ui]
dependencies: []
priority: high
---

## Description

Captured stones stay on the **board** after a capture.

## Acceptance Criteria
<!-- AC:BEGIN -->
- [ ] #1 Captured stones disappear
<!-- AC:END -->

## Implementation Plan

1. Diff the board after each move
"""

TASK_2 = """---
id: task-2
title: Undo move
status: To Do
assignee: []
created_date: '2025-06-11 09:00'
labels: []
dependencies:
  - task-1
---

## Description

Players want to take back a move.
"""


@pytest.fixture
def backlog_project(tmp_path):
    tasks = tmp_path / "proj" / "backlog" / "tasks"
    tasks.mkdir(parents=True)
    (tasks / "task-1 - Board-renders-captures.md").write_text(TASK_1)
    (tasks / "task-2 - Undo-move.md").write_text(TASK_2)
    return tmp_path / "proj"


def test_backlog_md_tasks_map_onto_pm_fields(backlog_project):
    first, second = read_backlog(str(backlog_project))
    assert (first["backlog"]["want"], first["title"], first["status"], first["priority"], first["kind"],
            first["owner"]) == (1, "Board renders captures", "in-progress", "P1", "bug", "alice")
    assert first["problem"] == "<p>Captured stones stay on the <strong>board</strong> after a capture.</p>\n"
    assert "<li>[ ] #1 Captured stones disappear</li>" in first["verification"]
    assert "<ol>" in first["fix"]
    assert first["created"] == "2025-06-10T12:30:00Z"
    assert (second["status"], second["priority"], second["backlog"]["links"]) == \
        ("open", "P2", [("blocked-by", "TASK-1")])


def test_import_backlog_md_in_one_commit(tracker_dir, backlog_project):
    before = int(git(tracker_dir, "rev-list", "--count", "HEAD"))
    result = run_pm(tracker_dir, "import", str(backlog_project))
    assert result.returncode == 0, result.stderr
    assert "imported 2 task(s): #1..#2" in result.stdout
    assert int(git(tracker_dir, "rev-list", "--count", "HEAD")) == before + 1
    blocked = json.loads(run_pm(tracker_dir, "blocked", "--json").stdout)
    assert [(b["id"], b["blocked_by"]) for b in blocked] == [(2, [1])]
    assert run_pm(tracker_dir, "lint").returncode == 0


def test_jsonl_import_assigns_fresh_numbers_and_rejects_bad_records(tracker, tmp_path):
    tracker.new("existing")
    good = tmp_path / "good.jsonl"
    good.write_text('{"title": "a"}\n\n{"title": "b", "priority": "P0", "links": [{"type": "related", "id": 1}]}\n')
    assert tracker.import_records(read_jsonl(str(good))) == [2, 3]
    assert tracker.get(1).links == [("related", 3)]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"title": "ok"}\n{"title": "x", "status": "finished"}\n')
    with pytest.raises(InvalidValue, match="bad.jsonl:2: status 'finished' is not allowed"):
        read_jsonl(str(bad))
    sprinted = tmp_path / "sprint.jsonl"
    sprinted.write_text('{"title": "s", "sprint": 1}\n')
    with pytest.raises(RoleRefused):
        tracker.import_records(read_jsonl(str(sprinted)))
    assert [t.id for t in tracker.all()] == [1, 2, 3]

"""Pure arrangements: sprint order, backlog groups, board columns."""
from pm.api import Task
from pm.web.arrange import Group, backlog_groups, board_columns, capped, sprint_tasks

STATUSES = ("open", "in-progress", "review", "done", "wontfix")
PRIORITIES = ("P0", "P1", "P2", "P3")
TASKS = [
    Task(1, "a", status="open", priority="P2"),
    Task(2, "b", status="done", priority="P0", sprint_rank=3),
    Task(3, "c", status="open", priority="P0", sprint_rank=1),
    Task(4, "d", status="in-progress", priority="P1", sprint_rank=2),
    Task(5, "e", status="open", priority="P0"),
    Task(6, "f", status="parked", priority="P3"),
]


def ids(tasks):
    return [task.id for task in tasks]


def test_sprint_is_ranked_and_excludes_unranked():
    assert ids(sprint_tasks(TASKS)) == [3, 4, 2]


def test_backlog_groups_follow_workflow_then_priority_then_id():
    groups = backlog_groups(TASKS, STATUSES, PRIORITIES)
    assert [(g.name, ids(g.tasks)) for g in groups] == [
        ("open", [3, 5, 1]), ("in-progress", [4]), ("done", [2]), ("parked", [6]),
    ]


def test_board_has_every_known_status_and_sprint_cards_first():
    columns = board_columns(TASKS, STATUSES, PRIORITIES)
    assert [c.name for c in columns] == ["open", "in-progress", "blocked", "review", "done", "wontfix", "parked"]
    assert ids(columns[0].tasks) == [3, 5, 1]
    assert columns[2].tasks == [] and columns[3].tasks == []


def test_blocked_tasks_move_to_the_blocked_column():
    columns = {c.name: ids(c.tasks) for c in board_columns(TASKS, STATUSES, PRIORITIES, {5: [4], 4: [9]})}
    assert columns["blocked"] == [4, 5]
    assert columns["open"] == [3, 1] and columns["in-progress"] == []


def test_capped_keeps_the_first_tasks_and_the_total():
    groups = [Group("open", [1, 2, 3]), Group("done", [4])]
    cut = capped(groups, 2)
    assert cut[0].tasks == [1, 2] and cut[0].total == 3 and cut[0].hidden == 1
    assert cut[1] == groups[1] and cut[1].hidden == 0
    assert capped(groups, None) == groups

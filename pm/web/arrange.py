"""Pure arrangements of tasks for the pages: sprint order, backlog groups, board columns."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Group:
    name: str
    tasks: list


def _order(values, known) -> list:
    """`known` values first, in their order, then any others the tasks carry, sorted."""
    known = list(known)
    return known + sorted(set(values) - set(known))


def priority_key(task, priorities) -> tuple:
    ranks = {name: i for i, name in enumerate(priorities)}
    return (ranks.get(task.priority, len(ranks)), task.id)


def sprint_tasks(tasks) -> list:
    """Tasks in the sprint, by rank (1 first)."""
    return sorted((t for t in tasks if t.sprint_rank is not None), key=lambda t: (t.sprint_rank, t.id))


def backlog_groups(tasks, statuses, priorities) -> list[Group]:
    """Every task, grouped by status (workflow order); P0 first inside a group, then by id."""
    by_status: dict[str, list] = {}
    for task in tasks:
        by_status.setdefault(task.status, []).append(task)
    return [Group(status, sorted(by_status[status], key=lambda t: priority_key(t, priorities)))
            for status in _order(by_status, statuses) if status in by_status]


BLOCKED = "blocked"


def board_columns(tasks, statuses, priorities, blocked=None) -> list[Group]:
    """One column per known status (empty ones too), cards by sprint rank, then priority.

    `blocked` maps ids of unfinished tasks waiting on others to their open blockers; those
    cards leave their status column for a "blocked" column placed after "in-progress"."""
    blocked = blocked or {}
    names = _order({t.status for t in tasks}, statuses)
    names.insert(names.index("in-progress") + 1 if "in-progress" in names else 1, BLOCKED)
    columns = {status: [] for status in names}
    for task in tasks:
        columns[BLOCKED if task.id in blocked else task.status].append(task)

    def card_key(task):
        rank = task.sprint_rank if task.sprint_rank is not None else float("inf")
        return (rank, *priority_key(task, priorities))

    return [Group(status, sorted(cards, key=card_key)) for status, cards in columns.items()]

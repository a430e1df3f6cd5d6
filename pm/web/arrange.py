"""Pure arrangements of tasks for the pages: sprint order, backlog groups, board columns."""
from dataclasses import dataclass, replace

BLOCKED = "blocked"


@dataclass(frozen=True)
class Group:
    name: str
    tasks: list
    total: int | None = None  # set when `tasks` was cut short by `capped`

    @property
    def hidden(self) -> int:
        return 0 if self.total is None else self.total - len(self.tasks)


def _order(values, known) -> list:
    """`known` values first, in their order, then any others the tasks carry, sorted."""
    known = list(known)
    return known + sorted(set(values) - set(known))


def by_priority(priorities):
    """Sort key: P0 first (unknown priorities last), then oldest id first."""
    ranks = {name: i for i, name in enumerate(priorities)}
    return lambda task: (ranks.get(task.priority, len(ranks)), task.id)


def sprint_tasks(tasks) -> list:
    """Tasks in the sprint, by rank (1 first)."""
    return sorted((t for t in tasks if t.sprint_rank is not None), key=lambda t: (t.sprint_rank, t.id))


def backlog_groups(tasks, statuses, priorities) -> list[Group]:
    """Every task, grouped by status (workflow order); P0 first inside a group, then by id."""
    by_status: dict[str, list] = {}
    for task in tasks:
        by_status.setdefault(task.status, []).append(task)
    key = by_priority(priorities)
    return [Group(status, sorted(by_status[status], key=key))
            for status in _order(by_status, statuses) if status in by_status]


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
    priority = by_priority(priorities)

    def card_key(task):
        return (task.sprint_rank is None, task.sprint_rank or 0, *priority(task))

    return [Group(status, sorted(cards, key=card_key)) for status, cards in columns.items()]


def capped(groups: list[Group], limit: int | None) -> list[Group]:
    """Each group cut to its first `limit` tasks, remembering how many it had (None: no cut)."""
    if limit is None:
        return groups
    return [replace(g, tasks=g.tasks[:limit], total=len(g.tasks)) if len(g.tasks) > limit else g
            for g in groups]

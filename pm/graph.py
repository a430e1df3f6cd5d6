"""Dependencies between tasks (pure): who blocks whom, ready and blocked lists, cycles."""
from __future__ import annotations

from pm.model import FINISHED, Task


def blockers_map(tasks: list[Task]) -> dict[int, set[int]]:
    """task id -> ids that block it, from both "blocked-by" on it and "blocks" on the other
    (only tasks that have a blocker are keys: at 100,000 tasks most have none)."""
    out: dict[int, set[int]] = {}
    for t in tasks:
        if not t.links:
            continue
        for kind, other in t.links:
            if kind == "blocked-by":
                out.setdefault(t.id, set()).add(other)
            elif kind == "blocks":
                out.setdefault(other, set()).add(t.id)
    return out


def cycles(blockers: dict[int, set[int]]) -> list[list[int]]:
    """Every dependency cycle once (Tarjan's strongly connected components, iterative)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    found: list[list[int]] = []
    counter = 0
    # Only tasks with blockers can be on a cycle; starting from them alone saves most of the walk.
    for root in sorted(k for k, v in blockers.items() if v):
        if root in index:
            continue
        work = [(root, iter(sorted(blockers.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(blockers.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in blockers.get(node, ()):
                    found.append(sorted(component))
    return sorted(found)


def work_order(task: Task) -> tuple:
    """Sprint tasks first by rank, then by priority, then oldest first."""
    return (task.sprint_rank is None, task.sprint_rank or 0, task.priority, task.id)


def analyse(tasks: list[Task]) -> tuple[list[Task], list[tuple[Task, list[int], bool]]]:
    """(ready tasks in work order, [(blocked task, open blocker ids, in a cycle)])."""
    by_id = {t.id: t for t in tasks}
    blockers = blockers_map(tasks)
    in_cycle = {member for cycle in cycles(blockers) for member in cycle}
    ready, blocked = [], []
    for t in tasks:
        if t.status in FINISHED:
            continue
        mine = blockers.get(t.id)
        if not mine and t.status == "open":  # the common case, kept cheap
            ready.append(t)
            continue
        open_blockers = sorted(b for b in mine or () if b in by_id and by_id[b].status not in FINISHED)
        if open_blockers or t.id in in_cycle:
            blocked.append((t, open_blockers, t.id in in_cycle))
        elif t.status == "open":
            ready.append(t)
    ready.sort(key=work_order)
    blocked.sort(key=lambda item: work_order(item[0]))
    return ready, blocked

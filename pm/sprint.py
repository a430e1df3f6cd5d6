"""The sprint's order (pure): what promote, rank and demote do to the ranked list of ids."""
from __future__ import annotations

from pm.errors import Conflict, InvalidValue


def plan(order: list[int], task_id: int, rank: int | None, verb: str) -> list[int]:
    """The sprint after `verb` ("promote", "rank" or "demote") of task_id; rank 1 is the top,
    None means last. Ranks are then 1..n in this order."""
    if rank is not None and rank < 1:
        raise InvalidValue("sprint ranks start at 1")
    was_in = task_id in order
    if verb == "rank" and not was_in:
        raise Conflict(f"task {task_id} is not in the sprint; promote it first")
    if verb == "demote" and not was_in:
        raise Conflict(f"task {task_id} is not in the sprint")
    if verb == "promote" and was_in:
        raise Conflict(f"task {task_id} is already in the sprint at rank "
                       f"{order.index(task_id) + 1}; use pm rank to move it")
    result = [tid for tid in order if tid != task_id]
    if verb != "demote":
        position = len(result) if rank is None else min(rank - 1, len(result))
        result.insert(position, task_id)
    return result


def rank_changes(current: dict[int, int | None], order: list[int], task_id: int) -> dict[int, int | None]:
    """{task id: new rank or None} for every task whose rank must change."""
    wanted = {tid: i for i, tid in enumerate(order, 1)}
    return {tid: wanted.get(tid) for tid in sorted(set(wanted) | {task_id})
            if current.get(tid) != wanted.get(tid)}

"""The sprint: what promote, rank and demote do to the ranked list of ids (plan and
rank_changes, pure), and the change itself inside a unit of work (resprint, ceo only)."""
from __future__ import annotations

from pm.errors import Conflict, InvalidValue, RoleRefused, TaskNotFound
from pm.model import Actor, Task, now


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


def check_ceo(actor: Actor, verb: str) -> None:
    """RoleRefused unless ACTOR is the ceo (only the ceo changes the sprint)."""
    if actor.role != "ceo":
        raise RoleRefused(f"only the ceo role may {verb} sprint tasks; you act as "
                          f"{actor.name} (PM_ROLE={actor.role}). File or log instead, or "
                          "ask the ceo session")


def normalised(tasks) -> list[tuple[int, int, int]]:
    """[(task id, rank now, rank it should have)] for the sprint tasks whose rank is not
    their place in the order (rank, id): ranks that clash or skip numbers (pure)."""
    ranked = sorted((t for t in tasks if t.sprint_rank is not None), key=lambda t: (t.sprint_rank, t.id))
    return [(t.id, t.sprint_rank, place) for place, t in enumerate(ranked, 1) if t.sprint_rank != place]


def resprint(work, task_id: int, rank: int | None, verb: str) -> Task:
    """Inside a unit of work: promote, rank or demote TASK_ID; every task whose rank moves is
    written, and the commit carries the PM-Sprint trailer naming each change."""
    work.doc(task_id)  # TaskNotFound, or StaleEdit when the caller expected another version
    tasks = work.tasks()
    if not any(t.id == task_id for t in tasks):
        raise TaskNotFound(task_id)
    order = [t.id for t in sorted((t for t in tasks if t.sprint_rank is not None),
                                  key=lambda t: (t.sprint_rank, t.id))]
    current = {t.id: t.sprint_rank for t in tasks}
    changed = rank_changes(current, plan(order, task_id, rank, verb), task_id)
    stamp = now()
    docs, changes = [], []
    for tid, new_rank in changed.items():
        doc = work.doc(tid)
        doc.set_meta("sprint", "" if new_rank is None else str(new_rank))
        work.save(doc, stamp)
        docs.append(doc)
        changes.append(f"#{tid} {current.get(tid) or '-'} -> {new_rank or '-'}")
    if docs:
        trailer = f"PM-Sprint: {verb} #{task_id}; " + ", ".join(changes)
        work.commit([d.path for d in docs], f"pm: {verb} #{task_id}", [trailer],
                    changed=[d.task() for d in docs])
    return work.doc(task_id).task()

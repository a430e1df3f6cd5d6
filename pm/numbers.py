"""Task numbers: each clone hands out a number once, never again (.git/pm/next keeps the
highest one given, so a task deleted or renumbered never gives its number to a new one)."""
from __future__ import annotations

from pm.layout import Paths, task_names


def reserved(paths: Paths) -> int:
    """The highest number this clone has given out (0 for none)."""
    try:
        with open(paths.reserved, encoding="ascii") as fh:
            return int(fh.read().strip() or 0)
    except (FileNotFoundError, ValueError):
        return 0


def next_id(paths: Paths) -> int:
    """The number the next `pm new` will get."""
    return max(max(task_names(paths.tasks_dir), default=0), reserved(paths)) + 1


def reserve(work, files: dict[int, int | str], count: int = 1) -> int:
    """Inside a unit of work: the first of COUNT numbers nobody was ever given in this clone
    (FILES: the ids in use). A rolled-back change keeps them given: never handed out twice."""
    first = max(max(files, default=0), reserved(work.paths)) + 1
    work.write_state(work.paths.reserved, f"{first + count - 1}\n")
    return first


def cover(work, top: int) -> None:
    """Inside a unit of work: record that numbers up to TOP are given (imports keep ids)."""
    if top > reserved(work.paths):
        work.write_state(work.paths.reserved, f"{top}\n")

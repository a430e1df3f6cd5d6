"""The one place `instances` talks to pm: a task's title (to name its branch) and a log line on
the task. pm is optional: without it, `up` takes branch names and nothing is logged."""
from instances.errors import InstancesError


def _tracker():
    try:
        from pm.api import Tracker  # noqa: WPS433 (optional dependency inside this repo)
    except ImportError:
        return None
    try:
        return Tracker.find()
    except Exception:  # no tracker found from here: pm's own error says why, we just skip pm
        return None


def task_title(task_id: int) -> str:
    tracker = _tracker()
    if tracker is None:
        raise InstancesError(f"cannot look up task {task_id}: no pm tracker found; "
                             "run inside a pm tracker or pass a branch name instead")
    try:
        task = tracker.get(task_id)
    except Exception as exc:
        raise InstancesError(f"task {task_id}: {exc}") from None
    title = getattr(task, "title", None)
    if title is None and isinstance(task, dict):
        title = task.get("title")
    return title or ""


def log_on_task(task_id: int | None, text: str) -> str | None:
    """Log TEXT on the task. Returns None on success, else why it was not logged (never raises)."""
    if task_id is None:
        return "no task"
    tracker = _tracker()
    if tracker is None:
        return "no pm tracker found"
    log = getattr(tracker, "log", None)
    if log is None:
        return "pm's Tracker has no log() method"
    try:
        log(task_id, text)
    except Exception as exc:
        return f"pm could not log on task {task_id}: {exc}"
    return None

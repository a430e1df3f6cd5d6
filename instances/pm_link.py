"""The one place `instances` talks to pm (through pm.api, never by editing task files): a task's
title, to name its branch, a log entry on the task, and what the dashboard shows of it. Without a tracker (no PM_DIR and no
.pmtracker above the working directory) branch names still work and nothing is logged."""
import html
import re

from instances.errors import NotFound

# What demo/pm_link.py logs: "demo video: /abs/path.mp4 (report: ...); narration sync p95 ..."
_VIDEO_RE = re.compile(r"demo video: (/\S+?\.mp4)\b")


class NoTracker(Exception):
    """pm is not installed or no tracker is reachable from here."""


def _tracker():
    try:
        from pm.api import PmError, Tracker
    except ImportError:
        raise NoTracker("pm is not installed") from None
    try:
        return Tracker.find()
    except PmError as exc:
        raise NoTracker(str(exc)) from None


def task_title(task_id: int) -> str | None:
    """The task's title; None when no tracker is reachable. Raises NotFound for a missing task."""
    try:
        tracker = _tracker()
    except NoTracker:
        return None
    from pm.api import PmError

    try:
        return tracker.get(task_id).title
    except PmError as exc:
        raise NotFound(f"task {task_id}: {exc}") from None


def log_on_task(task_id: int | None, text: str) -> str | None:
    """Log TEXT on the task. None on success, else why nothing was logged (never raises)."""
    if task_id is None:
        return "no task"
    try:
        tracker = _tracker()
    except NoTracker as exc:
        return f"no pm tracker ({exc})"
    from pm.api import PmError

    try:
        tracker.log(task_id, text)
    except PmError as exc:
        return f"pm could not log on task {task_id}: {exc}"
    return None


def task_summary(task_id: int | None) -> dict | None:
    """{"title", "status", "videos"} of the task for the dashboard; None without a task or a
    tracker. VIDEOS are the demo videos logged on it, newest first."""
    if task_id is None:
        return None
    try:
        tracker = _tracker()
    except NoTracker:
        return None
    from pm.api import PmError

    try:
        task = tracker.get(task_id)
    except PmError as exc:
        return {"title": None, "status": None, "videos": [], "error": str(exc)}
    videos = [m.group(1) for entry in task.log for m in _VIDEO_RE.finditer(html.unescape(entry.html))]
    return {"title": task.title, "status": task.status, "videos": list(dict.fromkeys(reversed(videos)))}

"""The one place demo talks to pm: log a finished video on a task through pm's Python API."""
from __future__ import annotations

import os

from demo.errors import DemoError


def log_video(task_id: int, video: str, report: str | None = None, sync_p95_ms: float | None = None,
              tracker_dir: str | None = None) -> str:
    """Append "demo video: PATH" (with its report and sync figure) to the task's log; return the text."""
    try:
        from pm.api import PmError, Tracker
    except ImportError as exc:  # pm is part of this distribution; only a broken install lacks it
        raise DemoError(f"pm is not importable ({exc}); cannot log the video on task {task_id}") from None
    text = f"demo video: {os.path.abspath(video)}"
    if report:
        text += f" (report: {os.path.abspath(report)})"
    if sync_p95_ms is not None:
        text += f"; narration sync p95 {sync_p95_ms:.1f} ms"
    try:
        tracker = Tracker(tracker_dir) if tracker_dir else Tracker.find()
        tracker.log(int(task_id), text)
    except PmError as exc:
        raise DemoError(f"cannot log the video on task {task_id}: {exc}") from None
    return text

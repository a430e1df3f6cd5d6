"""The one place demo talks to pm: log a finished video on a task through pm's Python API."""
from __future__ import annotations

import os
from typing import Callable, TypeVar

from demo.errors import DemoError, SyncError

T = TypeVar("T")


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


def run_logged(job: Callable[[], T], task_id: int | None, note: Callable[[str], None]) -> T:
    """JOB() (a record or a compose, returning a compose.Result); with TASK_ID, the video is
    logged on the task afterwards and NOTE says so. When the sync misses, the video exists but
    is not logged: NOTE says that and the SyncError goes on."""
    try:
        result = job()
    except SyncError:
        if task_id is not None:  # the video exists; the lead should still see where
            note(f"not logged on task {task_id}: sync missed")
        raise
    if task_id is not None:
        text = log_video(task_id, result.video, result.report, result.figures["sync"]["p95_ms"])
        note(f"logged on task {task_id}: {text}")
    return result

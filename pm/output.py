"""How pm prints tasks: one place for the lines and JSON every command prints."""
from __future__ import annotations

import sys


def emit(data) -> None:
    import json
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def line(t) -> str:
    extra = f"  [sprint {t.sprint_rank}]" if t.sprint_rank is not None else ""
    extra += f"  @{t.owner}" if t.owner else ""
    extra += "  " + " ".join(f"+{label}" for label in t.labels) if t.labels else ""
    return f"{t.id:>5}  {t.status:<11} {t.priority}  {t.kind:<7} {t.title}{extra}"


def listing(tasks, as_json: bool) -> None:
    """Tasks, or pm.model.Summary rows (which carry their line, made when they were cached)."""
    if as_json:
        emit([t.compact() for t in tasks])
    else:
        text = "\n".join(getattr(t, "line", None) or line(t) for t in tasks)
        sys.stdout.write(text + "\n" if tasks else "no tasks\n")


def done(task, as_json: bool, text: str | None = None) -> None:
    if as_json:
        emit(task.compact())
    else:
        sys.stdout.write((text if text is not None else line(task)) + "\n")

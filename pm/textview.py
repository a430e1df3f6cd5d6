"""Plain-text view of one task for `pm show` (pure)."""
from __future__ import annotations

import html
import re


def strip_tags(fragment: str) -> str:
    text = re.sub(r"<(br|/p|/li|/h\d|/pre|/div)\b[^>]*>", "\n", fragment, flags=re.I)
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def task_text(task) -> str:
    head = [f"#{task.id} {task.title}",
            f"status {task.status} · {task.priority} · {task.kind}"
            + (f" · sprint #{task.sprint_rank}" if task.sprint_rank is not None else "")
            + (f" · owner {task.owner}" if task.owner else ""),
            f"created {task.created} · updated {task.updated} · {task.path}"]
    out = ["\n".join(head)]
    for name in ("problem", "fix", "verification"):
        body = strip_tags(task.sections.get(name, ""))
        if body:
            out.append(f"{name.upper()}\n{body}")
    if task.links:
        out.append("LINKS\n" + "\n".join(f"{kind} #{other}" for kind, other in task.links))
    if task.log:
        out.append("LOG\n" + "\n".join(f"{e.time} {e.who}: {strip_tags(e.html)}" for e in task.log))
    return "\n\n".join(out)

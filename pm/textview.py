"""Plain-text view of one task for `pm show` (pure)."""
from __future__ import annotations

import html
import re


_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>")
_BREAKS = {"br", "p", "li", "pre", "div", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6"}


def strip_tags(fragment: str) -> str:
    """FRAGMENT as plain text: list items keep their bullet ("- ", or "1. " in an ordered
    list), indented two spaces per level of nesting."""
    out, lists = [], []  # lists: a counter per open list, None for <ul>
    pos = 0
    for m in _TAG.finditer(fragment):
        out.append(html.unescape(fragment[pos:m.start()]))
        pos = m.end()
        closing, name = m.group(1), m.group(2).lower()
        if name in ("ul", "ol"):
            if closing:
                lists and lists.pop()
            else:
                lists.append(0 if name == "ol" else None)
        if name == "li" and not closing:
            if lists and lists[-1] is not None:
                lists[-1] += 1
                bullet = f"{lists[-1]}. "
            else:
                bullet = "- "
            out.append("\n" + "  " * max(len(lists) - 1, 0) + bullet)
        elif name in _BREAKS and (closing or name in ("br", "ul", "ol")):
            out.append("\n")
    out.append(html.unescape(fragment[pos:]))
    text = "".join(out)
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", re.sub(r"(?<=\n)\n+(?=\s*(- |\d+\. ))", "", text)).strip()


def task_text(task) -> str:
    head = [f"#{task.id} {task.title}",
            f"status {task.status} · {task.priority} · {task.kind}"
            + (f" · sprint #{task.sprint_rank}" if task.sprint_rank is not None else "")
            + (f" · owner {task.owner}" if task.owner else "")
            + (f" · labels {', '.join(task.labels)}" if task.labels else ""),
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

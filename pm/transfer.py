"""pm import / pm export: JSONL records, and Backlog.md's markdown task files.

A JSONL record is the object `pm show --json` prints (see docs/pm-format.md); only
"title" is required. Every record is checked before anything is written, and the whole
import is one commit.
"""
from __future__ import annotations

import json
import os
import re

from pm.errors import InvalidValue
from pm.model import KINDS, LINK_TYPES, PRIORITIES, STATUSES, check, check_who

_FIELDS = {"id", "title", "status", "priority", "kind", "sprint", "created", "updated", "owner",
           "path", "problem", "fix", "verification", "links", "log"}


def read_jsonl(path: str) -> list[dict]:
    records = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise InvalidValue(f"{path}:{number}: not JSON ({err.msg})") from None
            if not isinstance(record, dict):
                raise InvalidValue(f"{path}:{number}: each line must be a JSON object")
            records.append(normalise(record, f"{path}:{number}"))
    return records


def normalise(record: dict, where: str) -> dict:
    """Check one record and fill defaults; raise InvalidValue naming where."""
    unknown = set(record) - _FIELDS
    if unknown:
        raise InvalidValue(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    if not str(record.get("title") or "").strip():
        raise InvalidValue(f"{where}: a task needs a title")
    out = dict(record)
    out.setdefault("status", "open")
    out.setdefault("priority", "P2")
    out.setdefault("kind", "task")
    try:
        check(out["status"], STATUSES, "status")
        check(out["priority"], PRIORITIES, "priority")
        check(out["kind"], KINDS, "kind")
        out["links"] = [(check(l["type"], LINK_TYPES, "link type"), int(l["id"]))
                        for l in out.get("links") or []]
        if out.get("owner"):
            check_who(out["owner"])
        for entry in out.get("log") or []:
            check_who(entry["who"])
            if not str(entry["time"]) or not isinstance(entry["html"], str):
                raise InvalidValue("a log entry needs time, who and html")
    except (InvalidValue, KeyError, TypeError, ValueError) as err:
        raise InvalidValue(f"{where}: {err}") from None
    for name in ("id", "sprint"):
        if out.get(name) is not None:
            if not isinstance(out[name], int) or out[name] < 1:
                raise InvalidValue(f"{where}: {name} must be a positive integer")
    return out


def dump_records(records) -> str:
    """JSONL: one record (a task's full JSON object) a line."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def dump_jsonl(tasks) -> str:
    """JSONL of full Tasks."""
    return dump_records(t.full() for t in tasks)


# -- Backlog.md ------------------------------------------------------------------------------
_BACKLOG_STATUS = {"to do": "open", "todo": "open", "in progress": "in-progress",
                   "done": "done", "review": "review"}
_BACKLOG_PRIORITY = {"high": "P1", "medium": "P2", "low": "P3"}
_SECTION_RE = re.compile(r"^## +(.+?)\s*$", re.M)


def backlog_files(path: str) -> list[str]:
    """Task files of a Backlog.md project: PATH, PATH/tasks or PATH/backlog/tasks."""
    for candidate in (os.path.join(path, "backlog", "tasks"), os.path.join(path, "tasks"), path):
        if os.path.isdir(candidate):
            names = sorted(n for n in os.listdir(candidate)
                           if n.startswith("task-") and n.endswith(".md"))
            if names:
                return [os.path.join(candidate, n) for n in names]
    raise InvalidValue(f"no Backlog.md task files (backlog/tasks/task-N - Title.md) under {path}")


def read_backlog(path: str) -> list[dict]:
    import yaml  # lazy: only imports of Backlog.md need it
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False})
    records = []
    for file in backlog_files(path):
        with open(file, encoding="utf-8") as fh:
            text = fh.read()
        m = re.match(r"^---\r?\n(.*?)\r?\n---\r?\n?(.*)$", text, re.S)
        if not m:
            raise InvalidValue(f"{file}: no YAML front matter between --- lines")
        try:
            front = yaml.safe_load(m.group(1)) or {}
        except yaml.YAMLError as err:
            raise InvalidValue(f"{file}: front matter is not YAML ({err})") from None
        records.append(normalise(_from_backlog(front, m.group(2), md, file), file))
    return records


def _number(value) -> int | None:
    m = re.search(r"(\d+)$", str(value or ""))
    return int(m.group(1)) if m else None


def _from_backlog(front: dict, body: str, md, file: str) -> dict:
    sections = {}
    parts = _SECTION_RE.split(body)
    for heading, content in zip(parts[1::2], parts[2::2]):
        content = re.sub(r"<!--.*?-->", "", content, flags=re.S).strip()
        if content:
            sections[heading.strip().lower()] = md.render(content)
    labels = [str(l).lower() for l in front.get("labels") or []]
    kind = next((k for k in ("bug", "feature", "docs", "chore") if k in labels), "task")
    status = _BACKLOG_STATUS.get(str(front.get("status") or "").strip().lower(), "open")
    assignee = front.get("assignee") or []
    owner = re.sub(r"[^A-Za-z0-9._@+-]", "", str(assignee[0] if isinstance(assignee, list) and assignee
                                                  else assignee or "")).lstrip("@.-_+")
    fix = "".join(sections.get(h, "") for h in ("implementation plan", "implementation notes"))
    record = {
        "title": str(front.get("title") or os.path.basename(file)[:-3]),
        "status": status,
        "priority": _BACKLOG_PRIORITY.get(str(front.get("priority") or "").lower(), "P2"),
        "kind": kind, "owner": owner,
        "problem": sections.get("description", ""), "fix": fix,
        "verification": sections.get("acceptance criteria", ""),
        "links": [{"type": "blocked-by", "id": n} for n in map(_number, front.get("dependencies") or [])
                  if n is not None],
    }
    number = _number(front.get("id"))
    if number:
        record["id"] = number
    created = str(front.get("created_date") or "")
    if re.match(r"^\d{4}-\d\d-\d\d \d\d:\d\d$", created):
        record["created"] = created.replace(" ", "T") + ":00Z"
    return record

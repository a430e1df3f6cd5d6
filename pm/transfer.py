"""pm import / pm export: JSONL records (Backlog.md projects: pm.backlogmd).

A JSONL record is the object `pm show --json` prints (see docs/pm-format.md); only
"title" is required. Every record is checked before anything is written, and the whole
import is one commit.
"""
from __future__ import annotations

import json

from pm.errors import InvalidValue
from pm.model import KINDS, LINK_TYPES, PRIORITIES, STATUSES, check, check_labels, check_who

_FIELDS = {"id", "title", "status", "priority", "kind", "sprint", "created", "updated", "owner",
           "path", "problem", "fix", "verification", "links", "log", "labels"}


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
        out["labels"] = check_labels(out.get("labels") or [])
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

"""The MCP tools of `pm mcp`: one table, read by the server for tools/list and tools/call.

Each tool mirrors one pm operation (the CLI's verb of the same name) and answers with pm's
compact JSON forms: a listing is [Task.compact()], `show` is Task.full(), a change returns
the changed task's compact form. Every change is one Tracker call, so it is one commit under
the tracker lock the CLI takes; the sprint tools go through the same ceo check as the CLI.

The descriptions are kept short on purpose: the whole tool list is sent to the model before
any work starts (tests/pm/test_mcp.py holds it to 1,500 tokens).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pm.errors import InvalidValue
from pm.model import KINDS, LINK_TYPES, PRIORITIES, STATUSES

ID = {"type": "integer"}
TEXT = {"type": "string"}


def _obj(required: tuple = (), **props) -> dict:
    schema = {"type": "object", "properties": props}
    if required:
        schema["required"] = list(required)
    return schema


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    schema: dict
    call: Callable[[Any, dict], Any]   # (tracker, arguments) -> JSON-able


def _ids(values) -> list[int]:
    return [int(v) for v in (values or [])]


def _new(t, a):
    links = ([("spawned-from", i) for i in _ids(a.get("spawned_from"))]
             + [("blocked-by", i) for i in _ids(a.get("blocked_by"))])
    task = t.new(a["title"], priority=a.get("priority", "P2"), kind=a.get("kind", "task"),
                 problem=a.get("problem", ""), verification=a.get("verification", ""),
                 links=links)
    return task.compact()


def _set(t, a):
    fields = {k: a[k] for k in ("title", "priority", "kind", "fix", "verification", "problem")
              if k in a}
    if not fields:
        raise InvalidValue("set needs at least one of: title, priority, kind, problem, fix, "
                           "verification")
    return t.set(int(a["id"]), **fields).compact()


def _list(t, a):
    tasks = t.list(status=a.get("status"), text=a.get("text"),
                   sprint=a.get("sprint"))
    return [x.compact() for x in tasks[: int(a.get("limit", 50))]]


TOOLS: tuple[Tool, ...] = (
    Tool("ready", "Open unblocked tasks in work order (sprint rank, priority, id).",
         _obj(limit=ID),
         lambda t, a: [x.compact() for x in t.ready()[: int(a.get("limit", 20))]]),
    Tool("list", "Tasks by id; filters: status, title text, sprint. Default limit 50.",
         _obj(status={"type": "array", "items": {"enum": list(STATUSES)}}, text=TEXT,
              sprint={"type": "boolean"}, limit=ID),
         _list),
    Tool("show", "One task in full: sections, links, log.", _obj(("id",), id=ID),
         lambda t, a: t.get(int(a["id"])).full()),
    Tool("claim", "Take a task (open -> in-progress, you own it). No id: the next ready "
         "task. Fails if someone else got it.", _obj(id=ID),
         lambda t, a: t.claim(int(a["id"]) if a.get("id") is not None else None).compact()),
    Tool("new", "File a task; returns it. HTML in problem/verification. Link what spawned "
         "it.",
         _obj(("title",), title=TEXT, priority={"enum": list(PRIORITIES)},
              kind={"enum": list(KINDS)}, problem=TEXT, verification=TEXT,
              spawned_from={"type": "array", "items": ID},
              blocked_by={"type": "array", "items": ID}),
         _new),
    Tool("log", "Append a finding to a task's log (plain text).",
         _obj(("id", "text"), id=ID, text=TEXT),
         lambda t, a: t.log(int(a["id"]), a["text"]).compact()),
    Tool("status", "Set a task's status; with from, only if it is in that status now.",
         _obj(("id", "status"), id=ID, status={"enum": list(STATUSES)},
              **{"from": {"enum": list(STATUSES)}}),
         lambda t, a: t.set_status(int(a["id"]), a["status"], expect=a.get("from")).compact()),
    Tool("set", "Replace fields or sections (HTML) of a task.",
         _obj(("id",), id=ID, title=TEXT, priority={"enum": list(PRIORITIES)},
              kind={"enum": list(KINDS)}, problem=TEXT, fix=TEXT, verification=TEXT),
         _set),
    Tool("link", "Link task id to other (blocks, related... are written on both).",
         _obj(("id", "type", "other"), id=ID, type={"enum": list(LINK_TYPES)}, other=ID),
         lambda t, a: t.link(int(a["id"]), a["type"], int(a["other"])).compact()),
    Tool("promote", "ceo only: put a task in the sprint at rank (default last).",
         _obj(("id",), id=ID, rank=ID),
         lambda t, a: t.promote(int(a["id"]), a.get("rank")).compact()),
    Tool("rank", "ceo only: move a sprint task to rank (1 = top).",
         _obj(("id", "rank"), id=ID, rank=ID),
         lambda t, a: t.rank(int(a["id"]), int(a["rank"])).compact()),
    Tool("demote", "ceo only: take a task out of the sprint.", _obj(("id",), id=ID),
         lambda t, a: t.demote(int(a["id"])).compact()),
)

BY_NAME = {tool.name: tool for tool in TOOLS}


def check_arguments(tool: Tool, arguments: dict | None) -> dict:
    """The arguments checked against the tool's schema (required, known, basic types); the
    message names the argument and the tool, as pm's CLI errors do."""
    arguments = dict(arguments or {})
    props = tool.schema["properties"]
    unknown = sorted(set(arguments) - set(props))
    if unknown:
        raise InvalidValue(f"{tool.name}: unknown argument(s) {', '.join(unknown)}; "
                           f"it takes {', '.join(props) or 'none'}")
    missing = [name for name in tool.schema.get("required", ()) if arguments.get(name) is None]
    if missing:
        raise InvalidValue(f"{tool.name}: missing {', '.join(missing)}")
    for name, value in arguments.items():
        _check_value(tool.name, name, props[name], value)
    return arguments


def _check_value(tool: str, name: str, schema: dict, value) -> None:
    kind = schema.get("type")
    ok = {"integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
          "string": lambda v: isinstance(v, str),
          "boolean": lambda v: isinstance(v, bool),
          "array": lambda v: isinstance(v, list)}.get(kind, lambda v: True)
    if not ok(value):
        raise InvalidValue(f"{tool}: {name} must be {kind}, not {type(value).__name__}")
    if "enum" in schema and value not in schema["enum"]:
        raise InvalidValue(f"{tool}: {name} {value!r} is not one of {', '.join(schema['enum'])}")
    if kind == "array":
        for item in value:
            _check_value(tool, name + "[]", schema.get("items", {}), item)


def call(tracker, name: str, arguments: dict | None):
    """Run tool NAME on TRACKER; its JSON-able answer. Raises InvalidValue for an unknown
    tool or bad arguments, and pm's named errors for refused changes."""
    tool = BY_NAME.get(name)
    if tool is None:
        raise InvalidValue(f"no tool {name!r}; tools: {', '.join(BY_NAME)}")
    return tool.call(tracker, check_arguments(tool, arguments))

"""The values pm knows: fields, allowed values, the Task record, who acts."""
from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from pm.errors import InvalidValue

STATUSES = ("open", "in-progress", "review", "done", "wontfix")
FINISHED = ("done", "wontfix")
PRIORITIES = ("P0", "P1", "P2", "P3")
KINDS = ("task", "bug", "feature", "chore", "docs", "review", "spike")
LINK_TYPES = ("related", "blocks", "blocked-by", "spawned-from", "duplicates", "parent", "subtask")
# Link types written on both tasks: adding "412 blocks 413" also writes "413 blocked-by 412".
INVERSE_LINK = {"blocks": "blocked-by", "blocked-by": "blocks", "related": "related",
                "parent": "subtask", "subtask": "parent"}
ROLES = ("ceo", "worker", "human")
SECTIONS = ("problem", "fix", "verification")
# Meta fields in the order they are written into <head>.
META_FIELDS = ("id", "status", "priority", "kind", "sprint", "created", "updated", "owner")
# Meta fields a file may leave out (files written before they existed stay valid); written
# after the required ones, and only when not empty.
OPTIONAL_META = ("labels",)

_LABEL_RE = re.compile(r"^[a-z0-9][a-z0-9._+-]*$")
_WHO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]*(/[A-Za-z0-9._@+-]+)?$")


@dataclass
class LogEntry:
    time: str
    who: str
    html: str


@dataclass
class Task:
    """One task. Summaries from list()/sprint()/search() leave sections and log empty;
    get() fills everything."""

    id: int
    title: str
    status: str = "open"
    priority: str = "P2"
    kind: str = "task"
    sprint_rank: int | None = None
    created: str = ""
    updated: str = ""
    owner: str = ""
    path: str = ""
    sections: dict = field(default_factory=dict)
    links: list = field(default_factory=list)  # [(type, id)]
    log: list = field(default_factory=list)  # [LogEntry]
    labels: list = field(default_factory=list)  # [str], sorted, each a lower-case word

    def blockers(self) -> list[int]:
        return [other for kind, other in self.links if kind == "blocked-by"]

    def compact(self) -> dict:
        """The ~40-token JSON form used by every listing's --json."""
        return compact(self)

    def full(self) -> dict:
        """The complete JSON form (pm show --json, pm export)."""
        return {
            "id": self.id, "title": self.title, "status": self.status, "priority": self.priority,
            "kind": self.kind, "sprint": self.sprint_rank, "created": self.created,
            "updated": self.updated, "owner": self.owner, "labels": list(self.labels),
            "path": self.path,
            "problem": self.sections.get("problem", ""), "fix": self.sections.get("fix", ""),
            "verification": self.sections.get("verification", ""),
            "links": [{"type": t, "id": i} for t, i in self.links],
            "log": [{"time": e.time, "who": e.who, "html": e.html} for e in self.log],
        }


def compact(t) -> dict:
    """A Task's (or Summary's) ~40-token JSON form, the one every listing's --json prints."""
    out = {"id": t.id, "title": t.title, "status": t.status, "priority": t.priority, "kind": t.kind}
    if t.sprint_rank is not None:
        out["sprint"] = t.sprint_rank
    if t.owner:
        out["owner"] = t.owner
    if t.labels:
        out["labels"] = list(t.labels)
    return out


class Summary(NamedTuple):
    """A task as the listing cache holds it (pm.store): the summary fields of a Task, read-only
    and cheap to make 100,000 of, plus LINE, the task's line in `pm ls` (pm.output.line)."""

    id: int
    title: str
    status: str
    priority: str
    kind: str
    sprint_rank: int | None
    created: str
    updated: str
    owner: str
    links: tuple  # ((type, id), ...)
    labels: tuple
    path: str
    line: str

    def compact(self) -> dict:
        return compact(self)

    def blockers(self) -> list[int]:
        return [other for kind, other in self.links if kind == "blocked-by"]


def summaries_of(rows) -> list[Summary]:
    """Plain tuples (as the listing file keeps them) as Summaries (what NamedTuple's _make
    does, without a Python-level call per row)."""
    from functools import partial
    return list(map(partial(tuple.__new__, Summary), rows))


def now() -> str:
    """The time now as pm writes it: ISO 8601, UTC, whole seconds."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def clean_title(title: str) -> str:
    """TITLE on one line with single spaces; InvalidValue when nothing is left."""
    title = " ".join((title or "").split())
    if not title:
        raise InvalidValue("a task needs a title")
    return title


def check(value: str, allowed: tuple, what: str) -> str:
    if value not in allowed:
        raise InvalidValue(f"{what} {value!r} is not allowed; use one of: {', '.join(allowed)}")
    return value


def check_labels(labels) -> list[str]:
    """LABELS (a list, or one comma-separated string) as pm stores them: lower case, sorted,
    unrepeated; InvalidValue naming a label that is not one word."""
    if isinstance(labels, str):
        labels = labels.split(",")
    out = set()
    for label in labels:
        label = str(label).strip().lower()
        if not label:
            continue
        if not _LABEL_RE.match(label):
            raise InvalidValue(f"label {label!r} is not allowed; use lower-case letters, digits "
                               "and . _ + - (no spaces or commas)")
        out.add(label)
    return sorted(out)


def check_who(who: str) -> str:
    if not _WHO_RE.match(who or ""):
        raise InvalidValue(f"name {who!r} is not allowed; use letters, digits, . _ - @ + and one /")
    return who


@dataclass(frozen=True)
class Actor:
    """Who acts: a role and a session name, from PM_ROLE and PM_SESSION."""

    role: str = "human"
    session: str = "local"

    @classmethod
    def from_env(cls, env=None) -> "Actor":
        env = os.environ if env is None else env
        role = env.get("PM_ROLE") or "human"
        check(role, ROLES, "PM_ROLE")
        session = env.get("PM_SESSION") or env.get("USER") or "local"
        check_who(session)
        if "/" in session:
            raise InvalidValue(f"PM_SESSION {session!r} may not contain '/'")
        return cls(role, session)

    @property
    def name(self) -> str:
        return f"{self.role}/{self.session}"

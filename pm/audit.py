"""pm audit: every commit that changed a task's sprint rank without the ceo's trailer."""
from __future__ import annotations

import re
from dataclasses import dataclass

from pm import gitrepo
from pm.history import LOG_FORMAT, commits, who_from


@dataclass
class AuditFinding:
    commit: str
    who: str
    date: str
    task_id: int
    change: str  # e.g. "'' -> '3'"
    problem: str

_SPRINT = re.compile(r'^([+-])<meta name="pm:sprint" content="([^"]*)">\r?$')
_ID = re.compile(r'^[+-]<meta name="pm:id" content="(\d+)">', re.M)


def audit(tracker) -> list[AuditFinding]:
    """TRACKER: anything with a .root (a pm Tracker)."""
    raw = gitrepo.git(tracker.root, "log", "-p", "-U0", "--no-color", "--no-renames",
                      '-G<meta name="pm:sprint"', LOG_FORMAT, "--", "tasks")
    findings = []
    for commit, author, date, body, diff in commits(raw):
        who = who_from(body, author)
        trailer = re.search(r"^PM-Sprint: ", body, re.M)
        role = re.search(r"^PM-Role: (\S+)", body, re.M)
        for change in _changes(diff):
            task_id, before, after = change
            if trailer and role and role.group(1) == "ceo":
                continue
            problem = ("no PM-Sprint trailer" if not trailer else
                       f"PM-Sprint trailer but role {role.group(1) if role else 'unknown'}, not ceo")
            findings.append(AuditFinding(commit, who, date, task_id, f"{before!r} -> {after!r}", problem))
    return findings


def _changes(diff: str):
    """(task id, old rank, new rank) per file whose sprint meta line really changed."""
    for file_diff in re.split(r"^diff --git ", diff, flags=re.M)[1:]:
        old = new = None
        for line in file_diff.splitlines():
            m = _SPRINT.match(line)
            if m:
                if m.group(1) == "-":
                    old = m.group(2)
                else:
                    new = m.group(2)
        if old is None and new is None:
            continue
        if (old or "") == (new or ""):
            continue
        m = re.search(r"^b/tasks/(\d+)-", file_diff, re.M) or re.search(r"tasks/(\d+)-", file_diff)
        yield (int(m.group(1)) if m else 0, old or "", new or "")

"""pm audit: every commit that changed a task's sprint rank without the ceo's trailer."""
from __future__ import annotations

import re

from pm import gitrepo
from pm.tracker import AuditFinding, _who_from

_SPRINT = re.compile(r'^([+-])<meta name="pm:sprint" content="([^"]*)">\r?$')
_ID = re.compile(r'^[+-]<meta name="pm:id" content="(\d+)">', re.M)


def audit(tracker) -> list[AuditFinding]:
    raw = gitrepo.git(tracker.root, "log", "-p", "-U0", "--no-color", "--no-renames",
                      '-G<meta name="pm:sprint"', "--format=%x00%H%x1f%an%x1f%aI%x1f%B%x1f",
                      "--", "tasks")
    findings = []
    for chunk in raw.split("\0")[1:]:
        commit, author, date, body, diff = chunk.split("\x1f", 4)
        who = _who_from(body, author)
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

"""A task's history from git: its commits, who made each (pm's trailers), and their diffs."""
from __future__ import annotations

import re
from dataclasses import dataclass

from pm import gitrepo

# One record per commit: NUL, then hash, author, date and body separated by US, then the diff.
LOG_FORMAT = "--format=%x00%H%x1f%an%x1f%aI%x1f%B%x1f"


@dataclass
class HistoryEntry:
    commit: str
    who: str  # role/session from the commit's trailers (or its author)
    date: str
    message: str
    diff: str


def who_from(body: str, author: str) -> str:
    """"role/session" from a commit message's PM-Role and PM-Session trailers, else AUTHOR."""
    role = re.search(r"^PM-Role: (\S+)", body, re.M)
    session = re.search(r"^PM-Session: (\S+)", body, re.M)
    if role and session:
        return f"{role.group(1)}/{session.group(1)}"
    return author


def commits(raw: str):
    """(commit, author, date, body, diff) for each record of `git log LOG_FORMAT -p`."""
    for chunk in raw.split("\0")[1:]:
        yield tuple(chunk.split("\x1f", 4))


def history(root: str, *rels: str) -> list[HistoryEntry]:
    """The commits that touched any of RELS, newest first, each with its diff."""
    raw = gitrepo.git(root, "log", "-p", "--no-color", LOG_FORMAT, "--", *rels)
    return [HistoryEntry(commit, who_from(body, author), date, body.strip(),
                         diff.strip("\n") + "\n")
            for commit, author, date, body, diff in commits(raw)]

"""A tracker's git repo set up for pm: `pm init`'s files, and per clone the merge driver and
post-merge hook that keep merges of overview.html from ever conflicting."""
from __future__ import annotations

import os
import sys

from pm import gitrepo
from pm.errors import PmError
from pm.layout import GITATTRIBUTES, MARKER, TASKS, Paths, is_tracker

SETUP_STAMP = "setup-1"
MARKER_TEXT = "pm tracker, format 1; see docs/pm-format.md\n"
HOOK = ("#!/bin/sh\n# pm: regenerate overview.html from the merged tasks\n"
        'PM_DIR="$(pwd)" exec "{python}" -m pm.cli overview --commit --quiet\n')
# What `pm init` writes and commits (the overview is added by whoever commits them).
INIT_FILES = (MARKER, ".gitattributes", f"{TASKS}/.keep")


def ensure(paths: Paths, force: bool = False) -> None:
    """Install the merge driver and the hook once per clone (a stamp in .git/pm says so)."""
    from plumbing.files import atomic_write
    stamp = os.path.join(paths.pm_dir, SETUP_STAMP)
    if not force and os.path.exists(stamp):
        return
    try:
        os.makedirs(paths.pm_dir, exist_ok=True)
        gitrepo.git(paths.root, "config", "merge.pm-overview.name",
                    "pm: keep ours, regenerated after the merge")
        gitrepo.git(paths.root, "config", "merge.pm-overview.driver", "true")
        if paths.sharded:
            split_index(paths.root)
        hook = os.path.join(paths.root, ".git", "hooks", "post-merge")
        if not os.path.exists(hook):
            os.makedirs(os.path.dirname(hook), exist_ok=True)
            atomic_write(hook, HOOK.format(python=sys.executable), mode=0o755)
        atomic_write(stamp, "merge driver and post-merge hook installed\n", durable=False)
    except (OSError, PmError):
        pass  # read-only trackers still work for reading


def split_index(root: str) -> None:
    """A big tracker's index (10 MB at 100,000 files) written whole by every commit costs
    more than the commit's own work: git's split index rewrites only the changed entries."""
    gitrepo.git(root, "config", "core.splitIndex", "true")


def create_files(root: str) -> Paths:
    """Lay out a new tracker in ROOT (a new git repo unless ROOT already is one); the files
    in INIT_FILES are written but not committed."""
    from plumbing.files import atomic_write
    root = os.path.abspath(root)
    if is_tracker(root):
        raise PmError(f"{root} already holds a pm tracker")
    os.makedirs(os.path.join(root, TASKS), exist_ok=True)
    if not os.path.isdir(os.path.join(root, ".git")):
        gitrepo.init(root)
    atomic_write(os.path.join(root, MARKER), MARKER_TEXT)
    atomic_write(os.path.join(root, ".gitattributes"), GITATTRIBUTES)
    atomic_write(os.path.join(root, TASKS, ".keep"), "")
    paths = Paths(root)
    ensure(paths, force=True)
    return paths


PAGES_ATTRIBUTE = "overview/*.html merge=pm-overview\n"


def has_merge_attribute(paths: Paths) -> bool:
    """Whether .gitattributes names pm's merge driver for overview.html."""
    return GITATTRIBUTES not in missing_attributes(paths)


def missing_attributes(paths: Paths) -> list[str]:
    """The merge-driver lines .gitattributes lacks: overview.html's, and in a sharded tracker
    its pages' (overview/*.html)."""
    try:
        with open(paths.path(".gitattributes"), encoding="utf-8", newline="") as fh:
            lines = [line.split() for line in fh.read().splitlines()]
    except FileNotFoundError:
        lines = []
    wanted = [GITATTRIBUTES] + ([PAGES_ATTRIBUTE] if paths.sharded else [])
    return [w for w in wanted if w.split() not in lines]


"""Where things live in a tracker directory, and finding one (no git, no locks, no writes).

    <root>/.pmtracker            marks the directory as a tracker
    <root>/tasks/<id>-<slug>.html  one file per task
    <root>/overview.html          generated from the task files
    <root>/.git/pm/               this clone's own state: lock, cache, reserved numbers
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from pm.errors import TaskNotFound, TrackerNotFound

MARKER = ".pmtracker"
OVERVIEW = "overview.html"
TASKS = "tasks"
GITATTRIBUTES = "overview.html merge=pm-overview\n"

# Temp files of an atomic write: `.{name}.{8 random chars}.tmp` / `.new` (plumbing.files,
# mkstemp) and pm's former `.{name}.{pid}.tmp`. A task file never starts with a dot.
TEMP_NAME = re.compile(r"\.(?P<target>.+)\.(?:\d+|[A-Za-z0-9_]{8})\.(?:tmp|new)")


def is_temp_name(name: str) -> bool:
    """Whether a file name is a temp file left by an atomic write (never a task file)."""
    return TEMP_NAME.fullmatch(name) is not None


@dataclass(frozen=True)
class Paths:
    """The places of one tracker; `root` is absolute."""

    root: str

    @property
    def tasks_dir(self) -> str:
        return os.path.join(self.root, TASKS)

    @property
    def pm_dir(self) -> str:
        return os.path.join(self.root, ".git", "pm")

    @property
    def cache(self) -> str:
        return os.path.join(self.pm_dir, "summaries.pickle")

    @property
    def listing(self) -> str:
        return os.path.join(self.pm_dir, "listing.marshal")

    @property
    def lock(self) -> str:
        return os.path.join(self.pm_dir, "lock")

    @property
    def reserved(self) -> str:
        return os.path.join(self.pm_dir, "next")

    def path(self, rel: str) -> str:
        """The absolute path of a tracker-relative one ("tasks/1-x.html", "overview.html")."""
        return os.path.join(self.root, rel)


def is_tracker(root: str) -> bool:
    return os.path.isfile(os.path.join(root, MARKER))


def check_tracker(root: str) -> str:
    """ROOT made absolute; TrackerNotFound unless it holds a tracker."""
    root = os.path.abspath(root)
    if not is_tracker(root):
        raise TrackerNotFound(f"{root} is not a pm tracker (no {MARKER}); "
                              f"create one with: PM_DIR={root} pm init")
    return root


def find_root(start: str | None = None) -> str:
    """PM_DIR if set, else the nearest directory holding .pmtracker from START upwards."""
    env = os.environ.get("PM_DIR")
    if env:
        return env
    here = os.path.abspath(start or os.getcwd())
    while True:
        if is_tracker(here):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            raise TrackerNotFound("no pm tracker here or in any parent directory; set PM_DIR "
                                  "or create one with: PM_DIR=DIR pm init")
        here = parent


def task_names(tasks_dir: str) -> dict[int, str]:
    """{id: file name} from the file names alone (no file is read or stat'ed); lint
    checks that each name's number equals its pm:id."""
    out: dict[int, str] = {}
    for name in os.listdir(tasks_dir):
        number = name.split("-", 1)[0]
        if number.isascii() and number.isdigit() and name.endswith(".html"):
            out.setdefault(int(number), name)
    return out


def file_of(tasks_dir: str, task_id: int) -> str:
    """File name of a task; a directory listing, no stats, so show stays fast."""
    prefix = f"{int(task_id)}-"
    names = sorted(n for n in os.listdir(tasks_dir) if n.startswith(prefix) and n.endswith(".html"))
    if not names:
        raise TaskNotFound(task_id)
    return names[0]

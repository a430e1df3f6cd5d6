"""Where things live in a tracker directory, and finding one (no git, no locks, no writes).

    <root>/.pmtracker            marks the directory as a tracker (and says if it is sharded)
    <root>/tasks/<id>-<slug>.html  one file per task
    <root>/overview.html          generated from the task files
    <root>/.git/pm/               this clone's own state: lock, cache, reserved numbers

A sharded tracker (`pm doctor --shard`, for big trackers) keeps task N in a folder of a
thousand, tasks/<N // 1000>xxx/<id>-<slug>.html, and its overview's backlog in one page per
folder, overview/<N // 1000>xxx.html, so that a commit rewrites small git trees and blobs
instead of a 100,000-entry folder and a 15 MB overview. A task's "name" below is its path
relative to tasks/: the file name in a flat tracker, "12xxx/12345-slug.html" in a sharded one.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from pm.errors import TaskNotFound, TrackerNotFound

MARKER = ".pmtracker"
OVERVIEW = "overview.html"
OVERVIEW_PAGES = "overview"
TASKS = "tasks"
SHARDED = "format 2, sharded"  # in the marker's text
SHARD = re.compile(r"(\d+)xxx")
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

    @property
    def sharded(self) -> bool:
        """Whether new task files go into folders of a thousand (the marker says so)."""
        return is_sharded(self.root)

    def task_name(self, task_id: int, file_name: str) -> str:
        """Where task TASK_ID's file FILE_NAME goes, relative to tasks/."""
        return shard_name(task_id, file_name) if self.sharded else file_name


def shard_of(task_id: int) -> str:
    """The folder of a thousand that holds task TASK_ID in a sharded tracker ("12xxx")."""
    return f"{int(task_id) // 1000}xxx"


def shard_name(task_id: int, file_name: str) -> str:
    return f"{shard_of(task_id)}/{file_name}"


def is_sharded(root: str) -> bool:
    try:
        with open(os.path.join(root, MARKER), encoding="utf-8") as fh:
            return SHARDED in fh.read()
    except OSError:
        return False


def name_of(rel: str) -> str:
    """A task's name (relative to tasks/) from its tracker-relative path."""
    return rel[len(TASKS) + 1:] if rel.startswith(TASKS + "/") else rel


def href(from_name: str, to_name: str) -> str:
    """The relative link from one task file to another (both names relative to tasks/)."""
    here, there = os.path.dirname(from_name), os.path.dirname(to_name)
    if here == there:
        return os.path.basename(to_name)
    return ("../" if here else "") + to_name


def shard_dirs(tasks_dir: str) -> list[str]:
    """The shard folders under tasks/ ("0xxx", "1xxx", ...), in id order."""
    try:
        names = [n for n in os.listdir(tasks_dir) if SHARD.fullmatch(n)]
    except FileNotFoundError:
        return []
    return sorted(names, key=lambda n: int(n[:-3]))


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
    """{id: name} from the file names alone (no file is read or stat'ed), flat files and
    shard folders alike; lint checks that each name's number equals its pm:id."""
    out: dict[int, str] = {}
    listing = os.listdir(tasks_dir)
    for name in listing:
        number = name.split("-", 1)[0]
        if number.isascii() and number.isdigit() and name.endswith(".html"):
            out.setdefault(int(number), name)
        elif SHARD.fullmatch(name):
            for inner in os.listdir(os.path.join(tasks_dir, name)):
                number = inner.split("-", 1)[0]
                if number.isascii() and number.isdigit() and inner.endswith(".html"):
                    out.setdefault(int(number), f"{name}/{inner}")
    return out


def file_of(tasks_dir: str, task_id: int) -> str:
    """The name of a task (relative to tasks/): one directory listing, its shard's folder
    when there is one, no stats, so show stays fast."""
    prefix = f"{int(task_id)}-"
    shard = shard_of(task_id)
    try:
        names = sorted(f"{shard}/{n}" for n in os.listdir(os.path.join(tasks_dir, shard))
                       if n.startswith(prefix) and n.endswith(".html"))
    except (FileNotFoundError, NotADirectoryError):
        names = []
    if not names:
        names = sorted(n for n in os.listdir(tasks_dir) if n.startswith(prefix) and n.endswith(".html"))
    if not names:
        raise TaskNotFound(task_id)
    return names[0]

"""What the pages read from the tracker: pm's public API (pm.api), plus pm.graph's pure
analysis of who blocks whom, run on the summaries a page already read."""
import functools
import threading
from dataclasses import dataclass

from flask import current_app, request

from pm import api
from pm.api import TaskNotFound
from pm.graph import analyse
from pm.web.filters import Filters, parse_filters


@dataclass(frozen=True)
class Vocabulary:
    statuses: tuple
    priorities: tuple
    kinds: tuple


@dataclass(frozen=True)
class Listing:
    everything: list  # every task in the tracker (summaries)
    tasks: list  # those passing the filters

    @property
    def total(self) -> int:
        return len(self.everything)

    def blocked(self) -> dict[int, list[int]]:
        """Id of each unfinished task waiting on unfinished blockers -> those blockers
        (a dependency cycle blocks its members too)."""
        return {task.id: blockers for task, blockers, _ in analyse(self.everything)[1]}


class SerializedTracker:
    """A Tracker whose methods run one call at a time.

    waitress answers requests on several threads, while pm's listing cache is saved through a
    temp file named per process; reads are CPU-bound under the GIL anyway, so this costs little."""

    def __init__(self, tracker):
        self._tracker = tracker
        self._lock = threading.RLock()

    def __getattr__(self, name):
        value = getattr(self._tracker, name)
        if not callable(value):
            return value

        @functools.wraps(value)
        def call(*args, **kwargs):
            with self._lock:
                return value(*args, **kwargs)
        return call


def tracker():
    """The app's tracker (a SerializedTracker)."""
    return current_app.extensions["pm_tracker"]


def vocabulary() -> Vocabulary:
    return Vocabulary(api.STATUSES, api.PRIORITIES, api.KINDS)


def request_filters() -> Filters:
    """Filters from the query string; BadFilter (-> 400) on an unknown value."""
    vocab = vocabulary()
    return parse_filters(request.args, vocab.statuses, vocab.priorities, vocab.kinds)


def listing(filters: Filters) -> Listing:
    """One read of the tracker's summaries, filtered; text goes through full-text search."""
    everything = tracker().list()
    tasks = [task for task in everything if filters.matches(task)]
    if filters.text and tasks:
        hits = {task.id for task in tracker().search(filters.text)}
        tasks = [task for task in tasks if task.id in hits]
    return Listing(everything, tasks)


def task_sections(task) -> list[tuple[str, str]]:
    """(name, inner HTML) of the prose sections, in the format's order (empty ones too)."""
    shown_apart = set(api.SECTIONS) | {"links", "log"}  # links and log have their own panels
    names = list(api.SECTIONS) + [n for n in task.sections if n not in shown_apart]
    return [(name, task.sections.get(name, "")) for name in names]


@dataclass(frozen=True)
class LinkTarget:
    id: int
    title: str | None = None  # None: no readable task has that id (a broken link)
    status: str | None = None


def task_links(task) -> list[tuple[str, list[LinkTarget]]]:
    """The task's typed links, grouped by type in pm's order, each target with title and status."""
    targets = {}
    for _, other in task.links:
        if other not in targets:
            try:
                linked = tracker().get(other)
                targets[other] = LinkTarget(other, linked.title, linked.status)
            except (TaskNotFound, api.ParseError):
                targets[other] = LinkTarget(other)
    grouped = {}
    for kind, other in task.links:
        grouped.setdefault(kind, []).append(targets[other])
    order = list(api.LINK_TYPES) + sorted(set(grouped) - set(api.LINK_TYPES))
    return [(kind, grouped[kind]) for kind in order if kind in grouped]


def open_blockers(links) -> list[int]:
    """Ids this task waits for: its blocked-by links whose task is not finished."""
    return [target.id for kind, targets in links if kind == "blocked-by"
            for target in targets if target.status not in api.FINISHED]

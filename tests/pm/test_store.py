"""The listing cache: exact below FULL_CHECK_LIMIT files (every file stat'ed), trusted while the
tasks folder is unchanged above it, never trusted while the folder's change is too recent."""
import os

import pytest

from pm import store
from pm.model import Actor
from pm.tracker import Tracker


@pytest.fixture
def big(tracker_dir, monkeypatch):
    """A tracker treated as big: three tasks over a limit of two."""
    monkeypatch.setattr(store, "FULL_CHECK_LIMIT", 2)
    monkeypatch.setattr(store, "RACY_NS", 0)  # the coarse-clock guard is tested on its own
    monkeypatch.delenv("PM_CHECK_EVERY_FILE", raising=False)
    tracker = Tracker(str(tracker_dir), Actor("worker", "t"))
    for title in ("one", "two", "three"):
        tracker.new(title)
    return tracker


def _rewrite_in_place(tracker, task_id, old, new):
    """What an editor that saves in place does: same inode, the folder untouched."""
    path = tracker.paths.path(tracker.get(task_id).path)
    with open(path, "r+", encoding="utf-8") as fh:
        text = fh.read().replace(old, new)
        fh.seek(0)
        fh.write(text)
        fh.truncate()


def test_big_listings_come_from_the_listing_while_the_folder_is_unchanged(big, monkeypatch):
    assert [t.title for t in big.list(rows=True)] == ["one", "two", "three"]
    assert os.path.exists(big.paths.listing)
    _rewrite_in_place(big, 2, 'content="P2"', 'content="P0"')
    assert big.list(rows=True)[1].priority == "P2"  # documented: not seen yet
    monkeypatch.setenv("PM_CHECK_EVERY_FILE", "1")
    assert big.list(rows=True)[1].priority == "P0"  # seen when every file is checked
    monkeypatch.delenv("PM_CHECK_EVERY_FILE")
    big.set_status(3, "review")  # any pm write changes the folder: seen at once
    rows = big.list(rows=True)
    assert (rows[1].priority, rows[2].status) == ("P0", "review")
    assert rows[2].line == "    3  review      P2  task    three"


def test_small_trackers_see_in_place_edits_at_once(tracker, monkeypatch):
    monkeypatch.delenv("PM_CHECK_EVERY_FILE", raising=False)
    for title in ("one", "two"):
        tracker.new(title)
    assert tracker.list(rows=True)[1].priority == "P2"
    _rewrite_in_place(tracker, 2, 'content="P2"', 'content="P1"')
    assert tracker.list(rows=True)[1].priority == "P1"
    assert not os.path.exists(tracker.paths.listing)  # below the limit no listing is kept


def test_a_listing_made_just_after_a_change_is_not_trusted(big, monkeypatch):
    monkeypatch.setattr(store, "RACY_NS", 10 ** 18)  # every change counts as too recent
    big.list(rows=True)
    _rewrite_in_place(big, 1, 'content="P2"', 'content="P3"')
    assert big.list(rows=True)[0].priority == "P3"


def test_a_big_listing_keeps_pm_readys_answer(big):
    big.link(3, "blocked-by", 1)
    big.set_status(2, "done")
    assert [t.id for t in big.ready(rows=True)] == [1] == [t.id for t in big.ready()]
    assert [t.id for t in big.ready(rows=True)] == [1]  # from the listing file, unchanged folder
    big.set_status(1, "done")
    assert [t.id for t in big.ready(rows=True)] == [3]


def test_pm_writes_keep_a_big_listing_valid(big, monkeypatch):
    big.list(rows=True)
    big.set_status(2, "review")
    made = big.new("four", labels=["ui"])
    # Patched by the writes: the next listing reads it, it does not look at every file again.
    with monkeypatch.context() as m:
        m.setattr(store, "_refresh", lambda *a: pytest.fail("the listing was rebuilt from the files"))
        rows = big.list(rows=True)
    assert [(r.id, r.status, r.labels) for r in rows] == [
        (1, "open", ()), (2, "review", ()), (3, "open", ()), (made.id, "open", ("ui",))]
    assert [t.id for t in big.ready(rows=True)] == [1, 3, 4] == [t.id for t in big.ready()]
    monkeypatch.setenv("PM_CHECK_EVERY_FILE", "1")
    assert [tuple(r) for r in big.list(rows=True)] == [tuple(r) for r in rows]  # as a full check

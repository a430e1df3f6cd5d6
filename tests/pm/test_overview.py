"""overview.html: row-by-row updates always equal a full regeneration."""
import random

from pm.overview import parse_overview, render_overview


def _overview(tracker):
    return (tracker_root(tracker) / "overview.html").read_text()


def tracker_root(tracker):
    import pathlib
    return pathlib.Path(tracker.root)


def test_incremental_updates_equal_full_render_over_random_operations(tracker_dir):
    from pm.model import Actor
    from pm.tracker import Tracker
    worker = Tracker(str(tracker_dir), Actor("worker", "w"))
    ceo = Tracker(str(tracker_dir), Actor("ceo", "c"))
    rng = random.Random(7)
    for i in range(12):
        worker.new(f"task {i} <&>", priority=rng.choice(["P0", "P1", "P2", "P3"]))
    for step in range(60):
        ids = [t.id for t in worker.all()]
        op = rng.choice(["status", "promote", "demote", "rank", "set", "new", "log", "link"])
        target = rng.choice(ids)
        try:
            if op == "status":
                worker.set_status(target, rng.choice(["open", "in-progress", "review", "done", "wontfix"]))
            elif op == "promote":
                ceo.promote(target, rng.choice([None, 1, 2]))
            elif op == "demote":
                ceo.demote(target)
            elif op == "rank":
                ceo.rank(target, rng.randint(1, 4))
            elif op == "set":
                worker.set(target, priority=rng.choice(["P0", "P3"]), owner="worker/x")
            elif op == "new":
                worker.new(f"later {step}", kind="bug")
            elif op == "log":
                worker.log(target, "note")
            else:
                worker.link(target, "related", rng.choice(ids))
        except Exception as err:  # refused operations (already in sprint, self link...) are fine
            assert type(err).__name__ in {"Conflict", "InvalidValue"}, err
        assert _overview(worker) == render_overview(worker.all()), f"drift after step {step} ({op})"


def test_overview_lists_sprint_then_every_status_group(tracker, ceo):
    tracker.new("Ship Go", priority="P1")
    tracker.new("Ship Gomoku", priority="P0")
    tracker.set_status(2, "done")
    ceo.promote(1)
    text = (tracker_root(tracker) / "overview.html").read_text()
    assert '<tr id="s1"><td>1</td><td><a href="tasks/1-ship-go.html">#1</a></td>' in text
    assert text.index('<h3 id="status-open">open (1)</h3>') < text.index('<h3 id="status-done">done (1)</h3>')
    assert "<p>2 tasks: 0 in-progress, 0 review, 1 open, 1 done, 0 wontfix." in text
    model = parse_overview(text)
    assert len(model.sprint) == 1 and model.total() == 2
    assert parse_overview("<p>hand written</p>\n<tr id=\"t1\">") is None


def test_a_hand_added_task_file_triggers_a_full_regeneration(tracker, tracker_dir):
    tracker.new("one")
    source = next((tracker_dir / "tasks").glob("1-*.html")).read_text()
    (tracker_dir / "tasks" / "2-copied.html").write_text(
        source.replace('pm:id" content="1"', 'pm:id" content="2"').replace("#1 ·", "#2 ·"))
    tracker.log(1, "touch")
    assert (tracker_dir / "overview.html").read_text() == render_overview(tracker.all())
    assert "#2</a>" in (tracker_dir / "overview.html").read_text()

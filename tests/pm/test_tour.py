"""The tour's pm steps: the sample tracker, and the web UI started in the background and stopped."""
import importlib.util
import os
import urllib.request

import pytest

from pm.model import Actor
from pm.tracker import Tracker

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def tour(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("tour", os.path.join(ROOT, "scripts", "tour.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "VAR", str(tmp_path / "var"))
    state = module.Tour()
    state.tracker = str(tmp_path / "var" / "pm")
    yield module, state
    module.stop()


def test_sample_tracker_step_builds_a_clean_engines_backlog(tour):
    module, state = tour
    module.step_tracker(state)
    module.step_tracker(state)  # a second run starts afresh
    tracker = Tracker(state.tracker, Actor("human", "t"))
    tasks = tracker.all()
    assert len(tasks) == 38  # the sample's 36, a go-engineer's bug and a quoridor-engineer's bug
    assert len(tracker.sprint()) == 11 and tracker.sprint()[2].title.startswith("Go: last-move marker")
    assert tracker.sprint()[-1].title == "Quoridor: wall preview flickers on hover"  # promoted by the ceo
    assert {t.kind for t in tasks} >= {"bug", "feature", "task", "chore", "docs", "review", "spike"}
    assert tracker.ready() and tracker.blocked()
    assert tracker.lint() == []
    assert tracker.audit() == []  # the sample's sprint came in through the ceo's import
    assert any(e.who == "worker/go-engineer" for e in tracker.get(3).log)
    assert any(e.who == "ceo/lead" for e in tracker.get(3).log)
    assert any(e.who == "worker/gomoku-engineer" for e in tracker.get(9).log)


def test_web_step_serves_and_stop_ends_it(tour):
    module, state = tour
    module.step_tracker(state)
    module.step_pm_web(state)
    url = state.results[-1].split()[-1]
    assert url.startswith("http://127.0.0.1:")
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
    module.stop()
    with pytest.raises(OSError):
        urllib.request.urlopen(url, timeout=3)
    assert not [n for n in os.listdir(module.VAR) if n.endswith(".pid")]

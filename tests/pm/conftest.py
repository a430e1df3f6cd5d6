"""Fixtures for pm tests: a fresh tracker per test and a way to run the real `pm` CLI."""
import os
import subprocess
import sys

import pytest

from pm.model import Actor
from pm.tracker import Tracker

PM = [sys.executable, "-m", "pm.cli"]


@pytest.fixture
def tracker_dir(tmp_path, monkeypatch):
    root = tmp_path / "tracker"
    monkeypatch.setenv("PM_DIR", str(root))
    monkeypatch.setenv("PM_ROLE", "worker")
    monkeypatch.setenv("PM_SESSION", "test")
    Tracker.init(str(root), Actor("human", "setup"))
    return root


@pytest.fixture
def tracker(tracker_dir):
    return Tracker(str(tracker_dir), Actor("worker", "test"))


@pytest.fixture
def ceo(tracker_dir):
    return Tracker(str(tracker_dir), Actor("ceo", "boss"))


def pm_env(root, role="worker", session="proc", **extra):
    env = dict(os.environ, PM_DIR=str(root), PM_ROLE=role, PM_SESSION=session)
    env.update(extra)
    return env


def run_pm(root, *args, role="worker", session="proc", check=False, **extra):
    return subprocess.run(PM + list(args), env=pm_env(root, role, session, **extra),
                          capture_output=True, text=True, check=check, timeout=120)


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                          check=True).stdout

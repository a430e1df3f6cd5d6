"""`engines match compare`: two real runs of `engines match go` paired game by game.

The fake GTP engine resigns on the seeds its mode names, so which games each build loses is
known before the runs: the command must find exactly those."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engines.match.compare import paired, sign_test

ROOT = Path(__file__).resolve().parents[3]
ENGINES = Path(sys.executable).with_name("engines")
FAKE = f"{sys.executable} {Path(__file__).with_name('fake_gtp.py')}"


def engines(*args):
    return subprocess.run([str(ENGINES), "match", *args], capture_output=True, text=True,
                          timeout=240, cwd=ROOT)


def run(out, every, seed=1, games=20):
    """A build that resigns its first move on the seeds divisible by EVERY (as black: as white
    the opponent, which resigns at once, moves first), so it loses exactly those games."""
    proc = engines("go", "--out", str(out), "--games", str(games), "--seed", str(seed),
                   "--openings", "none", "--engine", f"{FAKE} resign-every={every}:{{seed}}",
                   "--opponent", f"{FAKE} resign", "--concurrency", "2")
    assert proc.returncode == 0, proc.stderr
    return out


def lost(out):
    lines = (Path(out) / "journal.jsonl").read_text().splitlines()[1:]
    return sorted(g["seed"] for g in map(json.loads, lines) if g["points"] == 0)


def test_two_builds_are_paired_game_by_game_on_the_same_seeds(tmp_path):
    a, b = run(tmp_path / "a", 5), run(tmp_path / "b", 3)
    # the precondition: black on the odd seeds, lost where its rule says
    assert lost(a) == [5, 15] and lost(b) == [3, 9, 15]
    proc = engines("compare", str(a), "--against", str(b), "--json")
    assert proc.returncode == 0, proc.stderr
    c = json.loads(proc.stdout)
    # a better on 3 and 9, worse on 5, both lost 15
    assert (c["paired"], c["better"], c["worse"], c["same"]) == (20, 2, 1, 17)
    assert (c["candidate"], c["baseline"]) == (18, 17)
    assert c["sign_p"] == 1.0 and c["mean"] == pytest.approx(0.05)
    assert c["low"] < 0 < c["high"] and c["options_differ"] == []

    text = engines("compare", str(a), "--against", str(b)).stdout
    assert "paired: 20 games" in text and "more in 2 games, less in 1" in text
    assert "difference +1 points" in text


def test_a_baseline_in_several_runs_pairs_only_the_same_games(tmp_path):
    a = run(tmp_path / "a", 5)
    b1 = run(tmp_path / "b1", 3, games=10)            # seeds 1-10: the same games as a's first ten
    b2 = run(tmp_path / "b2", 3, seed=101, games=4)   # other seeds: nothing to pair with
    c = json.loads(engines("compare", str(a), "--against", str(b1), "--against", str(b2),
                           "--json").stdout)
    assert (c["paired"], c["only_candidate"], c["only_baseline"]) == (10, 10, 4)
    assert (c["better"], c["worse"]) == (2, 1)        # seeds 3, 9 and 5


def test_a_directory_that_is_no_run_is_named(tmp_path):
    a = run(tmp_path / "a", 5, games=2)
    (tmp_path / "empty").mkdir()
    proc = engines("compare", str(a), "--against", str(tmp_path / "empty"))
    assert proc.returncode == 1
    assert "holds no journal.jsonl" in proc.stderr and "empty" in proc.stderr
    proc = engines("compare", str(a))
    assert proc.returncode == 2 and "--against" in proc.stderr


def test_sign_test_and_the_interval_of_the_mean():
    assert sign_test(0, 0) == 1.0 and sign_test(2, 1) == 1.0
    assert sign_test(10, 0) == pytest.approx(2 / 1024)
    assert sign_test(61, 50) == pytest.approx(0.3426, abs=1e-4)   # session 40's fourth network
    games = [{"seed": s, "candidate_color": "b", "points": p} for s, p in enumerate([1, 1, 0.5, 0])]
    base = [{"seed": s, "candidate_color": "b", "points": p} for s, p in enumerate([0, 1, 1, 0])]
    c = paired(games, base)
    assert (c.better, c.worse, c.same, c.candidate, c.baseline) == (1, 1, 2, 2.5, 2.0)
    assert c.mean == pytest.approx(0.125) and c.low < c.mean < c.high

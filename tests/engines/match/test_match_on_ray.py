"""A short Go match through a real local Ray cluster (started by `engines match --cluster local`
in its own process, two workers) gives exactly the games the local pool gives: fixed seeds and
playout budgets make every game a function of its task alone."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ENGINES = Path(sys.executable).with_name("engines")
GNUGO1 = "/usr/games/gnugo --mode gtp --level 1 --chinese-rules --komi {komi} --seed {seed}"
MATCH = ["--games", "4", "--size", "7", "--komi", "9", "--openings", "generate", "--seed", "11",
         "--seconds", "0", "--playouts", "40", "--threads", "1", "--opponent", GNUGO1,
         "--level", "1", "--referee-level", "1", "--concurrency", "2"]


def _games(out: Path) -> dict[int, tuple]:
    lines = [json.loads(line) for line in (out / "journal.jsonl").read_text().splitlines()]
    return {g["index"]: (g["seed"], g["candidate_color"], g["opening"], g["result"], g["points"],
                         g["ending"], g["moves"], g["record"].split("GC[")[0])
            for g in lines if g["type"] == "game"}


@pytest.mark.ray
@pytest.mark.gnugo
@pytest.mark.timeout(300)
def test_a_match_on_ray_plays_exactly_the_games_of_the_local_pool(tmp_path):
    local = subprocess.run([str(ENGINES), "match", "go", "--out", str(tmp_path / "local"), *MATCH],
                           capture_output=True, text=True, cwd=ROOT, timeout=240)
    assert local.returncode == 0, local.stderr
    ray = subprocess.run([str(ENGINES), "match", "go", "--out", str(tmp_path / "ray"), *MATCH,
                          "--cluster", "local"], capture_output=True, text=True, cwd=ROOT,
                         timeout=240)
    assert ray.returncode == 0, ray.stderr
    local_games, ray_games = _games(tmp_path / "local"), _games(tmp_path / "ray")
    assert sorted(local_games) == [0, 1, 2, 3]
    assert ray_games == local_games
    summary = json.loads((tmp_path / "ray" / "results.json").read_text())["summary"]
    assert summary["conditions"]["pool"]["pool"] == "ray"


def _ray_game_workers() -> list[int]:
    """PIDs of Ray worker processes running a game (Ray titles them after the task)."""
    import psutil

    pids = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        cmdline = " ".join(proc.info["cmdline"] or [])
        if cmdline.startswith("ray::play_one"):
            pids.append(proc.info["pid"])
    return pids


@pytest.mark.ray
@pytest.mark.gnugo
@pytest.mark.timeout(300)
def test_a_ray_worker_killed_mid_match_loses_no_game(tmp_path):
    """kill -9 of a worker while it plays: Ray plays that game again, and the journal holds
    every game exactly once."""
    out = tmp_path / "ray"
    slow = [*MATCH[:MATCH.index("--playouts")], "--playouts", "3000",
            *MATCH[MATCH.index("--playouts") + 2:]]
    runner = subprocess.Popen([str(ENGINES), "match", "go", "--out", str(out), *slow,
                               "--cluster", "local"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT)
    killed = None
    try:
        deadline = time.monotonic() + 120
        while killed is None and time.monotonic() < deadline and runner.poll() is None:
            workers = _ray_game_workers()
            if workers:
                killed = workers[0]
                os.kill(killed, signal.SIGKILL)
            time.sleep(0.05)
        stdout, stderr = runner.communicate(timeout=240)
    finally:
        if runner.poll() is None:
            runner.kill()
    assert killed is not None, "no Ray worker was seen playing a game"
    assert runner.returncode == 0, stderr
    games = [json.loads(line) for line in (out / "journal.jsonl").read_text().splitlines()]
    indices = [g["index"] for g in games if g["type"] == "game"]
    assert sorted(indices) == [0, 1, 2, 3]  # every game once, the killed one played again

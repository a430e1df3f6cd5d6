"""The match runner (engines.match, `engines match go`): pure parts, and a short real match of
GNU Go vs GNU Go."""
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engines.go import sgf
from engines.match.commands import build_argv
from engines.match.results import GameResult, format_elo, format_summary
from engines.match import runner
from engines.match.runner import MatchStopped, Schedule
from engines.match.stats import elo_difference, elo_interval, wilson_interval

ROOT = Path(__file__).resolve().parents[3]
ENGINES = Path(sys.executable).with_name("engines")
FAST_GNUGO = "/usr/games/gnugo --mode gtp --level 1 --chinese-rules --komi {komi} --seed {seed}"


def test_wilson_interval():
    low, high = wilson_interval(45, 50)
    assert (round(low, 3), round(high, 3)) == (0.786, 0.957)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == 1.0 and 0.70 < low < 0.73


def test_elo_of_a_score_and_of_its_interval():
    assert elo_difference(0.5) == 0.0
    assert round(elo_difference(0.75), 1) == 190.8 and round(elo_difference(0.25), 1) == -190.8
    assert elo_difference(1.0) is None and elo_difference(0.0) is None
    elo = elo_interval(45, 50)
    assert round(elo["estimate"]) == 382 and elo["low"] < elo["estimate"] < elo["high"]
    assert format_elo(elo).startswith("Elo +382 [+")
    assert format_elo(elo_interval(10, 10)).startswith("Elo at least +1")
    assert format_elo(elo_interval(0, 0)) == "Elo unknown"


def test_build_argv_fills_placeholders_per_argument():
    argv = build_argv("gnugo --seed {seed} --name 'a {level} b'", seed=3, level=10)
    assert argv == ["gnugo", "--seed", "3", "--name", "a 10 b"]


def run_match(tmp_path, *args):
    return subprocess.run(
        [str(ENGINES), "match", "go", "--out", str(tmp_path), *args],
        capture_output=True, text=True, timeout=240, cwd=ROOT)


@pytest.mark.gnugo
def test_a_short_real_match_scores_saves_and_summarizes(tmp_path):
    proc = run_match(tmp_path, "--games", "2", "--size", "9", "--level", "1", "--seed", "5",
                     "--engine", FAST_GNUGO, "--referee-level", "10", "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    progress = [line for line in proc.stdout.splitlines() if line.startswith("game ")]
    assert len(progress) == 2
    assert "Wilson 95%" in proc.stdout and "as black" in proc.stdout
    assert "seeds 5..6" in proc.stdout

    data = json.loads((tmp_path / "results.json").read_text())
    games = data["games"]
    assert [g["candidate_color"] for g in games] == ["b", "w"]  # colours alternate
    assert [g["seed"] for g in games] == [5, 6]
    assert data["summary"]["wins"] == sum(g["points"] for g in games)
    for game in games:
        record = sgf.load(game["sgf"])
        assert record.result == game["result"] and record.size == 9 and record.komi == 7
        assert [c for c, _ in record.moves] == ["bw"[i % 2] for i in range(len(record.moves))]
        if game["ending"] == "passes":
            assert record.moves[-2:] == [("b", None), ("w", None)] or \
                record.moves[-2:] == [("w", None), ("b", None)]
        assert game["reason"] in record.comment
        assert game["candidate_seconds"] and game["opponent_seconds"]


def test_a_candidate_that_cannot_start_is_named(tmp_path):
    proc = run_match(tmp_path, "--games", "1", "--engine", "/nonexistent/engine gtp")
    assert proc.returncode == 1
    assert "the match stopped" in proc.stderr and "/nonexistent/engine" in proc.stderr


@pytest.mark.parametrize("args", [["--size", "10"], ["--jobs", "0"], ["--games", "0"]])
def test_usage_errors_exit_2(tmp_path, args):
    assert run_match(tmp_path, *args).returncode == 2


@pytest.mark.gnugo
def test_the_move_limit_ends_a_game_and_the_referee_still_counts(tmp_path):
    # --seconds 0: no time limit, so no forfeit for a slow move on a busy machine either.
    proc = run_match(tmp_path, "--games", "1", "--level", "1", "--max-moves", "6", "--seconds", "0",
                     "--engine", FAST_GNUGO, "--referee-level", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)  # --json: the summary alone on stdout, progress on stderr
    assert summary["endings"] == {"max-moves": 1} and summary["games"] == 1
    assert "game   1 (1/1)" in proc.stderr
    game = json.loads((tmp_path / "results.json").read_text())["games"][0]
    assert game["moves"] == 6 and game["reason"].startswith("move limit reached")


def test_the_old_bench_entry_point_runs_the_same_command(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "go_match.py"), "--out",
                           str(tmp_path), "--games", "1", "--engine", "/nonexistent/engine gtp"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 1 and "the match stopped" in proc.stderr


@pytest.mark.gnugo
def test_the_old_bench_entry_point_starts_from_the_empty_board_as_it_did(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "go_match.py"), "--out",
                           str(tmp_path), "--games", "1", "--level", "1", "--engine", FAST_GNUGO,
                           "--referee-level", "1", "--seconds", "0"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((tmp_path / "results.json").read_text())["summary"]
    assert summary["conditions"]["openings"] == "none (empty board)"


class CoinAdapter:
    """A game adapter with no engines: the candidate wins the games it moves first in; game
    FAIL_AT raises a fatal error. The runner's seam, exercised without GNU Go."""

    fatal = (OSError,)
    limit = None

    def __init__(self, fail_at=None):
        self.fail_at = fail_at

    def play_game(self, index, seed, candidate_first, stop):
        if index == self.fail_at:
            raise OSError("the coin rolled away")
        return GameResult(index, seed, "b" if candidate_first else "w", "B+1", "b",
                          float(candidate_first), "heads", "passes", 1, [0.01], [0.02])

    def conditions(self):
        return {"candidate": "heads", "opponent": "tails", "candidate_cmd": "-",
                "opponent_cmd": "-"}

    def describe(self, c):
        return f"a coin, seeds {c['seeds']}, {c['jobs']} game(s) at a time"


def test_the_runner_alternates_colours_seeds_games_and_writes_the_results(tmp_path):
    log = io.StringIO()
    outcome = runner.run_match(CoinAdapter(), Schedule(games=4, base_seed=10, jobs=2), tmp_path, log=log)
    assert outcome.complete and [r.seed for r in outcome.results] == [10, 11, 12, 13]
    assert [r.candidate_color for r in outcome.results] == ["b", "w", "b", "w"]
    assert outcome.summary["wins"] == 2 and outcome.summary["conditions"]["seeds"] == "10..13"
    assert len(log.getvalue().splitlines()) == 4
    saved = json.loads(outcome.path.read_text())
    assert saved["summary"]["games"] == 4 and len(saved["games"]) == 4
    text = format_summary(outcome.summary, CoinAdapter().describe)
    assert "heads vs tails: 2/4 = 50.0%" in text and "Elo +0 [" in text
    assert "conditions: a coin, seeds 10..13, 2 game(s) at a time" in text


def test_a_fatal_error_of_the_adapter_stops_the_match_with_its_message(tmp_path):
    with pytest.raises(MatchStopped, match="the match stopped: the coin rolled away"):
        runner.run_match(CoinAdapter(fail_at=0), Schedule(games=3), tmp_path, log=io.StringIO())

"""`engines match` end to end with real processes: fake GTP engines that misbehave, resume
after a kill, openings, the SPRT's early stop, bad input. GNU Go at level 1 where a real
opponent is needed; short matches only."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engines.match import openings
from engines.match.pool import Cancelled, LocalPool, make_pool, stopping

ROOT = Path(__file__).resolve().parents[3]
ENGINES = Path(sys.executable).with_name("engines")
FAKE = f"{sys.executable} {Path(__file__).with_name('fake_gtp.py')}"
GNUGO1 = "/usr/games/gnugo --mode gtp --level 1 --chinese-rules --komi {komi} --seed {seed}"


def engines_match(out, *args, timeout=240):
    return subprocess.run([str(ENGINES), "match", "go", "--out", str(out), *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def journal(out):
    lines = (Path(out) / "journal.jsonl").read_text().splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


@pytest.mark.gnugo
def test_each_misbehaving_engine_forfeits_with_its_reason_and_the_match_goes_on(tmp_path):
    # seeds 1..4: illegal move, crash, no answer, garbage; GNU Go level 1 as the opponent
    proc = engines_match(tmp_path, "--games", "4", "--size", "9", "--engine",
                         f"{FAKE} seed={{seed}} 2", "--opponent", GNUGO1, "--seconds", "0",
                         "--timeout", "2", "--referee-level", "1", "--concurrency", "2",
                         "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["games"] == 4 and summary["wins"] == 0
    assert summary["forfeits"] == {"candidate": {"illegal": 1, "crash": 1, "timeout": 1,
                                                 "garbage": 1}}
    head, games = journal(tmp_path)
    by_seed = {g["seed"]: g for g in games}
    assert [by_seed[s]["forfeit"] for s in (1, 2, 3, 4)] == ["illegal", "crash", "timeout",
                                                               "garbage"]
    for game in games:
        assert game["ending"] == "forfeit" and game["forfeited_by"] == "candidate"
        assert game["result"].endswith("+F") and game["record"].startswith("(;FF[4]")
    assert "illegal move" in by_seed[1]["reason"]
    assert "stopped answering" in by_seed[3]["reason"]
    assert "not GTP" in by_seed[4]["reason"] or "malformed" in by_seed[4]["reason"]
    # pairs: games 0 and 1 share an opening, colours swapped
    assert by_seed[1]["opening"] == by_seed[2]["opening"] != by_seed[3]["opening"]
    assert [by_seed[s]["candidate_color"] for s in (1, 2, 3, 4)] == ["b", "w", "b", "w"]


@pytest.mark.gnugo
def test_a_move_over_its_time_and_tolerance_loses_on_time(tmp_path):
    proc = engines_match(tmp_path, "--games", "1", "--engine", f"{FAKE} silent 2",
                         "--opponent", GNUGO1, "--seconds", "0.3", "--tolerance", "0.3",
                         "--referee-level", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    _, (game,) = journal(tmp_path)
    assert game["forfeit"] == "time" and "over its time" in game["reason"]


@pytest.mark.gnugo
def test_an_interrupted_match_resumes_and_plays_only_the_missing_games(tmp_path):
    args = [str(ENGINES), "match", "go", "--out", str(tmp_path), "--games", "6", "--size", "7",
            "--engine", GNUGO1, "--opponent", GNUGO1, "--level", "1", "--referee-level", "1",
            "--seconds", "0", "--concurrency", "1"]
    runner = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              cwd=ROOT)
    path = tmp_path / "journal.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().count("\n") >= 3:  # the head and two games
            break
        time.sleep(0.02)
    runner.send_signal(signal.SIGKILL)
    runner.wait()
    _, first = journal(tmp_path)
    assert 2 <= len(first) < 6
    with open(path, "a") as fh:
        fh.write('{"type": "game", "index": 5, "tor')  # a torn last line, as a kill leaves
    proc = subprocess.run(args, capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert f"{len(first)} game(s) played" in proc.stderr
    _, games = journal(tmp_path)
    assert sorted(g["index"] for g in games) == list(range(6))  # each once, none twice
    assert games[:len(first)] == first  # the first ones untouched
    played_now = [line for line in proc.stdout.splitlines() if line.startswith("game ")]
    assert len(played_now) == 6 - len(first)
    # a rerun with another option is refused, naming it; nothing is played
    other = subprocess.run(args[:-2] + ["--concurrency", "1", "--komi", "5.5"],
                           capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert other.returncode == 1 and "--komi: 7.0 in the journal, 5.5 now" in other.stderr
    assert len(journal(tmp_path)[1]) == 6


def test_the_sprt_stops_a_lopsided_match_early(tmp_path):
    # The opponent resigns at once; the candidate resigns at its first move in one game in 5.
    proc = engines_match(tmp_path, "--games", "200", "--openings", "none", "--engine",
                         f"{FAKE} resign-every=5:{{seed}}", "--opponent", f"{FAKE} resign",
                         "--sprt", "elo0=0,elo1=300", "--concurrency", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["sprt"]["decision"] == "H1" and summary["games"] < 200
    assert summary["sprt"]["llr"] >= summary["sprt"]["upper"]
    assert "SPRT decided after" in proc.stderr
    assert sum(summary["pentanomial"]) == summary["games"] // 2
    _, games = journal(tmp_path)
    assert len(games) == summary["games"]
    html = (tmp_path / "report.html").read_text()
    assert "<svg" in html and "H1" in html


def test_a_malformed_opening_is_refused_with_file_and_line_before_any_game(tmp_path):
    bad = tmp_path / "openings.sgf"
    bad.write_text("(;GM[1]SZ[9];B[ee];W[cc])\n(;GM[1]SZ[9]\n;B[dd]\n;W[zz])\n")
    out = tmp_path / "out"
    proc = engines_match(out, "--games", "2", "--openings", str(bad), "--engine",
                         "/nonexistent/engine")
    assert proc.returncode == 1
    assert f"{bad}:4: game 2: point 'zz' is off a 9x9 board" in proc.stderr
    assert not (out / "journal.jsonl").exists() and not list(out.glob("game-*.sgf"))


def test_openings_from_sgf_with_setup_stones_and_a_directory(tmp_path):
    (tmp_path / "a.sgf").write_text("(;GM[1]SZ[9]AB[cc][gg];W[ee])(;GM[1]SZ[9];B[ee])")
    (tmp_path / "b.sgf").write_text("(;GM[1]SZ[9];B[dd];W[ff])")
    got = openings.load(tmp_path, 9)
    assert [o.id for o in got] == ["a.sgf#1", "a.sgf#2", "b.sgf#1"]
    assert got[0].setup_black == ((2, 2), (6, 6)) and got[0].moves == (("w", (4, 4)),)
    with pytest.raises(openings.OpeningError, match=r"a.sgf:1: game 1 is for a 9x9 board"):
        openings.load(tmp_path, 13)


def test_generated_openings_are_reproducible_distinct_and_central():
    first, again = openings.generate(9, 40, seed=7), openings.generate(9, 40, seed=7)
    assert first == again and openings.generate(9, 40, seed=8) != first
    assert len({o.moves for o in first}) == 40
    region = set(openings.centre_region(9))
    for opening in first:
        assert 2 <= len(opening.moves) <= 4
        assert [c for c, _ in opening.moves] == ["bw"[i % 2] for i in range(len(opening.moves))]
        assert {p for _, p in opening.moves} <= region


@pytest.mark.parametrize("args, code, message", [
    (["--engine", "/nonexistent/engine gtp"], 1, "does not exist"),
    (["--opponent", "no-such-gnugo --mode gtp"], 1, "no-such-gnugo"),
    (["--engine", f"{FAKE} crash", "--opponent", f"{FAKE} pass"], 0, ""),
    (["--sprt", "elo0=10,elo1=0"], 2, "elo1"),
    (["--tc", "fast"], 2, "BASE+INCREMENT"),
])
def test_bad_input_is_a_clear_error_before_any_game(tmp_path, args, code, message):
    proc = engines_match(tmp_path, "--games", "2", "--openings", "none", *args)
    assert proc.returncode == code, proc.stderr
    assert message in proc.stderr
    if code:
        assert not (tmp_path / "journal.jsonl").exists()


def test_an_unknown_game_is_a_usage_error(tmp_path):
    proc = subprocess.run([str(ENGINES), "match", "chess", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2 and "chess" in proc.stderr


def square(n):
    if n == 3:
        raise ValueError("three")
    return n * n


def wait_for_stop(n):
    deadline = time.monotonic() + 10
    while not stopping():
        if time.monotonic() > deadline:
            return "not stopped"
        time.sleep(0.01)
    raise Cancelled


def test_local_pool_is_unordered_propagates_errors_and_cancels_on_close():
    with LocalPool(2) as pool:
        assert sorted(pool.run(square, [1, 2, 4])) == [(1, 1), (2, 4), (4, 16)]
    with LocalPool(2) as pool, pytest.raises(ValueError, match="three"):
        list(pool.run(square, [1, 3]))
    pool = LocalPool(1)
    iterator = pool.run(wait_for_stop, [1, 2, 3])
    started = time.monotonic()
    pool.close()  # the running one stops, the others never start
    assert list(iterator) == [] and time.monotonic() - started < 5
    assert isinstance(make_pool(3, None), LocalPool)

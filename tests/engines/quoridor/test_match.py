"""`engines match quoridor` end to end with real processes: a short real match of the engine
against itself judged by rules.py, misbehaving fake engines (tests/engines/quoridor/
fake_engine.py) forfeiting with their reasons, time losses, the draw rule, opening files and
resume after a kill."""
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engines.match.quoridor import generate_openings
from engines.quoridor import record, rules

ROOT = Path(__file__).resolve().parents[3]
ENGINES = Path(sys.executable).with_name("engines")
FAKE = f"{sys.executable} {Path(__file__).with_name('fake_engine.py')}"
QUICK = f"{ENGINES} quoridor --nodes 200"


def engines_match(out, *args, timeout=240):
    return subprocess.run([str(ENGINES), "match", "quoridor", "--out", str(out), *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def journal(out):
    lines = (Path(out) / "journal.jsonl").read_text().splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def replay(text: str) -> rules.Game:
    """The record's game on the readable rules (loads checks every move)."""
    rec = record.loads(text)
    game = rules.Game(rec.size, rec.walls)
    for move in rec.moves:
        game.play(move)
    return game


def test_a_short_real_match_is_judged_and_recorded_in_the_notation(tmp_path):
    proc = engines_match(tmp_path, "--games", "2", "--size", "7", "--engine", QUICK,
                         "--opponent", f"{ENGINES} quoridor --nodes 50", "--seconds", "0",
                         "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["games"] == 2 and summary["forfeits"] == {}
    assert summary["conditions"]["walls"] == 6 and summary["conditions"]["max_moves"] == 140
    _, games = journal(tmp_path)
    assert sorted(g["candidate_color"] for g in games) == ["b", "w"]
    assert games[0]["opening"] == games[1]["opening"]  # one pair, one opening
    for g in games:
        text = Path(g["sgf"]).read_text()
        assert text == g["record"] and g["record_format"] == "quoridor"
        game = replay(text)
        winner = {0: "white", 1: "black"}[game.winner]
        assert g["ending"] == "goal" and g["result"] == winner == record.loads(text).result
        assert g["winner"] == {"white": "w", "black": "b"}[winner]
        assert g["points"] == float(g["winner"] == g["candidate_color"])
        assert len(game.history) == g["moves"]
        opening = record.loads(text).tags["Opening"].split()
        assert game.moves()[:2] == opening and len(opening) == 2


def test_each_misbehaving_engine_forfeits_with_its_reason(tmp_path):
    # seeds 1..5: illegal move, crash, no answer, garbage, a reply that is no move
    proc = engines_match(tmp_path, "--games", "5", "--size", "5", "--engine",
                         f"{FAKE} seed={{seed}} 2", "--opponent", f"{FAKE} walk",
                         "--seconds", "0", "--timeout", "2", "--concurrency", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["games"] == 5 and summary["wins"] == 0
    assert summary["forfeits"] == {"candidate": {"illegal": 1, "crash": 1, "timeout": 1,
                                                 "garbage": 2}}
    _, games = journal(tmp_path)
    by_seed = {g["seed"]: g for g in games}
    assert [by_seed[s]["forfeit"] for s in range(1, 6)] == ["illegal", "crash", "timeout",
                                                              "garbage", "garbage"]
    for g in games:
        assert g["ending"] == "forfeit" and g["forfeited_by"] == "candidate"
        assert g["winner"] != g["candidate_color"] and g["points"] == 0
        replay(g["record"])  # the record holds the legal moves only
    assert "illegal move" in by_seed[1]["reason"] and "cannot reach it" in by_seed[1]["reason"]
    assert "exited" in by_seed[2]["reason"] or "closed" in by_seed[2]["reason"]
    assert "stopped answering" in by_seed[3]["reason"]
    assert "malformed" in by_seed[4]["reason"]
    assert "'hello', no move" in by_seed[5]["reason"]


def test_a_refused_legal_move_and_a_slow_move_forfeit(tmp_path):
    proc = engines_match(tmp_path / "refuse", "--games", "1", "--size", "5", "--engine",
                         f"{FAKE} refuse 2", "--opponent", f"{FAKE} walk", "--seconds", "0",
                         "--json")
    assert proc.returncode == 0, proc.stderr
    _, (game,) = journal(tmp_path / "refuse")
    assert game["forfeit"] == "refused" and "refused the legal move" in game["reason"]
    proc = engines_match(tmp_path / "slow", "--games", "1", "--size", "5", "--engine",
                         f"{FAKE} silent 2", "--opponent", f"{FAKE} walk", "--seconds", "0.3",
                         "--tolerance", "0.3", "--json")
    assert proc.returncode == 0, proc.stderr
    _, (game,) = journal(tmp_path / "slow")
    assert game["forfeit"] == "time" and "over its time" in game["reason"]


def test_a_game_without_a_winner_at_the_move_limit_is_a_draw(tmp_path):
    proc = engines_match(tmp_path, "--games", "2", "--size", "9", "--max-moves", "6",
                         "--engine", f"{FAKE} walk", "--opponent", f"{FAKE} walk",
                         "--openings", "none", "--seconds", "0", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["trinomial"] == [0, 2, 0] and summary["endings"] == {"max-moves": 2}
    _, games = journal(tmp_path)
    assert all(g["result"] == "draw" and g["moves"] == 6 for g in games)
    assert record.loads(games[0]["record"]).result == "draw"


def test_a_position_met_a_third_time_is_a_draw(tmp_path):
    proc = engines_match(tmp_path, "--games", "2", "--size", "9", "--engine",
                         f"{FAKE} shuffle", "--opponent", f"{FAKE} shuffle", "--openings",
                         "none", "--seconds", "0", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["trinomial"] == [0, 2, 0] and summary["endings"] == {"repetition": 2}
    _, games = journal(tmp_path)
    for g in games:   # forward, forward, back, back: the start again after 4 and 8 plies
        assert g["moves"] == 8 and "a third time (move 8)" in g["reason"]
        assert replay(g["record"]).moves() == ["e2", "e8", "e1", "e9"] * 2


def test_an_opening_file_is_played_and_a_bad_one_is_named_before_any_game(tmp_path):
    good = tmp_path / "openings.txt"
    good.write_text("# two openings\nc2 c4 b2h\n\nc2 b2v\n")
    proc = engines_match(tmp_path / "m", "--games", "4", "--size", "5", "--openings", str(good),
                         "--engine", f"{FAKE} walk", "--opponent", f"{FAKE} walk",
                         "--seconds", "0", "--json")
    assert proc.returncode == 0, proc.stderr
    _, games = journal(tmp_path / "m")
    starts = {g["index"]: replay(g["record"]).moves()[:3] for g in games}
    assert starts[0] == starts[1] == ["c2", "c4", "b2h"] and starts[2][:2] == ["c2", "b2v"]
    bad = tmp_path / "bad.txt"
    bad.write_text("c2 c4\nc2 c5 c3\n")
    proc = engines_match(tmp_path / "b", "--games", "2", "--size", "5", "--openings", str(bad),
                         "--engine", f"{FAKE} walk", "--opponent", f"{FAKE} walk")
    assert proc.returncode == 1
    assert f"{bad}, line 2: move 2 'c5'" in proc.stderr and "cannot reach it" in proc.stderr
    assert not (tmp_path / "b" / "journal.jsonl").exists()


def test_generated_openings_are_legal_reproducible_and_distinct():
    first = generate_openings(9, 10, 12, seed=7, plies=3)
    assert first == generate_openings(9, 10, 12, seed=7, plies=3)
    assert first != generate_openings(9, 10, 12, seed=8, plies=3)
    assert len({o.moves for o in first}) == 12
    for opening in first:
        game = rules.Game(9)
        for move in opening.moves:
            game.play(move)
        assert len(opening.moves) == 3 and game.winner is None


def test_an_interrupted_match_resumes_and_plays_only_the_missing_games(tmp_path):
    args = [str(ENGINES), "match", "quoridor", "--out", str(tmp_path), "--games", "6",
            "--size", "5", "--engine", QUICK, "--opponent", QUICK, "--seconds", "0",
            "--concurrency", "1"]
    runner = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              cwd=ROOT)
    path = tmp_path / "journal.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().count("\n") >= 3:  # the head and two games
            break
        time.sleep(0.01)
    runner.send_signal(signal.SIGKILL)
    runner.wait()
    _, first = journal(tmp_path)
    assert 2 <= len(first) < 6
    proc = subprocess.run(args, capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert f"{len(first)} game(s) played" in proc.stderr
    _, games = journal(tmp_path)
    assert sorted(g["index"] for g in games) == list(range(6))
    assert games[:len(first)] == first
    other = subprocess.run(args + ["--walls", "2"], capture_output=True, text=True, timeout=60,
                           cwd=ROOT)
    assert other.returncode == 1 and "--walls: 3 in the journal, 2 now" in other.stderr


@pytest.mark.parametrize("args,message", [
    (["--engine", "/no/such/engine"], "the candidate command /no/such/engine does not exist"),
    (["--opponent", f"{FAKE} walk", "--walls", "30"], "Invalid value for '--walls'"),
])
def test_bad_input_is_a_clear_error_before_any_game(tmp_path, args, message):
    proc = engines_match(tmp_path, "--games", "2", "--size", "5", *args)
    assert proc.returncode in (1, 2) and message in proc.stderr

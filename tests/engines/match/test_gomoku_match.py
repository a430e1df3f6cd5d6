"""`engines match gomoku`: real brains (this venv's `engines gomocup` and its plain baseline)
and a misbehaving fake brain (fake_gomocup.py, a real subprocess) through the real runner,
every record replayed by the readable rules."""
import json
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from engines.cli import main
from engines.gomoku import rules
from engines.match.gomoku import LETTERS, baseline_cmd

FAKE = Path(__file__).with_name("fake_gomocup.py")
# black: -1,0 0,0 1,-2 1,-1 (a double-three at 1,0 is forbidden); white far away in the corners
FORBIDDEN_OPENING = "-1,0, -7,-7, 0,0, -7,7, 1,-2, 7,-7, 1,-1, 7,7\n"


def fake(mode: str, at: int = 1) -> str:
    return shlex.join([sys.executable, str(FAKE), mode, str(at)])


def run_match(out: Path, *args: str):
    result = CliRunner().invoke(main, ["match", "gomoku", "--out", str(out), "--json", *args])
    summary = json.loads(result.stdout.strip().splitlines()[-1]) if result.stdout.strip() \
        else None
    return result, summary


def journal(out: Path) -> list[dict]:
    lines = (out / "journal.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if '"index"' in line]


def replay(record: str) -> rules.Game:
    """The record's moves played by the readable rules (each must be legal)."""
    fields, moves = {}, []
    for line in record.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        key, _, value = line.partition(" ")
        if key == "moves":
            moves += value.split()
        else:
            fields[key] = value
    size = int(fields["size"])
    game = rules.Game(size, fields["rule"])
    for name in moves:
        game.play((LETTERS.index(name[0]), size - int(name[1:])))
    return game, fields


def test_two_real_brains_play_a_short_match_judged_and_recorded(tmp_path):
    result, summary = run_match(tmp_path, "--games", "2", "--seconds", "0.05",
                                "--opponent", baseline_cmd(2))
    assert result.exit_code == 0, result.output
    assert summary["games"] == 2 and summary["forfeits"] == {}
    entries = journal(tmp_path)
    assert [e["candidate_color"] for e in entries] == ["b", "w"]
    assert entries[0]["opening"] == entries[1]["opening"] == "balanced-freestyle.txt:1"
    for entry in entries:
        game, fields = replay(entry["record"])
        assert game.is_over
        assert fields["result"] == (f"{game.winner}+five" if game.winner else "draw")
        assert entry["moves"] == len(game.history)
        opening = [(x + 7, y + 7) for x, y in
                   zip(*[iter([int(v) for v in
                               Path("engines/gomoku/openings/balanced-freestyle.txt")
                               .read_text().splitlines()[0].split(",")])] * 2)]
        assert game.history[:len(opening)] == opening
        assert Path(entry["sgf"]).read_text() == entry["record"]


@pytest.mark.parametrize("mode, kind, words", [
    ("occupied", "illegal", "occupied"),
    ("offboard", "illegal", "off board"),
    ("crash", "crash", "closed its output"),
    ("garbage", "garbage", "not X,Y"),
    ("refuse", "refused", "ERROR not today"),
])
def test_a_misbehaving_brain_forfeits_with_its_reason(tmp_path, mode, kind, words):
    result, summary = run_match(tmp_path, "--games", "1", "--engine", fake(mode, 3),
                                "--opponent", fake("fine"), "--openings", "none")
    assert result.exit_code == 0, result.output
    (entry,) = journal(tmp_path)
    assert entry["forfeit"] == kind and entry["forfeited_by"] == "candidate"
    assert entry["points"] == 0.0 and entry["result"] == "w+forfeit"
    assert words in entry["reason"]
    assert summary["forfeits"] == {"candidate": {kind: 1}}


def test_a_brain_that_cannot_start_stops_the_match_before_any_game(tmp_path):
    result, _ = run_match(tmp_path, "--engine", fake("badstart"), "--opponent", fake("fine"))
    assert result.exit_code == 1
    assert "before any game: the candidate" in result.output
    assert "answered START 15 with 'MAYBE'" in result.output
    missing, _ = run_match(tmp_path, "--opponent", "/nonexistent/brain")
    assert missing.exit_code == 1 and "'/nonexistent/brain' does not exist" in missing.output
    assert not (tmp_path / "journal.jsonl").exists()


def test_a_silent_brain_loses_on_time(tmp_path):
    result, _ = run_match(tmp_path, "--games", "1", "--engine", fake("silent", 2),
                          "--opponent", fake("fine"), "--openings", "none",
                          "--seconds", "0.2", "--tolerance", "0.2")
    assert result.exit_code == 0, result.output
    (entry,) = journal(tmp_path)
    assert entry["forfeit"] == "time" and entry["forfeited_by"] == "candidate"
    assert len(entry["candidate_seconds"]) == 1          # its first move, then silence


def test_a_silent_opponent_without_time_control_times_out(tmp_path):
    result, _ = run_match(tmp_path, "--games", "1", "--engine", fake("fine"),
                          "--opponent", fake("silent", 1), "--openings", "none",
                          "--timeout", "0.5")
    assert result.exit_code == 0, result.output
    (entry,) = journal(tmp_path)
    assert entry["forfeit"] == "timeout" and entry["forfeited_by"] == "opponent"
    assert entry["points"] == 1.0


def test_a_renju_forbidden_point_forfeits_naming_the_rule(tmp_path):
    openings = tmp_path / "forbidden.txt"
    openings.write_text(FORBIDDEN_OPENING)
    result, _ = run_match(tmp_path / "out", "--games", "1", "--rule", "renju",
                          "--engine", fake("forbidden"), "--opponent", fake("fine"),
                          "--openings", str(openings))
    assert result.exit_code == 0, result.output
    (entry,) = journal(tmp_path / "out")
    assert entry["forfeit"] == "illegal" and entry["forfeited_by"] == "candidate"
    assert "forbidden: double-three" in entry["reason"] and "8,7" in entry["reason"]


def test_a_malformed_opening_file_is_named_before_any_game(tmp_path):
    openings = tmp_path / "bad.txt"
    openings.write_text("0,0, 1,1\n0,0, 0,0\n")
    result, _ = run_match(tmp_path / "out", "--openings", str(openings))
    assert result.exit_code == 1
    assert "bad.txt:2" in result.output and "occupied" in result.output
    assert not (tmp_path / "out" / "journal.jsonl").exists()


def test_an_interrupted_match_resumes_from_its_journal(tmp_path):
    args = ["--engine", fake("fine"), "--opponent", baseline_cmd(1), "--seconds", "1"]
    first, _ = run_match(tmp_path, "--games", "2", *args)
    assert first.exit_code == 0, first.output
    played = journal(tmp_path)
    second, summary = run_match(tmp_path, "--games", "4", *args)
    assert second.exit_code == 0, second.output
    assert "resuming" in second.stderr and "2 game(s) played" in second.stderr
    entries = journal(tmp_path)
    assert [e["index"] for e in entries] == [0, 1, 2, 3]
    assert entries[:2] == played and summary["games"] == 4
    changed, _ = run_match(tmp_path, "--games", "4", *args[:-1], "2")
    assert changed.exit_code == 1 and "seconds" in changed.output


def test_a_game_clock_is_sent_as_time_left_and_running_out_forfeits(tmp_path):
    result, _ = run_match(tmp_path, "--games", "1", "--engine", fake("silent", 3),
                          "--opponent", fake("fine"), "--openings", "none",
                          "--tc", "0.4+0.1", "--tolerance", "0.1")
    assert result.exit_code == 0, result.output
    (entry,) = journal(tmp_path)
    assert entry["forfeit"] == "time" and entry["forfeited_by"] == "candidate"
    assert len(entry["candidate_seconds"]) == 2 and "over its time" in entry["reason"]
    played, _ = run_match(tmp_path / "real", "--games", "2", "--tc", "2+0.05",
                          "--opponent", baseline_cmd(1))
    assert played.exit_code == 0, played.output
    assert [e["forfeit"] for e in journal(tmp_path / "real")] == ["", ""]   # it keeps its clock

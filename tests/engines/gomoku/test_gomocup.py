"""The Gomocup brain (engines/gomoku/gomocup.py) driven as a real subprocess, line by line, as
Piskvork and Gomocup's manager drive it; and a short game of the brain against itself through
two processes, checked move by move by the readable rules."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engines.gomoku import rules

ROOT = Path(__file__).resolve().parents[3]


class Brain:
    """A brain process: send a line, read its answer lines (MESSAGE/DEBUG kept apart)."""

    def __init__(self, argv=None):
        argv = argv or [sys.executable, "-m", "engines.gomoku.gomocup"]
        self.proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.messages = []

    def send(self, *lines):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def answer(self, *lines):
        """The first answer line that is not MESSAGE/DEBUG, after sending lines."""
        self.send(*lines)
        while True:
            out = self.proc.stdout.readline()
            assert out, f"the brain closed its output; stderr: {self.proc.stderr.read()[-2000:]}"
            out = out.rstrip("\n")
            if out.split(" ", 1)[0] in ("MESSAGE", "DEBUG"):
                self.messages.append(out)
                continue
            return out

    def close(self):
        self.send("END")
        out, err = self.proc.communicate(timeout=20)
        return self.proc.returncode, out, err


def _xy(answer):
    x, y = answer.split(",")
    return int(x), int(y)


@pytest.fixture
def brain():
    b = Brain()
    yield b
    if b.proc.poll() is None:
        b.proc.kill()
        b.proc.wait()


def test_about_start_and_end(brain):
    about = brain.answer("ABOUT")
    for key in ("name", "version", "author", "country"):
        assert f'{key}="' in about
    assert brain.answer("START 15") == "OK"
    assert brain.answer("START 21").startswith("ERROR unsupported size")
    assert brain.answer("START x").startswith("ERROR")
    assert brain.answer("RECTSTART 20,20") == "OK"
    assert brain.answer("RECTSTART 15,20").startswith("ERROR rectangular")
    assert brain.answer("RECTSTART 15").startswith("ERROR")
    code, out, err = brain.close()
    assert (code, out) == (0, "")          # END: exit and print nothing


def test_commands_before_start_and_malformed_lines_get_error(brain):
    assert brain.answer("BEGIN").startswith("ERROR no board")
    assert brain.answer("TURN 1,1").startswith("ERROR no board")
    assert brain.answer("START 15") == "OK"
    assert brain.answer("TURN 7").startswith("ERROR expected X,Y")
    assert brain.answer("TURN 15,3").startswith("ERROR 15,3 is off the 15x15 board")
    assert brain.answer("INFO timeout_turn soon").startswith("ERROR INFO timeout_turn")
    assert brain.answer("INFO").startswith("ERROR INFO needs")
    assert brain.answer("FROBNICATE 3").startswith("UNKNOWN")
    assert brain.answer("TAKEBACK 3,3").startswith("ERROR TAKEBACK 3,3: no stone")
    brain.send("INFO evaluate 1,1", "INFO folder /tmp")      # unknown keys: no answer
    assert brain.answer("ABOUT").startswith("name=")


def test_begin_turn_takeback_and_restart(brain):
    game = rules.Game(15, "freestyle")
    brain.send("INFO timeout_turn 200", "INFO timeout_match 100000", "INFO time_left 100000")
    assert brain.answer("START 15") == "OK"
    first = _xy(brain.answer("BEGIN"))
    game.play(first)
    game.play((first[0] + 1, first[1] + 1))
    reply = _xy(brain.answer(f"TURN {first[0] + 1},{first[1] + 1}"))
    game.play(reply)                       # legal by the reference
    assert brain.messages and "depth" in brain.messages[-1]
    assert brain.answer(f"TURN {first[0]},{first[1]}").startswith("ERROR move")  # occupied
    assert brain.answer(f"TAKEBACK {reply[0]},{reply[1]}") == "OK"
    again = _xy(brain.answer("BOARD", f"{first[0]},{first[1]},1",
                             f"{first[0] + 1},{first[1] + 1},2", "DONE"))
    assert again not in (first, (first[0] + 1, first[1] + 1))
    assert brain.answer("RESTART") == "OK"
    assert brain.answer("BEGIN") != ""


def test_board_finishes_a_five_and_blocks_one(brain):
    assert brain.answer("START 15") == "OK"
    own = [f"{x},7,1" for x in range(3, 7)]
    opp = ["0,0,2", "2,0,2", "4,0,2", "6,0,2"]
    assert _xy(brain.answer("BOARD", *own, *opp, "DONE")) in ((2, 7), (7, 7))
    assert brain.answer("RESTART") == "OK"
    opp = [f"{x},7,2" for x in range(3, 7)] + ["2,7,1"]        # the opponent's four, one end shut
    own = ["0,0,1", "2,0,1", "4,0,1"]
    assert _xy(brain.answer("BOARD", *own, *opp, "DONE")) == (7, 7)
    assert brain.answer("BOARD", "1,1,4", "DONE").startswith("ERROR BOARD line")
    assert brain.answer("BOARD", "1,1,1", "1,1,2", "DONE").startswith("ERROR BOARD gives")


def test_renju_rule_keeps_black_off_forbidden_points(brain):
    """INFO rule 4 is renju: the brain, black, does not take its double-four."""
    brain.send("INFO rule 4", "INFO timeout_turn 300")
    assert brain.answer("START 15") == "OK"
    own = ["8,11,1", "9,11,1", "10,11,1", "11,8,1", "11,9,1", "11,10,1"]
    opp = ["7,11,2", "11,7,2", "0,0,2", "2,0,2", "4,0,2", "6,0,2"]
    move = _xy(brain.answer("BOARD", *own, *opp, "DONE"))
    assert move != (11, 11)
    brain.send("INFO rule 0")           # freestyle: the double-four wins at once
    assert brain.answer("TAKEBACK %d,%d" % move) == "OK"
    assert _xy(brain.answer("BOARD", *own, *opp, "DONE")) == (11, 11)


def test_the_cli_command_speaks_the_protocol():
    exe = shutil.which("engines", path=str(Path(sys.executable).parent))
    brain = Brain([exe, "gomocup", "--seconds", "0.05"])
    assert brain.answer("START 9") == "OK"
    assert _xy(brain.answer("BEGIN")) == (4, 4)
    assert brain.close()[0] == 0


def test_a_short_game_against_itself_through_two_processes():
    players = [Brain(), Brain()]
    game = rules.Game(15, "freestyle")
    try:
        for p in players:
            p.send("INFO timeout_turn 100", "INFO max_memory 83886080")
            assert p.answer("START 15") == "OK"
        move = _xy(players[0].answer("BEGIN"))
        game.play(move)
        turn = 1
        while not game.is_over and len(game.history) < 24:
            move = _xy(players[turn].answer(f"TURN {move[0]},{move[1]}"))
            assert game.why_illegal(move) is None, (game.history, move)
            game.play(move)
            turn = 1 - turn
        assert len(game.history) == 24 or game.winner is not None
    finally:
        for p in players:
            assert p.close()[0] == 0


def test_swap2board_places_three_stones_then_swaps_or_plays_white(brain):
    """Swap2 (Gomocup's SWAP2BOARD): no stone -> the first balanced opening's three stones;
    three or five stones -> SWAP when white (to move) is worse, else white's move."""
    from engines.gomoku.openings import load_balanced

    brain.send("INFO rule 1", "INFO timeout_turn 300")
    assert brain.answer("START 15") == "OK"
    stones = [_xy(p) for p in brain.answer("SWAP2BOARD", "DONE").split()]
    assert stones == list(load_balanced("standard")[0].moves[:3])
    assert brain.answer("SWAP2BOARD", "7,7", "0,0", "8,8", "DONE") == "SWAP"
    move = _xy(brain.answer("SWAP2BOARD", "0,0", "7,7", "14,14", "DONE"))
    assert move not in ((0, 0), (7, 7), (14, 14)) and 0 <= min(move) and max(move) < 15
    five = ["0,0", "7,7", "14,0", "8,7", "0,14"]
    move = _xy(brain.answer("SWAP2BOARD", *five, "DONE"))
    assert f"{move[0]},{move[1]}" not in five
    assert brain.answer("SWAP2BOARD", "7,7", "0,0", "8,7", "14,14", "9,7", "DONE") == "SWAP"
    assert brain.answer("SWAP2BOARD", "1,1", "2,2", "DONE").startswith("ERROR SWAP2BOARD gives 2")
    assert brain.answer("SWAP2BOARD", "1,1", "1,1", "2,2", "DONE").startswith(
        "ERROR SWAP2BOARD gives a point twice")
    assert brain.answer("SWAP2BOARD", "1,x", "DONE").startswith("ERROR expected X,Y")
    # afterwards the manager's BOARD sets the real game up as usual
    assert _xy(brain.answer("BOARD", "7,7,2", "8,8,1", "9,9,2", "DONE")) not in (
        (7, 7), (8, 8), (9, 9))


def test_the_baseline_mode_searches_a_fixed_depth_plainly():
    exe = shutil.which("engines", path=str(Path(sys.executable).parent))
    brain = Brain([exe, "gomocup", "--depth", "3", "--plain"])
    brain.send("INFO timeout_turn 30000")
    assert brain.answer("START 15") == "OK"
    own = ["3,7,1", "4,7,1", "5,7,1", "0,0,1"]         # an open three: a VCF exists
    opp = ["0,14,2", "2,14,2", "4,14,2", "14,0,2"]
    move = _xy(brain.answer("BOARD", *own, *opp, "DONE"))
    assert move in ((2, 7), (6, 7), (1, 7), (7, 7))
    assert "win in" not in brain.messages[-1]         # no proof search in plain mode
    assert brain.answer("RESTART") == "OK"
    brain.answer("BOARD", "7,7,2", "8,8,1", "6,9,2", "DONE")
    assert brain.messages[-1].startswith("MESSAGE depth 3 ")
    assert brain.close()[0] == 0


def test_a_node_budget_searches_that_many_nodes_whatever_the_time():
    """--nodes N (the self-play SPRTs' budget): every move stops at N nodes, not by a clock."""
    exe = shutil.which("engines", path=str(Path(sys.executable).parent))
    brain = Brain([exe, "gomocup", "--nodes", "3000"])
    brain.send("INFO timeout_turn 30000")
    assert brain.answer("START 15") == "OK"
    brain.answer("BOARD", "7,7,2", "8,8,1", "DONE")        # quiet: no win cuts it short
    words = brain.messages[-1].split()
    assert words[:1] == ["MESSAGE"] and 3000 <= int(words[words.index("nodes") + 1]) <= 3001
    assert brain.close()[0] == 0


def _nodes(brain, *lines):
    brain.answer(*lines)
    words = brain.messages[-1].split()
    return int(words[words.index("nodes") + 1])


def test_the_table_outlives_a_repeated_memory_limit_and_not_a_new_one():
    """The same position searched twice at a fixed depth: the second search finds the first
    one's table (fewer nodes) after a repeated INFO max_memory (INFO may come at any time),
    and an empty one (the same nodes) after a different limit or RESTART."""
    exe = shutil.which("engines", path=str(Path(sys.executable).parent))
    brain = Brain([exe, "gomocup", "--depth", "5"])
    brain.send("INFO timeout_turn 30000", "INFO max_memory 83886080")
    assert brain.answer("START 15") == "OK"
    board = ("BOARD", "7,7,2", "8,8,1", "6,9,2", "8,6,1", "DONE")
    first = _nodes(brain, *board)
    brain.send("INFO max_memory 83886080")
    assert _nodes(brain, *board) < first
    brain.send("INFO max_memory 167772160")
    assert _nodes(brain, *board) == first
    assert brain.answer("RESTART") == "OK"
    assert _nodes(brain, *board) == first
    assert brain.close()[0] == 0

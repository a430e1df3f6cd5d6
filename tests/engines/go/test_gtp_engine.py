"""The GTP adapter on the real Go engine: in-process sessions, and `engines gtp go` as a
subprocess driven like GoGui or the match runner drive it."""
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.go import GoEngine, sgf
from engines.go.coords import to_gtp
from engines.go.gtp import Budget, GtpSession
from engines.gtp_client import GtpClient, GtpClientError

ENGINES = Path(sys.executable).parent / "engines"


@pytest.fixture
def session():
    engine = GoEngine(size=9, komi=7.0, seed=1)
    yield GtpSession(engine, budget=Budget(playouts=300, seconds=None))
    engine.close()


def ask(session, line):
    return session.respond(line + "\n")


def test_play_undo_and_errors(session):
    assert ask(session, "1 boardsize 9") == "=1\n\n"
    assert ask(session, "play b E5") == "=\n\n"
    assert ask(session, "play w E5") == "? illegal move\n\n"
    assert ask(session, "play w J10") == "? illegal move (vertex off the board)\n\n"
    assert ask(session, "play w 5E").startswith("? syntax error")
    assert ask(session, "play purple E5").startswith("? syntax error")
    assert ask(session, "play b").startswith("? syntax error (usage: play COLOR VERTEX)")
    assert ask(session, "komi seven").startswith("? syntax error")
    assert ask(session, "boardsize 42") == "? unacceptable size\n\n"
    assert ask(session, "frobnicate") == "? unknown command\n\n"
    assert ask(session, "7") == "?7 syntax error (no command after id)\n\n"
    assert ask(session, "   # just a comment") is None
    assert session.engine.board()[4][4] == "b"
    assert ask(session, "undo") == "=\n\n"
    assert session.engine.board()[4][4] == "."
    assert ask(session, "undo") == "? cannot undo\n\n"


def test_capture_ko_and_known_commands(session):
    # Black walls E5 on three sides, white walls F5; black F5 then captures the stone at E5.
    for line in ["play b D5", "play w E5", "play b E6", "play w F6", "play b E4", "play w F4",
                 "play b pass", "play w G5", "play b F5"]:  # black F5 captures white E5
        assert ask(session, line) == "=\n\n", line
    assert session.engine.board()[4][4] == "."
    assert ask(session, "play w E5") == "? illegal move\n\n"  # immediate ko recapture
    assert "captures: black 1 white 0" in ask(session, "showboard")
    assert ask(session, "known_command genmove") == "= true\n\n"
    assert ask(session, "known_command fly") == "= false\n\n"
    commands = ask(session, "list_commands")[2:].split()
    for name in ["protocol_version", "final_status_list", "time_left", "soloshop-playouts",
                 "loadsgf", "printsgf"]:
        assert name in commands


def test_genmove_plays_a_legal_move(session):
    reply = ask(session, "genmove black")
    vertex = reply[2:].strip()
    assert reply.startswith("= ") and vertex.lower() not in ("resign", "pass")
    assert [c for c, _ in session.engine.moves()] == ["b"]
    assert ask(session, f"play w {vertex}") == "? illegal move\n\n"  # it is on the board
    reply = ask(session, "reg_genmove white")  # suggests without playing
    assert reply.startswith("= ") and len(session.engine.moves()) == 1


WALLS = [f"play b E{row}" for row in range(1, 10)] + [f"play w F{row}" for row in range(1, 10)]


def test_final_score_and_dead_stones(session):
    assert ask(session, "final_score") == "= W+7\n\n"  # empty board: komi only
    for line in WALLS:
        assert ask(session, line) == "=\n\n"
    # Black 9 stones + 36 points, white 9 + 27, komi 7.
    assert ask(session, "final_score") == "= B+2\n\n"
    assert ask(session, "final_status_list dead") == "=\n\n"
    # A white stone in atari in black's corner: dead (a lone stone in the middle of black's
    # area is a closer call for a playout judge, so it is not used here).
    assert ask(session, "play b B9") == ask(session, "play w A9") == "=\n\n"
    assert ask(session, "final_status_list dead") == "= A9\n\n"
    assert ask(session, "final_score") == "= B+2\n\n"
    alive = ask(session, "final_status_list alive")[2:].split()
    assert len(alive) == 19 and "A9" not in alive and {"B9", "E5", "F5"} <= set(alive)
    assert ask(session, "final_status_list seki") == "=\n\n"
    assert ask(session, "final_status_list dying").startswith("? syntax error")


def test_printsgf_and_loadsgf_round_trip(session, tmp_path):
    for line in ["play b E5", "play w C3", "play b pass", "play w D4"]:
        ask(session, line)
    text = ask(session, "printsgf")
    assert text.startswith("= (;FF[4]GM[1]") and ";B[]" in text and "KM[7]" in text
    path = tmp_path / "game.sgf"
    assert ask(session, f"printsgf {path}") == "=\n\n"
    record = sgf.load(path)
    assert record.moves == [("b", (4, 4)), ("w", (2, 6)), ("b", None), ("w", (3, 5))]
    # Load the first two moves only into a fresh board of another size.
    ask(session, "boardsize 13")
    assert ask(session, f"loadsgf {path} 3") == "=\n\n"
    assert session.engine.moves() == [("b", (4, 4)), ("w", (2, 6))]
    assert len(session.engine.board()) == 9
    assert ask(session, f"loadsgf {tmp_path / 'missing.sgf'}").startswith("? cannot load file")
    # Setup stones are placed, kept out of the move list, and cannot be undone.
    sgf.save(path, sgf.GameRecord(size=9, komi=6.5, setup_black=[(0, 0)], setup_white=[(8, 8)],
                                  moves=[("b", (4, 4))]))
    assert ask(session, f"loadsgf {path}") == "=\n\n"
    assert ask(session, "undo") == "=\n\n" and ask(session, "undo") == "? cannot undo\n\n"
    record = sgf.loads(ask(session, "printsgf")[2:])
    assert (record.setup_black, record.setup_white, record.komi) == ([(0, 0)], [(8, 8)], 6.5)
    illegal = sgf.GameRecord(size=9, moves=[("b", (4, 4)), ("w", (4, 4))])
    sgf.save(path, illegal)
    assert ask(session, f"loadsgf {path}") == "? cannot load file (illegal move W E5)\n\n"


def test_time_commands_and_budget_commands(session):
    assert ask(session, "time_settings 0 1 1") == "=\n\n"
    assert ask(session, "time_left b 0.8 1") == "=\n\n"
    assert session._think_budget("b")["seconds"] < 0.8
    assert ask(session, "time_settings 0 x 1").startswith("? syntax error")
    assert ask(session, "time_left purple 5 0").startswith("? syntax error")
    assert ask(session, "soloshop-playouts -1").startswith("? syntax error")
    assert ask(session, "soloshop-seconds 0.3") == "=\n\n"
    assert session._think_budget("w")["seconds"] <= 0.3
    assert ask(session, "soloshop-threads 0").startswith("? syntax error")


def test_time_settings_are_used_whole_unless_seconds_were_asked_for():
    """The 1 s default is for a controller that sends no time settings: a match's 5 s a move
    is thought for 5 s (it was capped at 1 s), and an explicit --seconds still caps it."""
    engine = GoEngine(size=9, seed=1)
    try:
        plain = GtpSession(engine, budget=Budget())
        assert plain._think_budget("b") == {"playouts": None, "seconds": 1.0}
        assert ask(plain, "time_settings 0 5 1") == "=\n\n"
        assert 4.5 < plain._think_budget("b")["seconds"] < 5
        capped = GtpSession(engine, budget=Budget(seconds=0.3))
        assert ask(capped, "time_settings 0 5 1") == "=\n\n"
        assert capped._think_budget("w")["seconds"] == 0.3
        counted = GtpSession(engine, budget=Budget(playouts=500))
        assert counted._think_budget("b") == {"playouts": 500, "seconds": None}
    finally:
        engine.close()


COMMAND_WORDS = st.sampled_from(["play", "genmove", "undo", "boardsize", "komi", "loadsgf",
                                  "time_left", "final_status_list", "known_command", "7",
                                  "fixed_handicap", "set_free_handicap", "place_free_handicap"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(COMMAND_WORDS | st.text(max_size=12), min_size=1, max_size=4))
def test_any_line_gets_an_answer_never_an_exception(session, words):
    session.budget = Budget(playouts=20, seconds=None)
    reply = session.respond(" ".join(words))
    assert reply is None or (reply[0] in "=?" and reply.endswith("\n\n")
                             and "\n\n" not in reply[:-2])
    assert "internal error" not in (reply or "")


def test_engines_gtp_go_subprocess_speaks_gtp():
    """The real command, fed a raw script with ids, comments, tabs, CRs and bad lines."""
    script = ("1 protocol_version\r\n# a comment\n\n2 name\nboardsize\t9\nclear_board\n"
              "komi 7\n3 play b E5\n4 play w E5\nnonsense here\nsoloshop-playouts 200\n"
              "soloshop-seconds 0\n5 genmove w\n6 quit\nname\n")
    proc = subprocess.run([str(ENGINES), "gtp", "go"], input=script, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    replies = proc.stdout.split("\n\n")
    assert replies[:6] == ["=1 2", "=2 soloshop", "=", "=", "=", "=3"]
    assert replies[6] == "?4 illegal move" and replies[7] == "? unknown command"
    assert replies[10].startswith("=5 ") and replies[11] == "=6"
    assert replies[12:] == [""]  # nothing is answered after quit


def test_undecodable_bytes_are_answered_with_an_error():
    proc = subprocess.run([str(ENGINES), "gtp", "go"], input=b"\xff\xfe play\nname\n",
                          capture_output=True, timeout=60)
    assert proc.stdout.decode() == "? unknown command\n\n= soloshop\n\n"


def test_match_runner_style_client_session():
    with GtpClient([str(ENGINES), "gtp", "go"], name="soloshop", timeout=30) as client:
        client.command("boardsize 9")
        client.command("soloshop-playouts 100")
        client.command("time_settings 0 1 1")
        move = client.command("genmove b")
        assert move and move != "resign"
        with pytest.raises(GtpClientError, match="illegal move"):
            client.command(f"play w {move}")
        assert "X" in client.command("showboard")


def _genmoves(*options):
    script = "boardsize 9\nclear_board\ngenmove b\ngenmove w\ngenmove b\nquit\n"
    proc = subprocess.run([str(ENGINES), "gtp", "go", *options], input=script,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [reply for reply in proc.stdout.split("\n\n") if reply.startswith("= ")]


def test_command_line_budget_and_seed_make_games_repeatable():
    """--playouts and --seed fix the search, so a match game can be replayed move for move."""
    first = _genmoves("--playouts", "300", "--seed", "7")
    assert len(first) == 3
    assert _genmoves("--playouts", "300", "--seed", "7") == first
    seeds = {tuple(_genmoves("--playouts", "300", "--seed", str(seed))) for seed in range(1, 6)}
    assert len(seeds) > 1  # the seed reaches the search


def test_command_line_searches_with_the_learned_network_unless_told_not_to():
    """The network's priors are on by default (--value) and --no-value turns them off: the same
    seed and budget choose other moves without them."""
    plain = [_genmoves("--playouts", "300", "--seed", str(seed), "--no-value") for seed in (1, 2, 3)]
    valued = [_genmoves("--playouts", "300", "--seed", str(seed), "--value") for seed in (1, 2, 3)]
    assert all(len(moves) == 3 for moves in plain + valued)
    assert plain != valued
    assert _genmoves("--playouts", "300", "--seed", "1") == valued[0]


def test_command_line_rejects_a_bad_budget():
    for bad in (["--playouts", "0"], ["--seconds", "-1"], ["--threads", "0"]):
        proc = subprocess.run([str(ENGINES), "gtp", "go", *bad], input="quit\n",
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "Invalid value" in proc.stderr, bad


# ---- handicap ---------------------------------------------------------------------------------

def gnugo_fixed_handicap(size, stones):
    """GNU Go's own answer (the GTP reference implementation) to `fixed_handicap`."""
    script = f"boardsize {size}\nclear_board\nfixed_handicap {stones}\nquit\n"
    out = subprocess.run(["/usr/games/gnugo", "--mode", "gtp"], input=script, text=True,
                         capture_output=True, timeout=60, check=True).stdout
    return [block for block in out.split("\n\n") if block.strip()][2]


@pytest.mark.gnugo
def test_fixed_handicap_places_the_reference_implementations_points(session):
    for size in (7, 8, 9, 13, 19):
        for stones in range(1, 11):
            assert ask(session, f"boardsize {size}") == "=\n\n"
            ours = ask(session, f"fixed_handicap {stones}").strip()
            theirs = gnugo_fixed_handicap(size, stones).strip()
            assert ours[0] == theirs[0], (size, stones, ours, theirs)   # both '=' or both '?'
            if ours.startswith("="):
                assert ours == theirs, (size, stones)
                placed = {(x, y) for y, row in enumerate(session.engine.board())
                          for x, cell in enumerate(row) if cell == "b"}
                assert len(placed) == stones and session.engine.to_move == "w"
            else:
                assert "invalid number of stones" in ours


def test_handicap_stones_are_setup_that_undo_keeps_and_sgf_saves(session):
    assert ask(session, "fixed_handicap 4") == "= C7 G7 C3 G3\n\n"
    assert ask(session, "fixed_handicap 2") == "? board not empty\n\n"
    assert ask(session, "set_free_handicap A1 B2") == "? board not empty\n\n"
    assert ask(session, "undo") == "? cannot undo\n\n"
    assert ask(session, "play w E5") == "=\n\n"
    reply = ask(session, "genmove b")
    assert reply.startswith("= ") and reply.strip() != "= resign"
    record = sgf.loads(ask(session, "printsgf")[2:])
    assert sorted(record.setup_black) == [(2, 2), (2, 6), (6, 2), (6, 6)]
    assert [c for c, _ in record.moves] == ["w", "b"]
    assert ask(session, "undo") == "=\n\n" and ask(session, "undo") == "=\n\n"
    assert ask(session, "undo") == "? cannot undo\n\n"
    assert ask(session, "clear_board") == "=\n\n"
    assert ask(session, "fixed_handicap two").startswith("? syntax error")
    assert ask(session, "fixed_handicap").startswith("? syntax error")


def test_set_free_handicap_checks_the_vertex_list(session):
    for line, error in [("set_free_handicap A1", "bad vertex list"),
                        ("set_free_handicap A1 A1", "bad vertex list (A1 repeated)"),
                        ("set_free_handicap A1 pass", "bad vertex list (pass"),
                        ("set_free_handicap A1 Z9", "bad vertex list"),
                        ("set_free_handicap A1 5E", "bad vertex list")]:
        assert ask(session, line).startswith(f"? {error}"), line
    assert not session.engine.moves()          # a refused list places nothing
    assert ask(session, "set_free_handicap A1 j9 E5") == "=\n\n"
    board = session.engine.board()
    assert board[8][0] == board[0][8] == board[4][4] == "b" and session.engine.to_move == "w"
    assert ask(session, "undo") == "? cannot undo\n\n"


def test_place_free_handicap_goes_past_the_fixed_points(session):
    assert ask(session, "place_free_handicap 1").startswith("? invalid number of stones")
    assert ask(session, "place_free_handicap 81").startswith("? invalid number of stones")
    assert ask(session, "place_free_handicap 3") == "= C7 G7 C3\n\n"
    ask(session, "clear_board")
    reply = ask(session, "place_free_handicap 11")
    assert reply.startswith("= ")
    vertices = reply[2:].split()
    # The nine fixed points first, then up to two of the engine's own choosing.
    assert vertices[:9] == "C7 E7 G7 C5 E5 G5 C3 E3 G3".split()
    assert 9 <= len(vertices) <= 11 and len(set(vertices)) == len(vertices)
    board = session.engine.board()
    placed = {to_gtp((x, y), 9) for y, row in enumerate(board) for x, c in enumerate(row) if c == "b"}
    assert placed == set(vertices) and len(vertices) == session.setup_count
    assert session.engine.to_move == "w"
    assert ask(session, "undo") == "? cannot undo\n\n"

"""Quoridor's line protocol (engines/quoridor/protocol.py) driven as a real subprocess through
engines/gtp_client.py: every command, refusals for malformed input, and a whole game of the
engine against itself through two processes with every move checked by rules.py."""
import subprocess
import sys

import pytest

from engines.gtp_client import GtpClient, GtpClientError
from engines.quoridor import rules
from engines.quoridor.protocol import Session

ENGINE = [sys.executable, "-m", "engines.quoridor.protocol"]


@pytest.fixture
def client():
    c = GtpClient(ENGINE + ["--nodes", "500"], timeout=30)
    yield c
    c.close()


def test_identity_and_command_list(client):
    assert client.command("protocol_version") == "2"
    assert client.command("name") == "soloshop-quoridor" and client.command("version")
    listed = set(client.command("list_commands").split())
    assert {"boardsize", "walls", "clear_board", "play", "genmove", "undo", "showboard",
            "time_settings", "set_budget", "final_status", "winner", "quit"} <= listed
    assert client.command("known_command genmove") == "true"
    assert client.command("known_command pass") == "false"


def test_play_undo_showboard_and_the_winner(client):
    client.command("boardsize 5")
    for colour, move in [("white", "c2"), ("2", "b3v"), ("w", "c3"), ("black", "c4")]:
        client.command(f"play {colour} {move}")
    board = client.command("showboard")
    assert board.splitlines()[-1] == "walls left: white 3, black 2; white to move"
    rows = {line[:2].strip(): line for line in board.splitlines()}
    assert rows["3"].startswith(" 3 . .|W") and rows["4"].startswith(" 4 . .|B")
    client.command("undo")
    for colour, move in [("black", "d5"), ("white", "c4"), ("black", "d4"), ("white", "c5")]:
        client.command(f"play {colour} {move}")
    assert client.command("winner") == "white"
    assert client.command("final_status") == "white wins"
    with pytest.raises(GtpClientError, match="game is over"):
        client.command("genmove black")


@pytest.mark.parametrize("line,reason", [
    ("play white", "usage"), ("play red e2", "colour"), ("play black e8", "turn"),
    ("play white e3", "cannot reach"), ("play white z9", "no move"), ("play white e9v", "off"),
    ("boardsize 8", "5, 7 or 9"), ("boardsize x", "integer"), ("walls 99", "0..20"),
    ("set_budget time 3", "usage"), ("set_budget nodes -1", "positive"),
    ("set_budget seconds abc", "number"), ("time_settings 1 2", "usage"), ("undo", "no move"),
    ("frobnicate", "unknown command"), ("genmove black", "turn"),
    ("time_left white 10", "usage"), ("time_left red 10 0", "colour"),
    ("time_left white -3 0", "negative"), ("set_engine random", "alphabeta, mcts, reference-ai"),
    ("set_engine", "usage"),
])
def test_malformed_input_is_refused_not_a_crash(client, line, reason):
    with pytest.raises(GtpClientError, match=reason):
        client.command(line)
    assert client.command("name") == "soloshop-quoridor"    # still alive and in step


def test_ids_and_blank_and_comment_lines_in_raw_output():
    out = subprocess.run(ENGINE + ["--depth", "1", "--engine", "alphabeta"], input="7 name\n\n# nothing\n8 frob\n9 genmove 1\nquit\n",
                         capture_output=True, text=True, timeout=30).stdout
    assert out.startswith("=7 soloshop-quoridor\n\n?8 unknown command 'frob'\n\n=9 e2\n\n")
    assert out.endswith("=\n\n")


def test_walls_budget_and_time_settings_take_effect(client):
    client.command("walls 0")
    client.command("set_engine alphabeta")
    client.command("set_budget depth 2")
    assert client.command("genmove white") == "e2"             # no walls: it can only walk
    with pytest.raises(GtpClientError, match="no walls left"):
        client.command("play black e3h")
    client.command("clear_board")
    assert client.command("showboard").splitlines()[-1].startswith("walls left: white 0, black 0")
    client.command("time_settings 0 1 10")
    client.command("set_budget seconds 0.05")
    assert client.command("genmove white") == "e2"


def test_time_left_turns_a_game_clock_into_a_move_budget():
    s = Session(nodes=50)
    assert s.handle("time_left white 50 0") == "=\n\n"
    assert s.budget == {"seconds": 2.0, "nodes": None, "depth": None}     # 50 s / 25
    s.handle("time_left black 6 3")
    assert s.budget["seconds"] == 2.0                                      # byo-yomi: 6 s / 3
    s.handle("time_left w 0 0")
    assert s.budget["seconds"] == 0.01                                     # never nothing
    assert s.handle("genmove white").startswith("= ")


def test_session_survives_odd_bytes():
    s = Session(nodes=50)
    for line in ["\x00\x01play", "play white e\u00b2", "walls \u0663", "9" * 400, "play 1 e2 e3"]:
        reply = s.handle(line)
        assert reply is None or reply.endswith("\n\n")


@pytest.mark.parametrize("size,nodes", [(9, 1500), (5, 300)])
def test_a_whole_game_against_itself_through_two_processes(size, nodes):
    ref = rules.Game(size)
    players = [GtpClient(ENGINE + ["--nodes", str(nodes)], timeout=30) for _ in range(2)]
    try:
        for p in players:
            p.command(f"boardsize {size}")
        colours = ("white", "black")
        while ref.winner is None and len(ref.moves()) < 300:
            me = ref.to_move
            move = players[me].command(f"genmove {colours[me]}")
            ref.play(move)                       # raises on an illegal move
            players[1 - me].command(f"play {colours[me]} {move}")
        assert ref.winner is not None, ref.moves()
        for p in players:
            assert p.command("winner") == colours[ref.winner]
    finally:
        for p in players:
            p.close()


def test_the_engines_quoridor_command_speaks_it():
    from click.testing import CliRunner

    from engines.cli import main

    result = CliRunner().invoke(main, ["quoridor", "--size", "5", "--depth", "2",
                                       "--engine", "alphabeta"],
                                input="boardsize 7\ngenmove white\nquit\n")
    assert result.exit_code == 0 and result.output == "=\n\n= d2\n\n=\n\n"


@pytest.mark.parametrize("engine", ["mcts", "reference-ai"])
def test_the_tree_searches_are_selectable_by_option_and_by_command(engine):
    from click.testing import CliRunner

    from engines.cli import main
    from engines.quoridor.engine import ENGINES

    result = CliRunner().invoke(main, ["quoridor", "--engine", engine, "--rollouts", "300"],
                                input="play white e2\nplay black e8\ngenmove white\nquit\n")
    assert result.exit_code == 0, result.output
    move = result.output.split("\n\n")[2]
    assert move.startswith("= ") and rules.parse_move(move[2:])
    s = Session(nodes=200)
    assert s.handle(f"set_engine {engine}") == "=\n\n"
    assert s.handle("set_budget playouts 200") == "=\n\n" and s.budget["nodes"] == 200
    assert s.handle("genmove white").startswith("= ")
    option = [p for p in main.commands["quoridor"].params if p.name == "searcher"][0]
    assert tuple(option.type.choices) == ENGINES      # the CLI's list is the engine's

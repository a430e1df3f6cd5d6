"""The pure GTP layers: line parsing, response formatting, time allotment, and the client
against a real GTP engine (GNU Go)."""
import pytest

from engines.go.gtp import ClockState, TimeSettings, allot_seconds, format_score, spend
from engines.gtp import Command, clean_line, format_response, parse_command
from engines.gtp_client import GtpClient, GtpClientError

GNUGO = ["/usr/games/gnugo", "--mode", "gtp", "--level", "1", "--chinese-rules"]


@pytest.mark.parametrize("line, expected", [
    ("play b D4\n", Command(None, "play", ("b", "D4"))),
    ("12 genmove w\r\n", Command(12, "genmove", ("w",))),
    ("\tplay\tblack  C3  # a comment\n", Command(None, "play", ("black", "C3"))),
    ("7 quit", Command(7, "quit")),
    ("7", Command(7, "")),
    ("name\x01\x7f\n", Command(None, "name")),
    ("\u00b9", Command(None, "\u00b9")),               # a digit to str.isdigit(), not an id
    ("\u0663 name", Command(None, "\u0663", ("name",))),
])
def test_parse_command(line, expected):
    assert parse_command(line) == expected


@pytest.mark.parametrize("line", ["", "\n", "   \t ", "# only a comment", "\r\n"])
def test_empty_and_comment_lines_carry_no_command(line):
    assert parse_command(line) is None


def test_clean_line_drops_control_characters_and_comments():
    assert clean_line("a\x00b\tc # d") == "ab c"


def test_format_response():
    assert format_response(None, True) == "=\n\n"
    assert format_response(3, True, "D4") == "=3 D4\n\n"
    assert format_response(None, False, "illegal move") == "? illegal move\n\n"
    # An empty line inside a multi-line reply would end it early: it is padded.
    assert format_response(1, True, "a\n\nb\n") == "=1 a\n \nb\n\n"


def test_format_score():
    assert [format_score(s) for s in (3.5, -7, 0)] == ["B+3.5", "W+7", "0"]


def test_time_allotment_in_byo_yomi_keeps_a_safety_margin():
    settings = TimeSettings(main=0, byo_time=1, byo_stones=1)
    seconds = allot_seconds(settings, ClockState(0, 1, 1), empty_points=81, cap=None)
    assert 0.5 < seconds < 1.0
    # The per-move cap always wins, and an unlimited game falls back to the cap.
    assert allot_seconds(settings, ClockState(0, 1, 1), 81, cap=0.3) == 0.3
    assert allot_seconds(TimeSettings(0, 5, 0), ClockState(0, 0, 0), 81, cap=0.7) == 0.7


def test_time_allotment_in_main_time_spreads_over_the_game():
    settings = TimeSettings(main=60, byo_time=0, byo_stones=0)
    early = allot_seconds(settings, ClockState(60, 0, 0), empty_points=81, cap=None)
    late = allot_seconds(settings, ClockState(5, 0, 0), empty_points=20, cap=None)
    assert 1 < early < 4 and late < 1
    # Sudden death with almost nothing left still answers quickly.
    assert allot_seconds(settings, ClockState(0.02, 0, 0), 40, None) <= 0.02


def test_spend_moves_from_main_time_into_byo_yomi_periods():
    settings = TimeSettings(main=10, byo_time=30, byo_stones=5)
    clock = spend(settings, ClockState(10, 30, 5), 4)
    assert clock.main_left == 6
    clock = spend(settings, clock, 8)  # 6 s of main, then 2 s of the first period
    assert (clock.main_left, clock.period_left, clock.stones_left) == (0, 28, 4)
    for _ in range(4):
        clock = spend(settings, clock, 1)
    assert (clock.period_left, clock.stones_left) == (30, 5)  # a fresh period


@pytest.mark.gnugo
def test_client_talks_to_a_real_engine_and_reports_refusals():
    with GtpClient(GNUGO, name="gnugo") as client:
        assert client.command("protocol_version") == "2"
        client.command("boardsize 9")
        client.command("play b E5")
        with pytest.raises(GtpClientError, match="gnugo refused 'play w E5': illegal move"):
            client.command("play w E5")
        board = client.command("showboard")
        assert board.count("\n") >= 9  # multi-line responses are read whole
        assert client.command("genmove w") != ""
    with pytest.raises(GtpClientError, match="has exited"):
        client.command("name")


def test_client_times_out_on_a_silent_engine():
    with GtpClient(["sleep", "5"], name="sleeper") as client:
        with pytest.raises(GtpClientError, match="did not answer 'name' within 0.2 s"):
            client.command("name", timeout=0.2)


@pytest.mark.parametrize("text", ["A\u00b9", "D\u0664", "C1\u00b2"])
def test_vertices_take_ascii_digits_only(text):
    from engines.go.coords import BadVertex, from_gtp
    with pytest.raises(BadVertex, match="is not a vertex"):
        from_gtp(text, 9)

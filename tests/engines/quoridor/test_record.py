"""Quoridor game records and opening lines (engines/quoridor/record.py): the text round-trips,
every move is checked by the rules, and bad text is refused naming the line and the move."""
import pytest

from engines.quoridor import record, rules


def test_a_record_round_trips_with_its_tags_and_moves():
    game = rules.Game(7)
    for move in ["d2", "d6", "f1h", "d5v", "d3", "d5", "e3", "d4"]:
        game.play(move)
    rec = record.Record(size=7, moves=game.moves(), white='a "quoted" one', black="b\\c",
                        result="*", tags={"Reason": "still playing"})
    text = record.dumps(rec)
    assert '[White "a \\"quoted\\" one"]' in text and '[Walls "6"]' in text
    assert "1. d2 d6 2. f1h d5v 3. d3 d5 4. e3 d4\n" in text
    back = record.loads(text)
    assert back == rec.__class__(size=7, walls=6, moves=rec.moves, white=rec.white,
                                 black=rec.black, result="*", tags={"Reason": "still playing"})


def test_long_games_wrap_and_still_parse():
    moves = ["e2", "e8", "e3", "e7"] * 1  # a short start, then walls to make it long
    game = rules.Game(9)
    for move in moves:
        game.play(move)
    for wall in game.legal_walls()[:16]:
        if game.why_wall_illegal(wall) is None:
            game.play(wall)
    text = record.dumps(record.Record(moves=game.moves(), result="*"))
    assert max(len(line) for line in text.splitlines()) <= 90
    assert record.loads(text).moves == game.moves()


@pytest.mark.parametrize("text,message", [
    ('[Size "9"]\n\n1. e2 e3\n', "line 3: move 2 'e3'"),
    ('[Size "nine"]\n', "must be integers"),
    ('[Result "white wins"]\n', "Result 'white wins'"),
    ('[Size 9]\n', "line 1:"),
    ('[Size "5"]\n\n1. c2 c4 2. z9\n', "move 3 'z9'"),
])
def test_bad_records_are_refused_naming_the_line(text, message):
    with pytest.raises(record.RecordError, match=message.replace("(", r"\(")):
        record.loads(text)


def test_opening_lines_are_checked_and_an_empty_file_is_refused():
    assert record.parse_openings("# c\nc2 c4 b2h\n\n c2  b2v # trailing\n", 5) == [
        ["c2", "c4", "b2h"], ["c2", "b2v"]]
    with pytest.raises(record.RecordError, match="f.txt, line 1: move 4 'b1h': wall b1h: overlaps"):
        record.parse_openings("c2 c4 b1h b1h\n", 5, source="f.txt")
    with pytest.raises(record.RecordError, match="f.txt: no opening"):
        record.parse_openings("# nothing\n", 5, source="f.txt")
    with pytest.raises(record.RecordError, match="ends the game"):
        record.parse_openings("c2 c4 c3 b4 c4 b3 c5\n", 5)

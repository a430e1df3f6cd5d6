"""The misread positions (engines.go.positions, benchmarked by bench/go_positions.py): the
winner's side of every figure, the walk back through a lost game, GNU Go's continuation, and
clear errors."""
import json

import pytest

from engines.go import positions, sgf
from engines.go.coords import to_gtp


def decided():
    """A finished 9x9 game: black fills columns A-G but six one-point eyes, white holds H and J
    with eyes on J (B+38 after komi); white passes once its stones are down. White to move."""
    eyes = {(1, 1), (1, 4), (1, 7), (4, 1), (4, 4), (4, 7)}
    black = [(x, y) for x in range(7) for y in range(9) if (x, y) not in eyes]
    white = [(7, y) for y in range(9)] + [(8, y) for y in (1, 3, 5, 7)]
    moves = []
    for i, p in enumerate(black):
        moves.append(("b", p))
        if i < len(black) - 1:   # white answers each stone but the last, then passes
            moves.append(("w", white[i] if i < len(white) else None))
    return moves


def write(path, entries):
    positions.write_positions(path, entries)
    return path


def entry(winner):
    moves = decided()
    return {"source": f"decided, {winner} wins", "size": 9, "komi": 7.0,
            "moves": [f"{c} {to_gtp(p, 9)}" for c, p in moves],
            "to_move": "w", "winner": winner}


def test_run_gives_the_win_rate_of_the_side_that_wins(tmp_path):
    path = write(tmp_path / "p.json", [entry("b"), entry("w")])
    summary = positions.run(positions.load_positions(path), playouts=1500, seeds=1, threads=1)
    summary = json.loads(json.dumps(summary))  # what `go_positions.py run --json` prints
    right, wrong = summary["rows"]
    assert right["winner_winrate"] > 0.9 and wrong["winner_winrate"] < 0.1
    assert summary["positions"] == 2 and summary["read_right"] == 1
    assert summary["conditions"]["playouts"] == 1500


def test_positions_round_trip_one_line_each(tmp_path):
    path = write(tmp_path / "p.json", [entry("b"), entry("w")])
    assert len(path.read_text().splitlines()) == 4            # brackets and two positions
    loaded = positions.load_positions(path)
    assert loaded[0]["moves"] == decided() and loaded[1]["winner"] == "w"


def test_the_walk_back_finds_the_last_position_the_loser_still_liked():
    rec = sgf.GameRecord(size=9, komi=7.0, moves=decided())
    index, rate = positions.misread_position(rec, "b", playouts=800, window=3)
    assert index == len(rec.moves) - 1 and rate >= 0.5       # before black's last stone
    assert positions.misread_position(rec, "w", playouts=800, window=3) is None


@pytest.mark.gnugo
def test_gnugo_plays_the_position_out_and_the_referee_names_the_winner():
    assert positions.continue_with_gnugo(9, 7.0, decided(), seed=1) == "b"


def test_missing_inputs_are_clear_errors(tmp_path):
    with pytest.raises(positions.PositionsError, match="build it with"):
        positions.load_positions(tmp_path / "none.json")
    with pytest.raises(positions.PositionsError, match="results.json is missing"):
        positions.collect([tmp_path], tmp_path / "p.json", playouts=100, window=3)

"""engines.go.review: where a match's lost games turned, by this engine's own estimate."""
import json

import pytest
from click.testing import CliRunner

from engines.go import review, sgf


def test_a_lead_lost_in_a_few_moves_is_a_collapse():
    curve = [(0, 0.5), (20, 0.55), (30, 0.6), (40, 0.7), (44, 0.3), (48, 0.1), (52, 0.05)]
    t = review.turning(curve)
    assert (t.kind, t.lost_at, t.before, t.at_early) == ("collapse", 48, 0.7, 0.6)


def test_a_game_behind_by_move_30_that_never_led_is_behind_early():
    curve = [(1, 0.5), (15, 0.4), (29, 0.3), (41, 0.35), (51, 0.1), (61, 0.0)]
    t = review.turning(curve)
    assert (t.kind, t.lost_at, t.at_early) == ("behind early", 51, 0.3)


def test_a_lead_given_away_over_many_moves_is_a_slide():
    curve = [(0, 0.5), (30, 0.7), (40, 0.5), (50, 0.4), (60, 0.3), (70, 0.25), (80, 0.1)]
    assert review.turning(curve).kind == "slide"
    # a close game lost on the count never falls below LOST: no turn to name
    close = review.turning([(0, 0.5), (30, 0.5), (60, 0.45)])
    assert (close.kind, close.lost_at, close.before) == ("slide", None, None)


def _journal(tmp_path, games, game="go"):
    lines = [{"type": "match", "game": game, "options": {}}]
    lines += [{"type": "game", **g} for g in games]
    (tmp_path / "journal.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return tmp_path


def _game(seed, points, color="b"):
    moves = [("b", (4, 4)), ("w", (2, 2)), ("b", (6, 6)), ("w", (2, 6)), ("b", (6, 2)), ("w", None)]
    record = sgf.GameRecord(size=9, komi=7.0, moves=moves, result="W+R")
    return {"index": seed, "seed": seed, "points": points, "candidate_color": color, "result": "W+R",
            "moves": len(moves), "record": sgf.dumps(record)}


def test_review_replays_the_lost_games_with_the_engines_estimate(tmp_path):
    run = _journal(tmp_path, [_game(5, 0), _game(6, 1), _game(7, 0.5), _game(8, 0, color="w")])
    out = CliRunner().invoke(review.main, [str(run), "--playouts", "50", "--no-value"])
    assert out.exit_code == 0, out.output
    assert "[1/2] seed 5 as b W+R (6 moves)" in out.output and "seed 8 as w" in out.output
    assert "seed 6 " not in out.output and "seed 7 " not in out.output    # won, drawn
    curves = [line.split() for line in out.output.splitlines() if line.startswith("  ")]
    assert [[c.split(":")[0] for c in curve] for curve in curves] == [["0", "4"], ["1", "5"]]   # every other estimate
    assert all(0 <= float(c.split(":")[1]) <= 1 for curve in curves for c in curve)
    assert out.output.rstrip().endswith("2 games reviewed: 2 slide (5, 8)")
    drawn = CliRunner().invoke(review.main, [str(run), "--playouts", "50", "--no-value", "--draws"])
    assert "seed 7 " in drawn.output and "3 games reviewed" in drawn.output


@pytest.mark.parametrize("games, message", [
    (None, "holds no journal.jsonl: give the --out directory"),
    ("gomoku", "is not the journal of a Go match"),
])
def test_a_directory_without_a_go_match_is_a_clear_error(tmp_path, games, message):
    if games:
        _journal(tmp_path, [], game=games)
    out = CliRunner().invoke(review.main, [str(tmp_path)])
    assert out.exit_code != 0 and message in out.output

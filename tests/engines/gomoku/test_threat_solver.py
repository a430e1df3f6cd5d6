"""engines/gomoku/threat_solver.py, the exhaustive reference for forced wins over rules.py, on
positions written from the definitions."""
import pytest

from engines.gomoku import rules, threat_solver as ts


CORNERS = [(0, 0), (14, 0), (0, 14), (14, 14), (0, 7), (14, 7), (7, 0), (7, 14)]


def game(board: str, rule: str = "freestyle", to_move: str = "b") -> rules.Game:
    """BOARD (X black, O white) with stones of the short colour added on the edges' corners
    and midpoints (never two in a line of five) so that TO_MOVE is to move."""
    rows = [list(r) for r in board.strip().split()]
    black = sum(r.count("X") for r in rows)
    white = sum(r.count("O") for r in rows)
    extra = black - white - (0 if to_move == "b" else 1)
    for x, y in CORNERS[:abs(extra)]:
        assert rows[y][x] == "."
        rows[y][x] = "O" if extra > 0 else "X"
    return rules.Game.from_ascii("\n".join("".join(r) for r in rows), rule)


EMPTY_ROW = "..............."
# Black's two crossing twos: (7,7) makes two open threes (a three-three).
THREE_THREE = "\n".join([EMPTY_ROW] * 5 + [".......X.......", ".......X.......",
                                            ".....XX........"] + [EMPTY_ROW] * 7)
# Black's open three on row 7: the open four next (VCF in 3).
OPEN_THREE = "\n".join([EMPTY_ROW] * 7 + ["....XXX........"] + [EMPTY_ROW] * 7)
# White's four down column 11 (five at (11,7)) against black's slow open three.
WHITE_FOUR = "\n".join([EMPTY_ROW] * 2 + ["...........X...", "...........O...",
                                          "...........O...", "...........O...",
                                          "...........O...", ".....XXX.......", EMPTY_ROW,
                                          EMPTY_ROW, "...X..........."] + [EMPTY_ROW] * 4)


def test_vcf_finds_the_open_four_line_and_nothing_in_a_quiet_position():
    line = ts.solve_vcf(game(OPEN_THREE))
    assert len(line) == 3 and line[0] in ((3, 7), (7, 7))
    assert ts.solve_vcf(game(THREE_THREE)) is None


def test_a_three_three_wins_against_every_reply_in_freestyle_and_is_forbidden_in_renju():
    assert ts.wins_after(game(THREE_THREE), (7, 7), 0)
    assert not ts.wins_after(game(THREE_THREE), (7, 4), 0)      # a single three is answered
    renju = game(THREE_THREE, "renju")
    assert renju.forbidden_reason((7, 7)) == "double-three"
    assert not ts.wins_after(renju, (7, 7), 0)


def test_the_only_saving_reply_is_the_block_of_the_four():
    assert ts.saving_replies(game(WHITE_FOUR)) == [(11, 7)]
    assert len(ts.saving_replies(game(OPEN_THREE, to_move="w"))) >= 2   # either end, or more


def test_a_replayed_line_proves_only_while_every_reply_is_forced():
    g = game(OPEN_THREE)
    line = ts.solve_vcf(g)
    assert ts.replay_wins(g, line, rules.BLACK)
    g.play((0, 7))                                   # a white stone far off: still forced
    g.play((14, 7))
    assert ts.replay_wins(g, line, rules.BLACK)
    blocked = game(OPEN_THREE)
    blocked.play((12, 12))
    blocked.play(line[1])                            # white takes the block point first
    assert not ts.replay_wins(blocked, line, rules.BLACK)


def test_a_budget_stops_a_search_with_out_of_budget_and_is_restored():
    g = game(OPEN_THREE)
    with pytest.raises(ts.OutOfBudget):
        with ts.limited(1):
            ts.solve_vcf(g)
    assert len(ts.solve_vcf(g)) == 3                   # no budget outside the block

"""The C search (engines/gomoku/core/search.c) on tactics positions whose forced wins are proved
here by an exhaustive VCF solver over the readable rules (rules.py), a defence position, and
the search's contract (the caller's board unchanged, tiny budgets, renju forbidden points).

Boards are 15x15 ASCII: X black, O white. `_position` adds filler stones of the colour that is
short on every other point of rows 0 and 14 (at most three in a five-point window, so never a
four) so that the side to move is right.
"""
import pytest

from engines.gomoku import GomokuEngine, rules
from engines.gomoku.engine import WIN_SCORE
from engines.gomoku.threat_solver import solve_vcf
from engines.gomoku.threat_solver import win_points as _win_points
from tests.engines.gomoku.boards import balance

# The reference: engines.gomoku.threat_solver's VCF by the definition, over rules.Game.


# ---- positions -----------------------------------------------------------------------------

def _swap(board):
    return board.translate(str.maketrans("XO", "OX"))


def _position(board, rule="freestyle", to_move="b"):
    rows = [list(r.replace(" ", "")) for r in board.strip().splitlines()]
    assert len(rows) == 15 and all(len(r) == 15 for r in rows)
    balance(rows, to_move)
    game = rules.Game.from_ascii("\n".join("".join(r) for r in rows), rule)
    engine = GomokuEngine(15, rule, tt_megabytes=8)
    engine.setup(game.history)
    assert engine.to_move == game.to_move == to_move and engine.hash() == game.hash()
    return game, engine


# An open three: the open four next (3 plies).
VCF3 = """
...............
...............
...............
...............
...............
...............
...............
.....XXX.......
...............
...............
...............
...............
...............
...............
...............
"""

# A four-three: the four at (7,7) also makes the open three of column 7 (5 plies).
VCF5 = """
...............
...............
...............
...............
...............
...............
...............
...OXXX........
.......X.......
.......X.......
...............
...............
...............
...............
...............
"""

# A four on the anti-diagonal brings the stone the four-three needs (7 plies).
VCF7 = """
...............
...............
...............
...............
...............
...........O...
..........X....
...OXXX..X.....
.......XX......
...............
...............
...............
...............
...............
...............
"""

# Renju: the double-four at (11,11) would win at once, but it is forbidden to black; the
# four-three at (7,7) is not (5 plies). In freestyle the double-four wins in 3.
RENJU_DOUBLE_FOUR = """
...............
...............
...............
...............
...............
...............
...............
...OXXX....O...
.......X...X...
.......X...X...
...........X...
.......OXXX....
...............
...............
...............
"""
DOUBLE_FOUR = (11, 11)

CASES = [("vcf3", VCF3, "freestyle", 3), ("vcf5", VCF5, "freestyle", 5),
         ("vcf7", VCF7, "freestyle", 7), ("renju-double-four", RENJU_DOUBLE_FOUR, "renju", 5),
         ("freestyle-double-four", RENJU_DOUBLE_FOUR, "freestyle", 3)]


def _replay_wins(game, pv, attacker):
    """The search's PV, played on the reference: legal moves, each attacker move a four or
    five, ending in the attacker's win (a PV may stop before a reply forbidden to black)."""
    for i, p in enumerate(pv):
        game.play(p)
        if i % 2 == 0 and not game.is_over:
            assert _win_points(game, attacker), f"{p} is not a four"
    return game.winner == attacker or (len(pv) % 2 == 1 and _win_points(game, attacker))


PARAMS = [(*case, color) for case in CASES for color in "bw" if case[2] != "renju" or color == "b"]


@pytest.mark.parametrize("name,board,rule,plies,color", PARAMS,
                         ids=[f"{p[0]}-{p[4]}" for p in PARAMS])
def test_the_search_proves_the_solvers_shortest_vcf(name, board, rule, plies, color):
    """Black's cases, and the same with the colours swapped and white to play (the renju case
    is black's only)."""
    if color == "w":
        board = _swap(board)
    game, engine = _position(board, rule, color)
    line = solve_vcf(game, max_plies=9)
    assert line is not None and len(line) == plies, line
    result = engine.search(seconds=2)
    assert result["proven_win_in"] == plies, result
    words = {3: "3 plies (2 moves)", 5: "5 plies (3 moves)", 7: "7 plies (4 moves)"}[plies]
    assert result["proven"] == f"{'black' if color == 'b' else 'white'} wins in {words}"
    assert result["score"] == WIN_SCORE - plies
    assert result["move"] == result["pv"][0]
    assert _replay_wins(game, result["pv"], color)
    if name == "renju-double-four":
        fresh, _ = _position(board, rule, color)
        assert fresh.forbidden_reason(DOUBLE_FOUR) == "double-four"
        assert result["move"] != DOUBLE_FOUR


# White has a four (win point (11,7) below its column); black's open three is too slow:
# the only move that does not lose is the block.
DEFENCE = """
...............
...............
...........X...
...........O...
...........O...
...........O...
...........O...
.....XXX.......
...............
...............
...X...........
...............
...............
...............
...............
"""
DEFENCE_BLOCK = (11, 7)


def test_the_search_blocks_the_only_saving_point():
    game, engine = _position(DEFENCE, "freestyle", "b")
    saving = []
    for p in game.legal_moves():
        game.play(p)
        if not _win_points(game, rules.WHITE):
            saving.append(p)
        game.undo()
    assert saving == [DEFENCE_BLOCK]
    result = engine.search(seconds=0.5)
    assert result["move"] == DEFENCE_BLOCK, result
    assert result["score"] > -WIN_SCORE + 100        # blocked, the game goes on


def test_search_leaves_the_callers_board_unchanged():
    game, engine = _position(VCF7, "renju", "b")
    before = (engine.hash(), engine.moves(), engine.board(), engine.to_move)
    for budget in ({"depth": 3}, {"nodes": 50}, {"seconds": 0.05}):
        engine.search(**budget)
        assert (engine.hash(), engine.moves(), engine.board(), engine.to_move) == before


def test_tiny_budgets_still_give_a_legal_move_and_genmove_plays_it():
    engine = GomokuEngine(15, "freestyle", tt_megabytes=1)
    assert engine.search(nodes=1)["move"] == (7, 7)
    for _ in range(6):
        result = engine.genmove(nodes=200)
        assert result["move"] is not None and result["nodes"] >= 1
    assert len(engine.moves()) == 6 and len(set(engine.moves())) == 6


def test_renju_search_never_plays_a_forbidden_point():
    """Black's (11,11) is a double-four: the search's move, PV and candidates avoid it."""
    game, engine = _position(RENJU_DOUBLE_FOUR, "renju", "b")
    result = engine.search(depth=2, seconds=1)
    assert DOUBLE_FOUR not in [c for c, _ in result["candidates"]]
    assert result["pv"] and result["pv"][0] != DOUBLE_FOUR


def test_search_of_a_finished_game_returns_no_move():
    engine = GomokuEngine(9, "standard", tt_megabytes=1)
    engine.setup([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0)])
    assert engine.is_over
    assert engine.search(depth=2)["move"] is None


def test_clear_table_forgets_what_the_table_learnt():
    from engines.gomoku.bench import POSITIONS

    engine = GomokuEngine(15, "freestyle", tt_megabytes=4)
    engine.setup(POSITIONS[0])
    first = engine.search(depth=6)
    again = engine.search(depth=6)
    engine.clear_table()
    cleared = engine.search(depth=6)
    assert again["nodes"] < first["nodes"]                  # the table helped the repeat
    assert (cleared["nodes"], cleared["move"], cleared["pv"]) == (
        first["nodes"], first["move"], first["pv"])         # and is empty again


def test_bench_prints_nodes_per_second(capsys):
    from engines.gomoku.bench import run_bench

    figures = run_bench(seconds=0.2)
    out = capsys.readouterr().out
    assert "nodes/s" in out and figures["nodes_per_second"] > 0
    assert figures["mean_depth"] >= 2          # no position is a quick proof
    assert figures["table"] == "written before the clock" and "written before" in out
    assert run_bench(seconds=0.05, cold=True)["table"].startswith("cold")


def test_bench_refuses_a_bad_time_with_its_usage(capsys):
    from engines.gomoku.bench import main

    for argv in (["0"], ["soon"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
        assert "seconds" in capsys.readouterr().err


def test_bench_positions_are_open_middle_games():
    from engines.gomoku.bench import POSITIONS

    for moves in POSITIONS:
        engine = GomokuEngine(15, "freestyle", tt_megabytes=8)
        engine.setup(moves)
        assert not engine.is_over and engine.to_move == "b"
        assert engine.search(nodes=20000)["proven_win_in"] == 0


# Renju: white's four can only be blocked at (7,7), a double-four for black. Black is lost,
# and the search still answers with a legal move, not the forbidden block.
RENJU_FORBIDDEN_BLOCK = """
...............
...............
..X............
...O...O.......
....O..X.......
.....O.X.......
......OX.......
...OXXX........
...............
...............
...............
...............
...............
...............
...............
"""


def test_renju_a_block_forbidden_to_black_is_a_loss_and_not_played():
    game, engine = _position(RENJU_FORBIDDEN_BLOCK, "renju", "b")
    assert _win_points(game, rules.WHITE) == [(7, 7)]
    assert game.forbidden_reason((7, 7)) == "double-four"
    result = engine.search(seconds=0.5)
    assert result["score"] == -(WIN_SCORE - 2)
    assert result["move"] != (7, 7) and game.why_illegal(result["move"]) is None


def test_a_time_budget_is_kept_loosely():
    """Not a speed figure: a 0.3 s search must not run away (3 s is ten times that)."""
    import time

    from engines.gomoku.bench import POSITIONS

    engine = GomokuEngine(15, "freestyle", tt_megabytes=8)
    engine.setup(POSITIONS[0])
    start = time.monotonic()
    result = engine.search(seconds=0.3)
    assert time.monotonic() - start < 3 and result["seconds"] < 3 and result["depth"] >= 2

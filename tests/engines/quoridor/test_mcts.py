"""The tree searches (core/mcts.c through QuoridorEngine.search(engine='mcts' | 'reference-ai')):
they take a win in one, stop a pawn one step from its goal, answer only legal moves (checked by
rules.py), leave the game as it was, repeat themselves for one seed, and keep their tree inside
its memory bound."""
import random

import pytest

from engines.quoridor import rules
from engines.quoridor.engine import ENGINES, QuoridorEngine
from tests.engines.quoridor.positions import random_positions

TREES = ["mcts", "reference-ai"]


def _position(size, pawns, walls, walls_left, to_move, then=(), **kw):
    """A set-up position, then the moves THEN (past the reference method's first-move rule)."""
    eng = QuoridorEngine(size, **kw)
    eng.set_position(pawns, walls, walls_left, to_move)
    for move in then:
        eng.play(move)
    return eng


@pytest.mark.parametrize("engine", TREES)
def test_a_win_in_one_is_taken(engine):
    eng = _position(9, [(4, 6), (0, 4)], set(), [5, 5], 0, then=["e8", "a4"])
    result = eng.search(playouts=2000, engine=engine)
    assert result["move"] == "e9" and result["winrate"] > 0.9
    assert result["candidates"][0][0] == "e9" and result["candidate_visits"][0] > 50


@pytest.mark.parametrize("engine", TREES)
def test_a_pawn_one_step_from_its_goal_is_walled_off(engine):
    # black on e2 wins next move; white (to move) is far from its goal and must wall
    eng = _position(9, [(3, 3), (4, 2)], set(), [5, 5], 0, then=["e4", "e2"])
    ref = rules.Game(9)
    ref.set_position([(4, 3), (4, 1)], set(), [5, 5], 0)
    move = eng.search(playouts=20000, engine=engine)["move"]
    ref.play(move)
    assert len(rules.parse_move(move)) == 3 and ref.path_length(1) > 1, move


@pytest.mark.parametrize("engine", TREES)
def test_random_positions_get_legal_moves_and_the_game_is_unchanged(engine):
    rng = random.Random(3)
    for size in (5, 7, 9):
        ref, eng = rules.Game(size), QuoridorEngine(size)
        for _ in range(30):
            if ref.winner is not None:
                break
            moves = ref.legal_pawn_moves() + ref.legal_walls()
            move = rng.choice(moves if rng.random() < 0.3 else ref.legal_pawn_moves())
            ref.play(move)
            eng.play(move)
            before = (eng.hash(), eng.moves())
            if ref.winner is not None:
                assert eng.search(playouts=50, engine=engine)["move"] is None
                break
            result = eng.search(playouts=rng.choice([1, 30, 300]), engine=engine)
            assert (eng.hash(), eng.moves()) == before
            assert ref.why_wall_illegal(rules.parse_move(result["move"])) is None \
                if result["move"].endswith(("h", "v")) else \
                rules.parse_move(result["move"]) in ref.legal_pawn_moves()
            line = rules.Game(size)
            line.set_position(ref.pawns, ref.walls, ref.walls_left, ref.to_move)
            for step in result["pv"]:
                if line.winner is not None:
                    break
                line.play(step)         # the PV is playable


@pytest.mark.parametrize("engine", TREES)
def test_one_seed_one_answer_and_another_seed_may_differ(engine):
    def run(seed):
        eng = QuoridorEngine(9, seed=seed)
        for move in ["e2", "e8", "e3", "e7"]:
            eng.play(move)
        return eng.search(playouts=3000, engine=engine)
    first = run(1)
    assert first == {**run(1), "seconds": first["seconds"],
                     "nodes_per_second": first["nodes_per_second"]}
    assert first["playouts"] == 3000 and first["nodes"] > 1
    assert sum(first["candidate_visits"]) <= 3000


def test_the_tree_stays_inside_its_memory_bound():
    small = QuoridorEngine(9, mcts_megabytes=0)
    result = small.search(playouts=20000, engine="mcts")
    assert result["tree_full"] and result["nodes"] <= 1024 and result["memory"] < 64 * 1024
    assert result["move"] is not None and result["playouts"] == 20000
    big = QuoridorEngine(9, mcts_megabytes=8)
    result = big.search(playouts=2000, engine="mcts")
    assert not result["tree_full"] and 8 << 20 <= result["memory"] < (8 << 20) + 4096


def test_reuse_starts_from_the_last_tree_two_plies_on():
    """With reuse, the search after our move and the reply keeps that reply's subtree: its root
    visits exceed the playouts of the run. clear and set_position drop the tree; a position the
    tree does not hold, or the reference method, start afresh."""
    eng = QuoridorEngine(9, seed=3)
    eng.play("e2")
    eng.play("e8")
    first = eng.search(playouts=4000, reuse=True)
    eng.play(first["move"])
    reply = first["pv"][1]                      # the reply the tree looked at most
    eng.play(reply)
    kept = eng.search(playouts=4000, reuse=True)
    assert sum(kept["candidate_visits"]) > 4000 and kept["playouts"] == 4000
    again = eng.search(playouts=4000, reuse=True)        # the same root: it goes on growing
    assert sum(again["candidate_visits"]) > sum(kept["candidate_visits"]) + 3000
    fresh = eng.search(playouts=4000)                    # no reuse: a new tree
    assert sum(fresh["candidate_visits"]) <= 4000
    eng.search(playouts=4000, reuse=True)
    eng.clear()
    eng.play("e2")
    eng.play("e8")
    assert sum(eng.search(playouts=4000, reuse=True)["candidate_visits"]) <= 4000
    eng.search(playouts=2000, engine="reference-ai", reuse=True)
    assert sum(eng.search(playouts=2000, engine="reference-ai", reuse=True)["candidate_visits"]) <= 2000


def test_reuse_repeats_itself_for_the_same_game():
    def game():
        eng, moves = QuoridorEngine(7, seed=5), []
        for _ in range(12):
            r = eng.genmove(playouts=1500, reuse=True)
            if r["move"] is None:
                break
            moves.append((r["move"], r["playouts"], sum(r["candidate_visits"])))
        return moves
    first = game()
    assert first == game() and any(visits > playouts for _, playouts, visits in first)
    checker = rules.Game(7)
    for move, _, _ in first:
        checker.play(rules.parse_move(move))          # every move legal by the reference rules


def test_the_reference_method_walks_its_first_move_and_then_searches():
    eng = QuoridorEngine(9)
    first = eng.search(playouts=60000, engine="reference-ai")
    assert first["move"] == "e2" and first["playouts"] == 0      # the method's opening rule
    eng.play("e2")
    eng.play("e8")
    eng.play("e3")
    eng.play("d7h")
    second = eng.search(playouts=5000, engine="reference-ai")
    assert second["playouts"] == 5000 and len(second["candidates"]) == 8
    assert sum(second["candidate_visits"]) <= 5000 and second["move"] == second["pv"][0]


def test_an_unknown_engine_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match="alphabeta, mcts, reference-ai"):
        QuoridorEngine(5).search(engine="random")
    assert ENGINES == ("alphabeta", "mcts", "reference-ai")


def test_a_move_back_to_an_earlier_position_is_a_draw_for_our_tree():
    eng = QuoridorEngine(5, walls=0)
    for move in ["c2", "c4", "c3", "c5"]:       # c2 now would repeat the position after c2
        eng.play(move)
    result = eng.search(playouts=3000, engine="mcts")
    rates = dict(zip((c[0] for c in result["candidates"]), result["candidate_visits"]))
    back = [i for i, c in enumerate(result["candidates"]) if c[0] == "c2"]
    assert back and rates["c2"] > 0 and result["move"] == "c4"
    assert result["candidates"][back[0]][1] == 0       # win rate 0.5 exactly: score 0


def _tree_ok(eng) -> int:
    """The core's check of the last tree's bookkeeping: its node count, or -1."""
    from engines.quoridor._core import lib
    return lib.qr_mcts_check_tree(eng._mcts)


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_share_one_tree_and_keep_its_bookkeeping(threads):
    """Several threads search one tree: the playout budget is met exactly, every thread ran,
    the tree's counts hold (each node reached once, a node's visits at least its children's),
    and with reuse the kept tree grows on as it does on one thread."""
    eng = QuoridorEngine(9, seed=2, threads=threads)
    eng.play("e2")
    eng.play("e8")
    first = eng.search(playouts=20000, reuse=True)
    assert first["threads"] == threads and first["playouts"] == 20000
    assert _tree_ok(eng) == first["nodes"] > 20000
    assert 19000 < sum(first["candidate_visits"]) <= 20000 and 0.0 <= first["winrate"] <= 1.0
    again = eng.search(playouts=20000, reuse=True)
    assert sum(again["candidate_visits"]) > 39000 and _tree_ok(eng) == again["nodes"]
    one = QuoridorEngine(9, seed=2)
    one.play("e2")
    one.play("e8")
    assert one.search(playouts=2000)["threads"] == 1


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_every_playout_but_the_first_goes_below_a_new_root(threads):
    """The root is expanded before the other threads start. A thread that found it still being
    expanded spent its playouts on the bare root; on a loaded machine, with the expanding
    thread descheduled, a whole budget could go there and the move fall back to the first legal
    one (a win in one lost to a pawn step back)."""
    for seed in range(30):
        eng = QuoridorEngine(9, seed=seed, threads=threads)
        eng.play("e2")
        eng.play("e8")
        result = eng.search(playouts=200)
        assert result["playouts"] == 200 and result["child_visits"] == 199, seed
    again = eng.search(playouts=200, reuse=True)   # a kept tree: its visits count too
    assert again["child_visits"] >= 399


@pytest.mark.parametrize("threads", [1, 2])
def test_threads_find_the_win_and_the_only_defence(threads):
    eng = _position(9, [(4, 6), (0, 4)], set(), [5, 5], 0, then=["e8", "a4"], threads=threads)
    assert eng.search(playouts=4000)["move"] == "e9"
    eng = _position(9, [(3, 3), (4, 2)], set(), [5, 5], 0, then=["e4", "e2"], threads=threads)
    ref = rules.Game(9)
    ref.set_position([(4, 3), (4, 1)], set(), [5, 5], 0)
    move = eng.search(playouts=20000)["move"]
    ref.play(move)
    assert len(rules.parse_move(move)) == 3 and ref.path_length(1) > 1, move


def test_threads_in_a_full_tree_stop_expanding_and_keep_it_whole():
    small = QuoridorEngine(9, mcts_megabytes=0, threads=2)
    small.play("e2")
    small.play("e8")
    result = small.search(playouts=30000)
    assert result["tree_full"] and result["nodes"] <= 1024 and result["playouts"] == 30000
    assert _tree_ok(small) == result["nodes"] and result["move"] is not None


def test_threads_stop_at_the_deadline():
    eng = QuoridorEngine(9, threads=2)
    result = eng.search(seconds=0.2)
    assert result["threads"] == 2 and result["playouts"] > 0 and result["seconds"] < 2.0
    assert _tree_ok(eng) == result["nodes"]


# A game our engine (black) lost to the reference method (match seed 67), up to the bot's
# winning wall c6h: after it black has no wall left that lengthens white's path (each would
# close it), so black's 8 walls in hand are worth nothing. c6h lengthens no path, so the tree's
# wall generator never yields it; the blocks do.
LOST_TO_A_BLOCK = ("e5h e8 e2 e7 e3 e6 d6v f6 f6v f7 f8v e7 d7h f7 e7v f8 d3 f9 d4 e9 d5 d9 c5 "
                   "c9 c6 c8 c7 c8h a8v c6 c8 b7v").split()


def _gain(game, player, wall, walls):
    """PLAYER's wall WALL on top of WALLS: the other's path lengthened less its own; None when
    it is illegal there."""
    trial = rules.Game(game.size, 0, game.edge_diagonal)
    trial.set_position(game.pawns, walls, [1, 1], player)
    if trial.why_wall_illegal(wall) is not None:
        return None
    before = [game.path_length(p, walls) for p in (0, 1)]
    after = [game.path_length(p, walls | {wall}) for p in (0, 1)]
    return (after[1 - player] - before[1 - player]) - (after[player] - before[player])


def _threats(game, player, walls):
    """PLAYER's walls that lengthen the other's path, with their gains, on top of WALLS."""
    trial = rules.Game(game.size, 0, game.edge_diagonal)
    trial.set_position(game.pawns, walls, [1, 1], player)
    other = 1 - player
    out = {}
    for wall in trial.legal_walls():
        if game.path_length(other, walls | {wall}) > game.path_length(other, walls):
            out[wall] = _gain(game, player, wall, walls)
    return out


def test_the_blocks_of_a_lost_game_hold_the_winning_wall_and_the_tree_finds_it():
    eng = QuoridorEngine(9, seed=1)
    for move in LOST_TO_A_BLOCK:
        eng.play(move)
    assert [rules.move_name(b) for b in eng.blocks()] == ["c6h"]
    ref = rules.Game(9)
    for move in LOST_TO_A_BLOCK:
        ref.play(move)
    assert max(_threats(ref, 1, ref.walls).values()) == 3                  # black's best now
    assert not _threats(ref, 1, ref.walls | {rules.parse_move("c6h")})     # none after it
    result = eng.search(playouts=20000)
    assert result["move"] == "c6h" and result["winrate"] > 0.7
    # a ply earlier black's tree has c6h among white's replies: b7v no longer looks like a win
    # (without the blocks the tree rated it 0.99)
    black = QuoridorEngine(9, seed=1)
    for move in LOST_TO_A_BLOCK[:-1]:
        black.play(move)
    result = black.search(playouts=20000)
    assert result["winrate"] < 0.5
    assert all(score < 0 for move, score in result["candidates"] if move == "b7v")


# Another game our engine (white) lost to the reference method (match seed 6), up to the bot's
# winning wall h5h. White's best walls a3v, a2h and a1h would each add 6 steps to black's path
# by sending it round through the h and i columns; h5h, five columns away, closes that route,
# so each of them would close black's last path (illegal), and white's 7 walls in hand are
# worth nothing, it seemed. Blocks found only near the threats missed it: white's tree rated g5v
# 0.99; and after h5h it did not see its quiet e3h, which wins all the same.
LOST_TO_A_FAR_BLOCK = ("d1 f9 d2 c2h e2 e2h f2 f1v g2h b2v f1 f8 e1 f7 d1 f6 c1 g6 b1 g5 b2 b3h "
                       "a2 f5h a3 a4h a4 c4h b4 g4 g3v e4h g5v").split()


def test_a_block_far_from_the_threats_makes_them_illegal_and_the_tree_finds_it():
    ref = rules.Game(9)
    for move in LOST_TO_A_FAR_BLOCK:
        ref.play(move)
    threats = _threats(ref, 0, ref.walls)
    best = {rules.move_name(w) for w, g in threats.items() if g == max(threats.values())}
    assert best == {"a3v", "a2h", "a1h"} and max(threats.values()) == 6
    eng = QuoridorEngine(9, seed=1)
    for move in LOST_TO_A_FAR_BLOCK:
        eng.play(move)
    blocks = [rules.move_name(b) for b in eng.blocks()]
    assert set(blocks) == {"h3h", "h4h", "h5h", "h6h"}
    for block in blocks:        # far away, each makes every best threat illegal
        walls = ref.walls | {rules.parse_move(block)}
        assert all(_gain(ref, 0, rules.parse_move(t), walls) is None for t in best), block
    assert eng.search(playouts=20000)["move"] in blocks
    # a ply earlier white's tree has them among black's replies: g5v is no longer its move
    white = QuoridorEngine(9, seed=1)
    for move in LOST_TO_A_FAR_BLOCK[:-1]:
        white.play(move)
    result = white.search(playouts=20000)
    assert result["move"] != "g5v"
    assert result["candidates"][0][1] > dict(result["candidates"])["g5v"]
    # and the game was not lost after h5h: white's quiet e3h (it lengthens no path now) sets up
    # the walls that still trap black, which the tree finds among its quiet walls
    ref.play("h5h")
    eng.play("h5h")
    e3h = rules.parse_move("e3h")
    assert [ref.path_length(p, ref.walls | {e3h}) for p in (0, 1)] == [ref.path_length(0), ref.path_length(1)]
    result = eng.search(playouts=20000)
    assert result["move"] == "e3h" and result["winrate"] > 0.85


# A third lost game (match seed 77, our engine black), up to the bot's e6v: it lengthens no
# path and takes no single wall's gain away (black's best walls gain 2 before and after), so it
# is neither an impact wall nor a block; it spoils a plan of two black walls. Black's tree rated
# g6v 0.90, and after e6v 0.02. Only the quiet walls of the first plies let the tree see it.
LOST_TO_A_QUIET_WALL = ("e2 h5v e3 e8 e4 e7 e5 e7h e4h c7h c4h g7h g4h a7h a4h f7 f5 g7 h8v h7 "
                        "f3h i7 h3h i6 d3h i5 f6 g6v").split()


def test_the_tree_finds_a_quiet_wall_that_is_neither_an_impact_wall_nor_a_block():
    ref = rules.Game(9)
    for move in LOST_TO_A_QUIET_WALL:
        ref.play(move)
    e6v = rules.parse_move("e6v")
    assert ref.why_wall_illegal(e6v) is None
    assert [ref.path_length(p, ref.walls | {e6v}) for p in (0, 1)] == [ref.path_length(0), ref.path_length(1)]
    black_best = max(_threats(ref, 1, ref.walls).values())
    assert max(_threats(ref, 1, ref.walls | {e6v}).values()) == black_best == 2
    eng = QuoridorEngine(9, seed=1)
    for move in LOST_TO_A_QUIET_WALL:
        eng.play(move)
    assert "e6v" not in [rules.move_name(b) for b in eng.blocks()]
    assert eng.search(playouts=20000)["move"] == "e6v"
    black = QuoridorEngine(9, seed=1)
    for move in LOST_TO_A_QUIET_WALL[:-1]:
        black.play(move)
    assert black.search(playouts=20000)["winrate"] < 0.75


@pytest.mark.parametrize("size", [5, 7, 9])
def test_the_searches_wall_generator_finds_every_lengthening_wall_with_its_paths(size):
    """Found the slow way with rules.py: every legal wall of the side to move that lengthens
    the opponent's path, and both path lengths after it. The generator searches a path only
    when the wall closes a step of one of its shortest paths; this is where that would show."""
    seen = 0
    for ref, eng in random_positions(100 + size, size, 40, 4 * size, 0.5):
        me = ref.to_move
        found = eng.impact_walls()
        want = _threats(ref, me, ref.walls) if ref.walls_left[me] else {}
        assert {w for w, _ in found} == set(want)
        for wall, lengths in found:
            assert lengths == [ref.path_length(p, ref.walls | {wall}) for p in (0, 1)], wall
        gains = [want[w] for w, _ in found]
        assert gains == sorted(gains, reverse=True)
        seen += len(found)
    assert seen >= 100, seen


@pytest.mark.parametrize("size", [5, 7, 9])
def test_every_block_takes_gain_from_a_best_threat_without_costing_a_step(size):
    """Found the slow way with rules.py: a block is a legal wall of the side to move, anywhere,
    that keeps its own path as it is, and after it one of the opponent's best walls against it
    is illegal or gains less. Without a threat that gains a step, or without walls, there are
    none."""
    seen = 0
    for ref, eng in random_positions(size, size, 40, 4 * size):
        me, opp = ref.to_move, 1 - ref.to_move
        blocks = eng.blocks()
        threats = _threats(ref, opp, ref.walls) if ref.walls_left[opp] else {}
        best = max(threats.values(), default=0)
        if best < 1 or not ref.walls_left[me]:
            assert blocks == []
            continue
        assert len(set(blocks)) == len(blocks)
        for block in blocks:
            assert ref.why_wall_illegal(block) is None
            walls = ref.walls | {block}
            assert ref.path_length(me, walls) == ref.path_length(me)
            after = [_gain(ref, opp, t, walls) for t, g in threats.items() if g == best]
            assert any(g is None or g < best for g in after), block
            seen += 1
    assert seen >= 10, seen

"""The Python binding: the GoEngine contract, named errors, GIL release, threads, seeds."""
import threading
import time

import pytest

from engines.go import GoEngine, IllegalMove


@pytest.fixture
def engine():
    with GoEngine(size=9, komi=7.0, seed=3) as e:
        yield e


def test_new_engine_state(engine):
    assert (engine.size, engine.komi, engine.to_move) == (9, 7.0, "b")
    assert engine.board() == [["."] * 9 for _ in range(9)]
    assert engine.captures == {"b": 0, "w": 0}
    assert engine.ko is None and engine.moves() == []
    assert len(engine.legal_moves()) == 81


def test_play_capture_and_history(engine):
    for color, point in [("b", (1, 0)), ("w", (0, 0)), ("b", (0, 1))]:
        captured = engine.play(color, point)
    assert captured == [(0, 0)]
    assert engine.captures == {"b": 1, "w": 0}
    assert engine.board()[0][:2] == [".", "b"] and engine.board()[1][0] == "b"
    assert engine.moves() == [("b", (1, 0)), ("w", (0, 0)), ("b", (0, 1))]
    assert engine.play("w", None) == [] and engine.to_move == "b"
    assert engine.undo() and engine.undo()
    assert engine.board()[0][0] == "w" and engine.captures["b"] == 0
    assert engine.to_move == "b"


@pytest.mark.parametrize("setup,move,reason", [
    ([("b", (4, 4))], ("w", (4, 4)), "occupied"),
    ([("b", (1, 0)), ("b", (0, 1))], ("w", (0, 0)), "suicide"),
    ([], ("b", (9, 0)), "off board"),
    ([], ("b", (-1, 2)), "off board"),
    ([], ("b", "D4"), "off board"),
    ([], ("x", (1, 1)), "wrong color"),
    # white takes a ko, black may not retake at once
    ([("b", (1, 0)), ("w", (2, 0)), ("b", (0, 1)), ("w", (3, 1)), ("b", (1, 2)),
      ("w", (2, 2)), ("b", (2, 1)), ("w", (1, 1))], ("b", (2, 1)), "ko"),
])
def test_illegal_moves_say_why(engine, setup, move, reason):
    for color, point in setup:
        engine.play(color, point)
    before = engine.moves()
    with pytest.raises(IllegalMove, match=f"^{reason}"):
        engine.play(*move)
    assert engine.moves() == before
    assert not engine.is_legal(*move)


def test_ko_point_and_clear_to_new_size(engine):
    for color, point in [("b", (1, 0)), ("w", (2, 0)), ("b", (0, 1)), ("w", (3, 1)),
                         ("b", (1, 2)), ("w", (2, 2)), ("b", (2, 1)), ("w", (1, 1))]:
        engine.play(color, point)
    assert engine.ko == (2, 1)
    engine.clear(size=13)
    assert engine.size == 13 and engine.moves() == [] and engine.ko is None
    with pytest.raises(IllegalMove, match="wrong size"):
        engine.clear(size=25)
    with pytest.raises(IllegalMove, match="wrong size"):
        GoEngine(size=1)
    engine.set_komi(6.5)
    assert engine.komi == 6.5 and engine.tromp_taylor_score() == -6.5


def test_genmove_plays_a_legal_move_and_analyze_does_not(engine):
    engine.play("b", (4, 4))
    move = engine.genmove("w", playouts=800)
    assert isinstance(move, tuple) and move != (4, 4)
    assert engine.moves()[-1] == ("w", move)
    before = engine.moves()
    info = engine.analyze("b", playouts=600)
    assert engine.moves() == before
    assert 0.0 <= info["winrate"] <= 1.0 and info["playouts"] >= 600
    visits = [c["visits"] for c in info["candidates"]]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= info["root_visits"]
    assert info["pv"][0] == info["candidates"][0]["move"]
    assert all(0.0 <= c["prior"] <= 1.0 for c in info["candidates"])
    own = info["ownership"]
    assert len(own) == 9 and all(len(row) == 9 for row in own)
    assert all(-1.0 <= v <= 1.0 for row in own for v in row)
    assert own[4][4] > 0.3 and own[move[1]][move[0]] < own[4][4]  # stones lean to their owner


def test_same_seed_same_games():
    def game(seed):
        with GoEngine(size=9, seed=seed) as e:
            return [e.genmove(c, playouts=300) for c in "bwbwbw"]
    assert game(11) == game(11)


def test_search_releases_the_gil(engine):
    """While C searches, Python keeps running. Held, the GIL would stop this loop for the whole
    search (a gap as long as the search); released, the gaps are scheduler slices, two orders
    of magnitude shorter whatever the machine's load, so the bound is half the search itself."""
    info = {}
    worker = threading.Thread(target=lambda: info.update(engine.analyze("b", seconds=1.0)))
    worker.start()
    last, longest, ticks = time.monotonic(), 0.0, 0
    while worker.is_alive():
        now = time.monotonic()
        longest, last, ticks = max(longest, now - last), now, ticks + 1
    worker.join()
    assert info["seconds"] >= 0.9 and ticks > 1000
    assert longest < info["seconds"] / 2, (ticks, longest, info["seconds"])


def test_engines_in_parallel_threads_and_one_engine_shared():
    engines = [GoEngine(size=9, seed=i) for i in range(2)]
    results = {}

    def run(i, e):
        results[i] = [e.genmove(c, playouts=300) for c in "bw"]

    threads = [threading.Thread(target=run, args=(i, e)) for i, e in enumerate(engines)]
    threads += [threading.Thread(target=lambda: engines[0].analyze("b", playouts=200))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2 and all(len(r) == 2 for r in results.values())
    assert len(engines[0].moves()) == 2   # the shared engine serialised its calls
    for e in engines:
        e.close()


def test_closed_engine_refuses_calls():
    e = GoEngine(size=9)
    e.close()
    e.close()
    with pytest.raises(RuntimeError, match="closed"):
        e.play("b", (1, 1))


def test_budget_defaults_and_threads(engine):
    engine.set_budget(playouts=500, threads=2)
    info = engine.analyze("b")
    assert 500 <= info["playouts"] <= 520
    engine.set_budget(seconds=0.3)
    info = engine.analyze("b")
    # The engine's own clock, read between playouts: a loaded machine may overshoot a little.
    assert info["seconds"] <= 0.3 + 0.1 and info["playouts"] > 0


def test_the_verdict_depends_on_the_position_alone():
    """Judging draws its playouts from a stream of its own, restarted for each verdict: an
    engine that searched, or judged before, or was seeded otherwise, judges a position exactly
    as a fresh one does (a few judging playouts on an unsettled position, where the verdict
    depends on the draws)."""
    import random
    rng = random.Random(3)
    moves = []
    with GoEngine(size=9) as e:
        for _ in range(30):
            m = rng.choice(e.legal_moves())
            e.play(e.to_move, m)
            moves.append(m)

    def verdicts(searched, seed):
        with GoEngine(size=9, seed=seed) as e:
            for m in moves + [None]:
                e.play(e.to_move, m)
            if searched:
                e.analyze(e.to_move, playouts=300)
            return [(e.final_score(playouts), tuple(e.dead_stones(playouts))) for playouts in (3, 3, 4, 3)]

    fresh = verdicts(False, 0)
    assert fresh == verdicts(True, 0) == verdicts(True, 7)
    assert fresh[0] == fresh[1] == fresh[3] and fresh[2] != fresh[0]   # the draws matter here

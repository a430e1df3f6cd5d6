"""The learned network: its input planes, the C network (value, ownership, policy) against the
numpy reference, the header round trip, the search's use of it, and the self-play records and
positions it learns from."""
import dataclasses
import json
import platform
import random
import re
import subprocess
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner

import engines.go
from engines.go import GoEngine, learn_value
from engines.go._core import ffi, lib
from tests.engines import fuzzing

HEADER = Path(engines.go.__file__).parent / "core" / "value_weights.h"
PLANES = ["own", "opp", "own_atari", "own_two", "opp_atari", "opp_two", "last", "ko", "board",
          "black_to_move", "own_three", "opp_three", "own_laddered", "opp_laddered"]


def planes(engine):
    n = engine.size
    buf = ffi.new("float[]", lib.GO_VALUE_PLANES * n * n)
    assert lib.go_game_value_planes(engine.game, buf) == n * n
    arr = np.frombuffer(ffi.buffer(buf), dtype=np.float32).reshape(lib.GO_VALUE_PLANES, n, n)
    return {name: arr[i] for i, name in enumerate(PLANES)}


def value(engine):
    n = engine.size
    own = ffi.new("float[]", n * n)
    v = lib.go_game_value(engine.game, own)
    return v, np.frombuffer(ffi.buffer(own), dtype=np.float32).reshape(n, n).copy()


def policy(engine):
    """The network's policy for the side to move: chances, size * size + 1 (a pass last)."""
    n = engine.size
    out = ffi.new("float[]", n * n + 1)
    lib.go_game_value_policy(engine.game, ffi.NULL, out)
    weights = np.frombuffer(ffi.buffer(out), dtype=np.float32).copy()
    return weights / weights.sum()


def random_position(rng, size, moves):
    e = GoEngine(size=size, seed=rng.randrange(1 << 30))
    for _ in range(moves):
        legal = e.legal_moves()
        if not legal:
            break
        e.play(e.to_move, rng.choice(legal))
    return e


def test_planes_are_seen_from_the_side_to_move():
    """Stones are 'own' for the side to move, liberties and the last move are marked, and the
    colour to move has a plane of its own (komi makes the colours unequal)."""
    with GoEngine(size=5) as e:
        e.play("b", (0, 0))
        e.play("w", (1, 0))       # black (0, 0) now has one liberty
        p = planes(e)             # black to move
        assert p["own"][0, 0] == 1 and p["opp"][0, 1] == 1 and p["own"].sum() == p["opp"].sum() == 1
        assert p["own_atari"][0, 0] == 1 and p["own_two"].sum() == 0
        assert p["opp_two"][0, 1] == 1           # white (1, 0): (2, 0) and (1, 1)
        assert p["last"][0, 1] == 1 and p["last"].sum() == 1
        assert p["board"].sum() == 25 and p["black_to_move"].sum() == 25
        e.play("b", (4, 4))
        p = planes(e)             # white to move: the same stones change sides
        assert p["own"][0, 1] == 1 and p["opp"][0, 0] == 1 and p["opp_atari"][0, 0] == 1
        assert p["black_to_move"].sum() == 0


def test_three_liberties_and_ladders_are_marked():
    from tests.engines.go.test_search_tactics import LADDER, setup

    with GoEngine(size=9) as e:
        setup(e, LADDER)          # white to move; its stone at (3, 3) in atari, running dies
        p = planes(e)
        assert p["own_atari"][3, 3] == 1 and p["own_laddered"][3, 3] == 1
        assert p["opp_three"][3, 2] == p["opp_three"][2, 3] == 1 and p["opp_three"].sum() == 2
        assert p["opp_laddered"].sum() == p["own_three"].sum() == 0
    with GoEngine(size=9) as e:
        setup(e, LADDER[:2] + [". . . . . . . . ."] + LADDER[3:])
        p = planes(e)             # white's stone has two liberties; black's atari at (3, 2) works
        assert p["own_two"][3, 3] == 1 and p["own_laddered"][3, 3] == 1
        e.play("w", (6, 1))       # a white stone on the running line breaks the ladder
        e.play("b", (8, 7))
        p = planes(e)
        assert p["own_two"][3, 3] == 1 and p["own_laddered"].sum() == 0


def test_the_ko_point_is_marked():
    with GoEngine(size=5) as e:
        for color, pt in [("b", (1, 0)), ("w", (2, 0)), ("b", (0, 1)), ("w", (3, 1)),
                          ("b", (1, 2)), ("w", (2, 2)), ("b", (2, 1)), ("w", (1, 1))]:
            e.play(color, pt)     # white (1, 1) takes black (2, 1): a ko
        assert e.ko == (2, 1)
        p = planes(e)
        assert p["ko"][1, 2] == 1 and p["ko"].sum() == 1


@pytest.mark.parametrize("size", [9, 13, 5])
def test_the_c_network_computes_what_the_numpy_reference_does(size):
    """The shipped weights, read back from the header the core was built with, give the same
    value, ownership and policy in numpy (learn_value.forward and policy_logits, what training
    optimises) as in C; the policy gives the occupied points nothing."""
    trained, w = learn_value.read_header(HEADER)
    assert trained == lib.go_value_trained_size() == 9
    assert "pol_w" in w
    rng = random.Random(size)
    for moves in (0, 7, 30, 60):
        with random_position(rng, size, moves) as e:
            v, own = value(e)
            p = planes(e)
            ref_v, ref_own = learn_value.forward(w, np.stack([p[k] for k in PLANES])[None])
            assert v == pytest.approx(float(ref_v[0]), abs=2e-5)
            assert np.abs(own - ref_own[0]).max() < 2e-5
            assert 0 < v < 1 and np.all(np.abs(own) <= 1)
            logits = learn_value.policy_logits(w, np.stack([p[k] for k in PLANES])[None])[0]
            ref_p = np.exp(logits - logits.max())
            got = policy(e)
            assert np.abs(got - ref_p / ref_p.sum()).max() < 1e-5
            occupied = (p["own"] + p["opp"]).ravel() > 0
            assert np.all(got[:-1][occupied] == 0) and np.all(got[:-1][~occupied] > 0)


KERNELS = {name[len("GO_VALUE_KERNEL_"):].lower(): getattr(lib, name) for name in dir(lib)
           if name.startswith("GO_VALUE_KERNEL_")}


def test_every_kernel_this_cpu_runs_computes_the_same_numbers():
    """The convolutions' kernels (plain C, SSE2, AVX2, AVX-512 VNNI, AVX-VNNI; WebAssembly's in
    test_go_parity) add the same integers, so the value, the ownership and the policy come out
    bit for bit alike whichever the CPU runs, on every board size."""
    default = lib.go_value_kernel()
    runs = [k for k in KERNELS.values() if lib.go_value_use_kernel(k)]
    assert lib.go_value_use_kernel(default) and default in runs
    if platform.machine() == "x86_64":     # SSE2 runs on every x86-64: compared with the default
        assert lib.GO_VALUE_KERNEL_SSE2 in runs
    rng = random.Random(21)
    positions = [random_position(rng, size, moves) for size in (9, 5, 13, 19) for moves in (0, 9, 40)]
    try:
        seen = {}
        for kernel in runs:
            assert lib.go_value_use_kernel(kernel) and lib.go_value_kernel() == kernel
            seen[kernel] = [(value(e)[0], value(e)[1].tobytes(), policy(e).tobytes()) for e in positions]
        assert all(seen[k] == seen[default] for k in runs), {k: seen[k] == seen[default] for k in runs}
    finally:
        lib.go_value_use_kernel(default)
        for e in positions:
            e.close()
    assert not lib.go_value_use_kernel(99) and lib.go_value_kernel() == default


@pytest.mark.asan
def test_the_plain_c_kernel_computes_what_the_vector_kernels_do(tmp_path):
    """The core built with -DVALUE_Q16_PLAIN (the kernel of a CPU no vector build is written
    for), under AddressSanitizer and UBSan (no read past the buffers, no signed overflow in
    its int32 sums), values positions exactly as this build's kernel does."""
    probe = fuzzing.build(fuzzing.core_dir("go"), Path(__file__).with_name("value_probe.c"),
                          tmp_path / "probe", defines=("-DVALUE_Q16_PLAIN",))
    rng = random.Random(5)
    script, expected = [], []
    for size in (9, 5, 13, 19):
        for moves in (0, 12, 45):
            script.append(f"n {size}")
            with GoEngine(size=size, seed=rng.randrange(1 << 30)) as e:
                for _ in range(moves):
                    move = rng.choice(e.legal_moves() + [None])
                    script.append("p %d %d" % (move if move else (-1, -1)))
                    e.play(e.to_move, move)
                own, pol = ffi.new("float[]", size * size), ffi.new("float[]", size * size + 1)
                v = lib.go_game_value_policy(e.game, own, pol)
                expected.append(" ".join("%.9g" % f for f in [v, *own, *pol]))
            script.append("?")
    out = subprocess.run([str(probe)], input="\n".join(script), capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines() == expected


@pytest.mark.parametrize("seed", [1, 2])
def test_sixteen_bit_integers_call_positions_as_the_float_network_does(seed):
    """The core's network (16-bit integers) stays within a small margin of the same weights in
    floats, as trained: the value within 0.01, the ownership within 0.03, and the policy's
    chances within 0.01 with the same favourite."""
    _, w = learn_value.read_header(HEADER)
    rng = random.Random(seed)
    batch = []
    for moves in (0, 5, 15, 25, 35, 45, 55, 70):
        with random_position(rng, 9, moves) as e:
            p = planes(e)
            batch.append(np.stack([p[k] for k in PLANES]))
    x = np.stack(batch)
    v, own = learn_value.forward(w, x)
    fv, fown = learn_value.forward(w, x, quantized=False)
    assert np.abs(v - fv).max() < 0.01 and np.abs(own - fown).max() < 0.03
    chances = [np.exp(lg - lg.max()) / np.exp(lg - lg.max()).sum()
               for lg in (learn_value.policy_logits(w, x), learn_value.policy_logits(w, x, quantized=False))]
    assert np.abs(chances[0] - chances[1]).max() < 0.01
    assert np.array_equal(chances[0].argmax(axis=1), chances[1].argmax(axis=1))


@pytest.mark.parametrize("kind", ["shipped", "normal", "one_large", "all_equal", "zero"])
def test_quantized_weights_cannot_overflow_a_sum(kind):
    """Whatever the weights, each output plane's quantized weights are whole numbers within
    +-32767 whose absolute sum times the largest input (32767) stays below 2^31: the int32 sums
    of every kernel are exact."""
    rng = np.random.default_rng(7)
    k = {"shipped": learn_value.read_header(HEADER)[1]["conv_w"][0],
         "normal": rng.standard_normal((32, 32, 3, 3)).astype(np.float32),
         "one_large": np.pad(np.full((1, 1, 1, 1), 1e6, np.float32), ((0, 7), (0, 15), (0, 2), (0, 2))) + 1e-3,
         "all_equal": np.full((8, 64, 3, 3), -0.7, np.float32),
         "zero": np.zeros((4, 16, 3, 3), np.float32)}[kind]
    ws, q = learn_value.quantized_weights(k)
    assert np.array_equal(q, np.round(q)) and np.abs(q).max() <= 32767
    assert (np.abs(q).reshape(len(q), -1).sum(axis=1) * 32767).max() < 2 ** 31
    nonzero = np.abs(k).reshape(len(k), -1).max(axis=1) > 0
    # as fine as the bound allows: the largest weight or the sum at its limit, within rounding
    limit = np.maximum(np.abs(q).reshape(len(q), -1).max(axis=1) / 32767,
                       np.abs(q).reshape(len(q), -1).sum(axis=1) / (65536 - k[0].size))
    assert np.all(limit[nonzero] > 0.99)


def test_a_written_header_reads_back(tmp_path):
    w = learn_value.init_weights(learn_value.Shape(channels=8, layers=3, hidden=4), planes=10, seed=5)
    w["fc2_b"] = np.float32(0.25)
    learn_value.write_header(w, 7, tmp_path / "value_weights.h", "a test")
    size, back = learn_value.read_header(tmp_path / "value_weights.h")
    assert size == 7 and back.keys() == w.keys()
    for k in w:
        assert back[k].shape == np.shape(w[k])
        assert np.allclose(back[k], w[k], rtol=1e-6, atol=1e-7), k


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_shipped_network_tells_won_from_lost_positions(seed):
    """Trained weights, not random ones (which say 0.5 +- 0.01): after 24 moves of the search
    against random moves, the side of the search is called the winner whichever side is to
    move, and the board is seen as mostly its own."""
    rng = random.Random(seed)
    with GoEngine(size=9, seed=seed) as e:
        for _ in range(24):
            e.genmove("b", playouts=300)
            e.play("w", rng.choice(e.legal_moves("w")))
        black, own = value(e)
        e.play("b", None)
        white, _ = value(e)
    assert black > 0.9 and white < 0.1
    assert own.mean() > 0.2


def test_the_search_values_every_node_it_expands_on_the_trained_size_only():
    """Asked to (value=True), the search evaluates the network once for each node it expands
    below the root (on 9x9, at its second visit): a search values fewer positions than it plays
    out, and more in a longer search. None on a size the network never saw, and none by
    default."""
    with GoEngine(size=9, seed=2, value=True) as e:
        small = e.analyze("b", playouts=600)["valued"]
        e.value = False
        assert e.analyze("b", playouts=600)["valued"] == 0
    with GoEngine(size=9, seed=2, value=True) as e:
        large = e.analyze("b", playouts=20000)["valued"]
    assert 600 // 5 < small < 600 * 2 // 3
    assert 10 * small < large < 20000 * 2 // 3
    with GoEngine(size=13, seed=2, value=True) as e:
        assert e.analyze("b", playouts=600)["valued"] == 0
    with GoEngine(size=9, seed=2) as e:
        assert e.analyze("b", playouts=600)["valued"] == 0


def test_the_policy_orders_the_searchs_moves():
    """With the value asked for, a node's children start from the network's policy: after one
    playout the root's moves are all unvisited but one, and the move with the highest prior is
    the policy's favourite among the legal moves. Without it the shapes choose, and in some of
    these positions they choose another move."""
    rng, differs = random.Random(4), 0

    def top_prior(moves, value):
        with GoEngine(size=9, value=value) as e:
            for m in moves:
                e.play(e.to_move, m)
            cands = e.analyze(e.to_move, playouts=1)["candidates"]
        best = max(c["prior"] for c in cands if c["move"])
        return {c["move"] for c in cands if c["move"] and c["prior"] == best}

    for _ in range(6):
        with random_position(rng, 9, 16) as e:
            chances, moves = policy(e), [m for _, m in e.moves()]
            favourite = max(e.legal_moves(), key=lambda m: chances[m[1] * 9 + m[0]])
        assert favourite in top_prior(moves, True)
        differs += favourite not in top_prior(moves, False)
    assert differs >= 2


def test_the_policy_learns_each_move_where_the_symmetry_takes_it():
    """Training sees each position through one of 8 symmetries: each point's share of the
    visits must turn with the planes (a stone on that point), a pass staying a pass."""
    n = 5
    policy = np.zeros((3, n * n + 1), np.float32)
    policy[0, 3] = 1                               # (3, 0)
    policy[1, [0, 2 * n + 4]] = 0.25, 0.75          # (0, 0) and (4, 2)
    policy[2, [n * n, 7]] = 0.5, 0.5                # a pass and (2, 1)
    for k in range(8):
        seen = learn_value.policy_seen(policy, n, k)
        assert np.allclose(seen.sum(axis=1), 1) and seen[2, n * n] == 0.5
        for row, m in ((0, 3), (1, 2 * n + 4), (2, 7)):
            stone = np.zeros((n, n))
            stone[m // n, m % n] = 1
            turned = learn_value.symmetric(stone, k).ravel()
            assert seen[row, :-1][turned.argmax()] == policy[row, m]
        assert seen[1, [0, n - 1, n * (n - 1), n * n - 1]].max() == 0.25   # a corner stays a corner
    assert len({tuple(learn_value.policy_seen(policy, n, k)[0]) for k in range(8)}) == 8


def test_selfplay_writes_whole_games_and_resumes(tmp_path):
    out = tmp_path / "games.jsonl"
    conf = learn_value.SelfPlay(size=7, komi=6.5, playouts=60, sample_plies=4, max_plies=400)
    assert learn_value.selfplay(conf, games=2, seed=40, jobs=2, out=out, echo=lambda s: None) == 2
    recs = learn_value.read_records(out)
    assert sorted(r["seed"] for r in recs) == [40, 41]
    for r in recs:
        assert r["size"] == 7 and len(r["ownership"]) == 49
        assert len(r["winrates"]) == len(r["moves"]) and all(0 <= q <= 1 for q in r["winrates"])
        assert r["moves"][-2:] == [None, None]      # played out to two passes
        assert len(r["visits"]) == len(r["moves"]) and any(len(v) > 3 for v in r["visits"])
        for m, visits in zip(r["moves"][:conf.sample_plies], r["visits"]):
            assert (m[1] * 7 + m[0] if m else 49) in dict(visits)    # drawn from the visits
        assert (r["winner"] == "b") == (r["score"] > 0) and r["winner"] is not None
        with GoEngine(size=7, komi=r["komi"]) as e:  # every move legal in turn
            for m in r["moves"]:
                e.play(e.to_move, tuple(m) if m else None)
    assert recs[0]["moves"] != recs[1]["moves"]
    assert learn_value.selfplay(conf, games=3, seed=40, jobs=1, out=out, echo=lambda s: None) == 1
    assert len(learn_value.read_records(out)) == 3
    assert not any(r["value"] for r in recs)


def test_selfplay_can_search_with_the_network():
    """The next round's teacher: the same seed plays other moves with the network's priors, and
    the record says which search played it."""
    conf = learn_value.SelfPlay(size=9, playouts=200, sample_plies=0, max_plies=10)
    plain = learn_value.play_game(conf, seed=3)
    net = learn_value.play_game(dataclasses.replace(conf, value=True), seed=3)
    assert net["value"] is True and plain["value"] is False
    assert net["moves"] != plain["moves"] and len(net["moves"]) == len(plain["moves"]) == 10


def test_a_randomized_playout_cap_searches_most_moves_fast_and_teaches_the_policy_only_the_full_ones():
    conf = learn_value.SelfPlay(size=7, komi=6.5, playouts=300, sample_plies=4, max_plies=60,
                                fast_playouts=30, full_share=0.25)
    rec = learn_value.play_game(conf, seed=5)
    assert rec["fast_playouts"] == 30 and rec["full_share"] == 0.25
    full = [v is not None for v in rec["visits"]]
    assert all(full[:4])                                    # the drawn first moves: in full
    assert [q is not None for q in rec["winrates"]] == full
    later = full[4:]
    assert 0 < sum(later) < len(later) / 2                   # about a quarter after them
    searched = [sum(n for _, n in v) for v in rec["visits"] if v]
    assert min(searched) > 100                               # full searches had their playouts
    plain = learn_value.play_game(dataclasses.replace(conf, fast_playouts=0), seed=5)
    assert "fast_playouts" not in plain and all(v is not None for v in plain["visits"])
    rec["ownership"] = rec["ownership"] or [0.0] * 49
    rec["winner"] = rec["winner"] or "b"                    # a cut game still labels positions
    pos = learn_value.positions([rec])
    assert pos.taught.tolist() == full[:len(pos.won)]
    assert not pos.policy[~pos.taught].any()
    assert np.isnan(pos.searched[~pos.taught]).all() and not np.isnan(pos.searched[pos.taught]).any()
    assert np.allclose(pos.policy[pos.taught].astype(np.float32).sum(axis=1), 1, atol=0.01)


def _match_game(path, seed, black, white, result, moves=12, size=9):
    """A short random game saved as a match's SGF record."""
    from engines.go import sgf

    with random_position(random.Random(seed), size, moves) as e:
        played = e.moves()
    sgf.save(path, sgf.GameRecord(size=size, komi=7.0, black=black, white=white, result=result,
                                  moves=played))
    return played


def test_label_searches_a_matchs_positions_again_and_fit_learns_the_teachers_visits(tmp_path):
    """Expert iteration on match games: one position in EVERY is searched by the teacher; the
    record's visits are the teacher's, not the move the player chose, and positions() teaches
    them as they are; a game played twice is searched once, a drawn one not at all; --player
    keeps the games it lost and as many it won; a rerun searches only what OUT lacks."""
    games = tmp_path / "match"
    games.mkdir()
    lost = _match_game(games / "a.sgf", 1, "soloshop 0.1", "GNU Go 3.8", "W+R")
    _match_game(games / "b.sgf", 1, "soloshop 0.1", "GNU Go 3.8", "W+R")      # the same game
    _match_game(games / "c.sgf", 2, "GNU Go 3.8", "soloshop 0.1", "W+3")      # won
    _match_game(games / "d.sgf", 3, "soloshop 0.1", "GNU Go 3.8", "B+5")      # won
    _match_game(games / "e.sgf", 4, "soloshop 0.1", "GNU Go 3.8", "0")        # a drawn count
    every = learn_value.match_games(sorted(games.glob("*.sgf")))
    assert [p.name for p, *_ in every] == ["a.sgf", "c.sgf", "d.sgf"]
    chosen = learn_value.match_games(sorted(games.glob("*.sgf")), player="soloshop")
    assert len(chosen) == 2 and chosen[0][0].name == "a.sgf" and chosen[0][2] == "w"
    assert chosen[1][0].name in ("c.sgf", "d.sgf")

    out = tmp_path / "labelled.jsonl"
    result = CliRunner().invoke(learn_value.main, ["label", str(games), "--player", "soloshop",
                                                   "--playouts", "150", "--every", "3",
                                                   "--jobs", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 games searched (2 chosen)" in result.output
    recs = {Path(r["source"]).name: r for r in learn_value.read_records(out)}
    rec = recs["a.sgf"]
    assert rec["labelled"] and rec["playouts"] == 150 and rec["winner"] == "w"
    assert rec["moves"] == [list(m) for _, m in lost] and len(rec["ownership"]) == 81
    searched = [i for i, v in enumerate(rec["visits"]) if v is not None]
    assert len(searched) in (3, 4) and all(b - a == 3 for a, b in zip(searched, searched[1:]))
    assert 2 <= searched[0] < 5 and searched[-1] >= 9
    assert all(rec["winrates"][i] is not None for i in searched)
    assert all(sum(n for _, n in rec["visits"][i]) >= 140 for i in searched)

    pos = learn_value.positions([rec])
    assert len(pos.won) == 12 and int(pos.taught.sum()) == len(searched)
    for i in searched:
        teacher = dict(rec["visits"][i])
        assert pos.policy[i].argmax() == max(teacher, key=teacher.get)
        assert pos.policy[i, list(teacher)].sum() == pytest.approx(1, abs=1e-2)
    assert np.allclose(pos.searched[searched], [rec["winrates"][i] for i in searched])

    again = CliRunner().invoke(learn_value.main, ["label", str(games), "--player", "soloshop",
                                                  "--playouts", "150", "-o", str(out)])
    assert "0 games searched (2 chosen)" in again.output and len(learn_value.read_records(out)) == 2
    nobody = CliRunner().invoke(learn_value.main, ["label", str(games), "--player", "Pachi", "-o",
                                                   str(tmp_path / "x.jsonl")])
    assert nobody.exit_code == 2 and "with 'Pachi' as a player" in nobody.output

    said = []
    bad = (games / "f.sgf", [("b", (4, 4)), ("w", (4, 4))], "b", 9, 7.0)   # onto a stone
    assert learn_value.label(learn_value.Teacher(50, 3), [bad], 1, out, echo=said.append) == 0
    assert any("f.sgf skipped: move 2 (w (4, 4))" in line for line in said)
    assert len(learn_value.read_records(out)) == 2


def test_label_reads_the_games_of_a_match_journal_kept_without_its_sgf_files(tmp_path):
    """A run kept in git keeps only its journal.jsonl (each game's record is in it): label
    finds the journal in a folder or given itself, names each game by the journal and its
    index, takes a game the SGF files also hold once, and names an unreadable record."""
    from engines.go import sgf
    from engines.match.journal import Journal

    run = tmp_path / "runs" / "kept"
    run.mkdir(parents=True)
    journal = Journal(run)
    journal.open("go", {"size": 9})
    for i, (seed, result) in enumerate([(1, "W+R"), (2, "B+5"), (3, "0")]):
        _match_game(tmp_path / "g.sgf", seed, "soloshop 0.1", "GNU Go 3.8", result)
        journal.append({"index": i, "seed": seed, "candidate_color": "b", "points": 0,
                        "record_format": "sgf", "record": (tmp_path / "g.sgf").read_text()})
    journal.append({"index": 3, "seed": 4, "candidate_color": "b", "points": 0,
                    "record_format": "sgf", "record": "(;SZ[9];B[zz])"})
    said = []
    games = learn_value.match_games([tmp_path / "runs"], warn=said.append)
    assert [str(p) for p, *_ in games] == [f"{run}/journal.jsonl#0", f"{run}/journal.jsonl#1"]
    assert games[0][2] == "w" and games[1][2] == "b"       # the drawn count teaches nothing
    assert any("journal.jsonl game 3 skipped" in line for line in said)
    assert [p for p, *_ in learn_value.match_games([run / "journal.jsonl"], warn=said.append)] == \
        [p for p, *_ in games]

    _match_game(run / "game-000.sgf", 1, "soloshop 0.1", "GNU Go 3.8", "W+R")   # its SGF too
    both = learn_value.match_games([run], warn=said.append)
    assert [p.name for p, *_ in both] == ["game-000.sgf", "journal.jsonl#1"]

    out = tmp_path / "labelled.jsonl"
    result = CliRunner().invoke(learn_value.main, ["label", str(run / "journal.jsonl"),
                                                   "--playouts", "50", "--every", "4",
                                                   "--jobs", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(r["source"] for r in learn_value.read_records(out)) == \
        [f"{run}/journal.jsonl#0", f"{run}/journal.jsonl#1"]


def test_a_settled_game_stops_where_the_searches_agree_and_a_checked_one_plays_on():
    """Settling ends a game once SETTLE_PLIES searches in a row give one side at least
    1 - SETTLE; a checked game plays the same moves to two passes and keeps the call to compare."""
    conf = learn_value.SelfPlay(size=7, komi=6.5, playouts=60, sample_plies=2, max_plies=200,
                                settle=0.3, settle_plies=2, check_share=0.0)
    stopped = learn_value.play_game(conf, seed=11)
    ply, called = stopped["settled_ply"], stopped["settled"]
    assert called in ("b", "w") and 2 < ply == len(stopped["moves"])
    assert stopped["winner"] == called and stopped["score"] is None and not stopped["checked"]
    assert len(stopped["ownership"]) == 49          # the last search's, for the ownership head
    for i in (ply - 2, ply - 1):                     # the last two searches agreed on the caller
        rate = stopped["winrates"][i]
        assert (rate if (i % 2 == 0) == (called == "b") else 1 - rate) >= 0.7
    checked = learn_value.play_game(dataclasses.replace(conf, check_share=1.0), seed=11)
    assert checked["checked"] and checked["moves"][:ply] == stopped["moves"]
    assert (checked["settled_ply"], checked["settled"]) == (ply, called)
    assert checked["moves"][-2:] == [None, None] and len(checked["moves"]) > ply
    assert (checked["winner"] == "b") == (checked["score"] > 0)
    assert len(learn_value.positions([checked]).won) == len(learn_value.positions([stopped]).won) == ply
    plain = learn_value.play_game(dataclasses.replace(conf, settle=0.0), seed=11)
    assert "settled_ply" not in plain and "settle" not in plain and plain["moves"][-2:] == [None, None]
    assert plain["moves"] == checked["moves"]        # settling draws nothing from the game's stream


def test_the_settle_report_counts_the_calls_the_checked_games_proved_wrong():
    def rec(settled, winner, checked, ply=40):
        return {"settled": settled, "winner": winner, "checked": checked, "settled_ply": ply}
    records = [rec("b", "b", False, 30), rec("w", "w", False, 50), rec("b", "b", True),
               rec("b", "w", True), rec("w", "w", True), rec(None, "b", False, None)]
    assert learn_value.settle_report(records) == (
        "settled 5 of 6 games early (at move 40 on average; 2 stopped there); 1 of the 3 played "
        "on to check ended the other way (33.3%)")
    assert learn_value.settle_report(records[:2]).endswith("none played on to check yet")
    assert learn_value.settle_report([rec(None, "b", False, None)]) is None


def test_the_holdout_report_measures_the_network_as_the_core_computes_it_and_in_floats(tmp_path):
    """fit's held-out report (no training needed): the shipped network's log loss in 16-bit
    integers and in floats, close to each other and better than a coin on 9x9 self-play."""
    out = tmp_path / "games.jsonl"
    learn_value.selfplay(learn_value.SelfPlay(playouts=60), games=2, seed=7, jobs=1, out=out,
                         echo=lambda s: None)
    _, w = learn_value.read_header(HEADER)
    lines = []
    learn_value.report_holdout(w, learn_value.positions(learn_value.read_records(out)), echo=lines.append)
    m = re.search(r"log loss ([\d.]+) \(in floats, as trained: ([\d.]+)\).*a coin: ([\d.]+)", lines[0])
    assert m, lines
    ints, floats, coin = map(float, m.groups())
    assert abs(ints - floats) < 0.01 and ints < coin
    assert "the search's move first" in lines[1]
    assert lines[-1].startswith("held out, the winner called by moves played: 0-19: network ")


def test_score_measures_a_written_network_on_the_games_fit_holds_out(tmp_path):
    """`score` reports on a header what fit reports on its own held-out games: the same games
    (chosen by seed), every game with --holdout 1, and a clear error when none is held out."""
    out = tmp_path / "games.jsonl"
    learn_value.selfplay(learn_value.SelfPlay(playouts=40), games=6, seed=11, jobs=1, out=out,
                         echo=lambda s: None)
    records = learn_value.read_records(out)
    pos = learn_value.positions(records)
    every = learn_value.held_out(learn_value.decided(records), pos, 1.0)
    assert every.all()
    half = learn_value.held_out(learn_value.decided(records), pos, 0.5)
    games_out = {int(g) for g in pos.game[half]}
    assert 0 < len(games_out) < len(learn_value.decided(records))
    assert half.tolist() == [int(g) in games_out for g in pos.game]   # whole games, never parts

    run = CliRunner().invoke(learn_value.main, ["score", str(out), "--holdout", "1"])
    assert run.exit_code == 0, run.output
    assert f"{len(pos.won)} positions of {len(learn_value.decided(records))} games" in run.output
    assert re.search(r"held out, the network: log loss [\d.]+ \(in floats", run.output)
    run = CliRunner().invoke(learn_value.main, ["score", str(out), "--holdout", "0.5",
                                                "--weights", str(HEADER)])
    assert run.exit_code == 0 and f"{int(half.sum())} positions of {len(games_out)} games" in run.output

    run = CliRunner().invoke(learn_value.main, ["score", str(out), "--holdout", "1e-12"])
    assert run.exit_code != 0 and "no game of the 6 is held out" in run.output
    bad = tmp_path / "bad.h"
    bad.write_text("/* not a network */\n")
    run = CliRunner().invoke(learn_value.main, ["score", str(out), "--weights", str(bad)])
    assert run.exit_code != 0 and "bad.h" in run.output and "Traceback" not in run.output


def test_the_report_calls_winners_phase_by_phase_for_the_network_and_the_search():
    """Each phase counts its own positions; the search only where it was recorded."""
    ply = np.array([0, 5, 25, 30, 70, 90])
    y = np.array([1, 0, 1, 1, 0, 0], dtype=np.float32)
    p = np.array([0.9, 0.8, 0.2, 0.7, 0.1, 0.2])          # right, wrong, wrong, right, right, right
    searched = np.array([np.nan, np.nan, 0.6, np.nan, 0.9, 0.1])
    assert learn_value._called_by_phase(p, searched, y, ply) == [
        "0-19: network 50%", "20-39: network 50%, search 100%", "60-: network 100%, search 50%"]


def test_positions_are_labelled_for_the_side_to_move(tmp_path):
    moves = [[2, 2], [4, 4], [2, 4], None, [4, 2], None, None]
    own = [1.0] * 12 + [-1.0] * 13
    rec = {"seed": 1, "size": 5, "komi": 0.5, "moves": moves, "winner": "b", "score": 3.0,
           "ownership": own, "resign_ply": None}
    pos = learn_value.positions([rec, {**rec, "winner": None}])
    assert len(pos.won) == len(moves) and set(pos.game) == {0}
    assert list(pos.move) == [12, 24, 22, 25, 14, 25, 25]     # y * 5 + x, a pass 25
    movers = ["b", "w", "b", "w", "b", "w", "b"]
    assert list(pos.won) == [1.0 if m == "b" else 0.0 for m in movers]
    for i, m in enumerate(movers):
        assert pos.owner[i].ravel()[0] == (1.0 if m == "b" else -1.0)
        assert pos.planes[i][PLANES.index("black_to_move")].all() == (m == "b")
    assert np.array_equal(pos.policy.argmax(axis=1), pos.move) and (pos.policy.max(axis=1) == 1).all()
    visits = [[[12, 30], [13, 10]]] + [[[m, 1]] for m in [24, 22, 25, 14, 25, 25]]
    visits[2] = [[22, 5], [3, 9]]        # played by rule (a settling move), not the most visited
    shared = learn_value.positions([{**rec, "visits": visits}])
    assert shared.policy[0, 12] == 0.75 and shared.policy[0, 13] == 0.25
    assert np.array_equal(shared.policy[1:], pos.policy[1:])
    drawn = learn_value.positions([{**rec, "visits": visits, "sample_plies": 3}])
    assert drawn.policy[2, 22] == np.float16(5 / 14) and drawn.policy[2, 3] == np.float16(9 / 14)
    cut = learn_value.positions([{**rec, "resign_ply": 2}], after_resign=1)
    assert len(cut.won) == 3
    assert np.isnan(pos.searched).all() and np.array_equal(pos.target(0.5), pos.won)


def test_the_target_blends_the_result_with_the_recorded_search():
    rates = [0.6, 0.3, 0.8, 0.1, 0.9, 0.2, 0.7]
    rec = {"seed": 1, "size": 5, "komi": 0.5, "moves": [[2, 2], [4, 4], [2, 4], None, [4, 2], None, None],
           "winrates": rates, "winner": "w", "score": -3.0, "ownership": [0.0] * 25, "resign_ply": None}
    pos = learn_value.positions([rec])
    assert np.allclose(pos.searched, rates)
    assert np.allclose(pos.target(0.0), pos.won) and np.allclose(pos.target(1.0), rates)
    assert np.allclose(pos.target(0.25), 0.75 * pos.won + 0.25 * np.array(rates))
    assert pos.subset(pos.won == 1).searched.tolist() == pytest.approx([0.3, 0.1, 0.2])
    assert not pos.labelled.any() and np.allclose(pos.target(0.25, match_result=False), pos.target(0.25))


def test_without_match_results_a_match_position_learns_the_teachers_estimate_or_nothing():
    """--no-match-result: a labelled game's result (skewed to the player who won more) teaches
    nothing; the teacher's estimate where it searched, no value at all where it did not; a
    self-play game beside it keeps its blend (train leaves the NaN out of the value's loss)."""
    rates = [None, 0.3, None, None, 0.9, None, None]
    moves = [[2, 2], [4, 4], [2, 4], None, [4, 2], None, None]
    match = {"seed": 1, "size": 5, "komi": 0.5, "moves": moves, "winrates": rates, "labelled": True,
             "winner": "b", "score": None, "ownership": [0.0] * 25, "resign_ply": None}
    own = {**match, "seed": 2, "labelled": None, "winrates": [0.4] * 7}
    pos = learn_value.positions([match, own])
    assert pos.labelled.tolist() == [True] * 7 + [False] * 7
    target = pos.target(0.5, match_result=False)
    assert np.isnan(target[[0, 2, 3, 5, 6]]).all()
    assert target[[1, 4]].tolist() == pytest.approx([0.3, 0.9])
    assert target[7:].tolist() == pytest.approx((0.5 * pos.won[7:] + 0.2).tolist())
    assert pos.target(0.5)[1] == pytest.approx(0.5 * pos.won[1] + 0.15)   # with results: the blend


def test_bad_records_are_a_clear_error(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"seed": 1}) + "\n{not json\n")
    result = CliRunner().invoke(learn_value.main, ["fit", str(path)])
    assert result.exit_code == 1
    assert f"{path}:2 is not a JSON line" in result.output


def test_a_width_the_c_network_cannot_compute_is_refused(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text("")
    result = CliRunner().invoke(learn_value.main, ["fit", str(path), "--channels", "6"])
    assert result.exit_code == 2 and "multiple of 4" in result.output


def test_records_of_several_sizes_are_refused():
    rec = {"seed": 1, "size": 5, "komi": 0.5, "moves": [None, None], "winner": "b", "score": 1,
           "ownership": [0.0] * 25, "resign_ply": None}
    with pytest.raises(learn_value.BadRecords, match="mix board sizes"):
        learn_value.positions([rec, {**rec, "size": 7, "ownership": [0.0] * 49}])


def test_fit_can_start_from_a_written_network_of_its_shape(tmp_path):
    w = learn_value.init_weights(learn_value.Shape(channels=8, layers=3, hidden=4), planes=10, seed=5)
    header = tmp_path / "value_weights.h"
    learn_value.write_header(w, 7, header, "a test")
    shape, start = learn_value.starting_point(header, 7, 10, None, None)
    assert shape == learn_value.Shape(channels=8, layers=3, hidden=4)
    assert all(np.allclose(start[k], w[k], rtol=1e-6, atol=1e-7) for k in w)
    assert learn_value.starting_point(header, 7, 10, 8, 3)[0] == shape       # the same shape, named
    assert learn_value.starting_point(None, 7, 10, 16, None) == (learn_value.Shape(channels=16), None)


def test_a_grown_network_computes_what_the_smaller_one_did_and_every_new_weight_learns(tmp_path):
    w = learn_value.init_weights(learn_value.Shape(channels=8, layers=3, hidden=4), planes=10, seed=5)
    w["conv_b"] += 0.1                               # a trained network's biases are not zero
    header = tmp_path / "value_weights.h"
    learn_value.write_header(w, 7, header, "a test")
    shape, grown = learn_value.starting_point(header, 7, 10, 12, 5)
    assert shape == learn_value.Shape(channels=12, layers=5, hidden=4)
    assert grown["conv_w"].shape == (4, 12, 12, 3, 3) and grown["fc1_w"].shape == (4, 13)
    x = (np.random.default_rng(2).random((16, 10, 7, 7)) < 0.3).astype(np.float32)
    wider = learn_value.grow(w, learn_value.Shape(channels=12, layers=3, hidden=4))
    for net, tol in ((wider, 1e-5), (grown, 1e-2)):  # wider: exactly; deeper: nearly
        for a, b in ((learn_value.forward(w, x, False)[0], learn_value.forward(net, x, False)[0]),
                     (learn_value.forward(w, x, False)[1], learn_value.forward(net, x, False)[1])):
            assert np.abs(a - b).max() < tol
        a, b = learn_value.policy_logits(w, x, False), learn_value.policy_logits(net, x, False)
        assert np.abs(a[np.isfinite(a)] - b[np.isfinite(b)]).max() < 10 * tol
    # every new weight learns: the new channels carry signal (so the heads' zero weights on
    # them get gradients), and the appended layers' relus are open somewhere (so theirs do)
    trunk = learn_value._trunk(grown, x, False)
    assert (trunk[:, 8:] > 0).mean() > 0.2
    shallow = learn_value._trunk(learn_value.grow(w, learn_value.Shape(12, 3, 4)), x, False)
    assert 0 < np.abs(trunk - shallow).max() < 0.1
    with pytest.raises(ValueError, match="cannot grow 8 channels x 3 layers"):
        learn_value.grow(w, learn_value.Shape(channels=4, layers=3, hidden=4))


def test_a_network_given_new_planes_computes_what_it_did_until_it_learns_to_read_them(tmp_path):
    w = learn_value.init_weights(learn_value.Shape(channels=8, layers=3, hidden=4), planes=10, seed=5)
    header = tmp_path / "value_weights.h"
    learn_value.write_header(w, 7, header, "a test")
    shape, grown = learn_value.starting_point(header, 7, 14, None, None)   # a newer go_value_planes
    assert shape == learn_value.Shape(channels=8, layers=3, hidden=4)
    assert grown["conv0_w"].shape == (8, 14, 3, 3) and not grown["conv0_w"][:, 10:].any()
    x = (np.random.default_rng(2).random((16, 14, 7, 7)) < 0.3).astype(np.float32)
    for q, tol in ((False, 1e-6), (True, 2e-3)):     # in floats the same; in the core's integers,
        for a, b in zip(learn_value.forward(w, x[:, :10], q), learn_value.forward(grown, x, q)):
            assert np.abs(a - b).max() <= tol        # up to the rounding (the scale counts inputs)
        a, b = learn_value.policy_logits(w, x[:, :10], q), learn_value.policy_logits(grown, x, q)
        assert np.abs(a[np.isfinite(a)] - b[np.isfinite(b)]).max() <= 10 * tol
    learn_value.write_header(grown, 7, header, "a test")
    assert "#define VALUE_PLANES 14" in header.read_text()
    assert learn_value.read_header(header)[1]["conv0_w"].shape == (8, 14, 3, 3)
    # the new planes' weights move the outputs (they have a gradient), so fitting teaches them
    nudged = {**grown, "conv0_w": grown["conv0_w"].copy()}
    nudged["conv0_w"][:, 10:] += 1e-2
    moved = learn_value.forward(nudged, x, False)[0] - learn_value.forward(grown, x, False)[0]
    assert np.abs(moved).max() > 1e-4


def test_a_header_says_what_its_network_learned_from_through_every_generation(tmp_path):
    w = learn_value.init_weights(learn_value.Shape(channels=4, layers=2, hidden=4), planes=10, seed=5)
    first, second = tmp_path / "first.h", tmp_path / "second.h"
    learn_value.write_header(w, 7, first, "300 positions of 4 self-play games")
    assert learn_value.header_source(first) == "300 positions of 4 self-play games"
    # what fit writes after --init first.h: the new games, then the old ones
    learn_value.write_header(w, 7, second, learn_value.trained_on([{}], np.zeros(80, int), first))
    assert learn_value.header_source(second) == (
        "80 positions of 1 self-play games, after 300 positions of 4 self-play games")
    match = {"labelled": True, "source": "m/game-000.sgf"}
    kept = [{}, match, match, {**match, "source": "m/game-001.sgf"}]   # one match file given twice
    assert learn_value.trained_on(kept, np.array([0, 0, 1, 1, 2, 2, 3]), None) == (
        "2 positions of 1 self-play games and 5 positions of 3 match games searched again "
        "(2 distinct)")
    assert learn_value.read_header(second)[0] == 7


@pytest.mark.parametrize("args, message", [
    (["--channels", "4"], "4, but .* has 8: a network can grow, not shrink"),
    (["--layers", "2"], "2, but .* has 3: a network can grow, not shrink"),
])
def test_fit_refuses_a_starting_network_that_does_not_fit(tmp_path, args, message):
    w = learn_value.init_weights(learn_value.Shape(channels=8, layers=3, hidden=4), planes=10, seed=5)
    header, games = tmp_path / "value_weights.h", tmp_path / "games.jsonl"
    learn_value.write_header(w, 5, header, "a test")
    rec = {"seed": 1, "size": 5, "komi": 0.5, "moves": [[2, 2], None, None], "winner": "b", "score": 1,
           "ownership": [0.0] * 25, "resign_ply": None}
    games.write_text(json.dumps(rec) + "\n")
    result = CliRunner().invoke(learn_value.main, ["fit", str(games), "--init", str(header), *args])
    assert result.exit_code == 2 and re.search(message, result.output.replace("\n", " ")), result.output
    learn_value.write_header(w, 7, header, "a test")                 # trained on another size
    result = CliRunner().invoke(learn_value.main, ["fit", str(games), "--init", str(header)])
    assert result.exit_code == 2 and "trained on 7x7 and these games are 5x5" in result.output
    with pytest.raises(click.BadParameter, match="reads 10 planes .* makes only 9: .* without --init"):
        learn_value.starting_point(header, 7, 9, None, None)

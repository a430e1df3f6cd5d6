"""The tree search's learned leaf value (core/value.c, engines/quoridor/learn_value.py): its
facts agree with rules.py found the slow way, the compiled weights are the ones in
value_weights.h, and the learner fits, reads and writes what it says."""
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from engines.quoridor import learn_value, rules
from engines.quoridor._core import ffi, lib
from engines.quoridor.engine import QuoridorEngine

WEIGHTS_H = Path(learn_value.__file__).parent / "core" / "value_weights.h"


def _facts(eng):
    facts = ffi.new("int[]", lib.QR_LEAF_FACTS)
    assert lib.qr_leaf_facts(eng.board, facts) == lib.QR_OK
    return list(facts)


def _best_gain(game: rules.Game, player: int) -> int:
    """PLAYER's best wall now, by trying every wall: the other's path lengthened less its own,
    0 or more, at most 10 (0 without walls in hand)."""
    if game.walls_left[player] == 0:
        return 0
    trial = rules.Game(game.size, 0, game.edge_diagonal)
    trial.set_position(game.pawns, game.walls, [1, 1], player)
    d = [game.path_length(0), game.path_length(1)]
    best = 0
    for wall in trial.legal_walls():
        walls = game.walls | {wall}
        nd = [game.path_length(p, walls) for p in (0, 1)]
        best = max(best, (nd[1 - player] - d[1 - player]) - (nd[player] - d[player]))
    return min(best, 10)


def _random_games(seed, size, count, plies):
    rng = random.Random(seed)
    for _ in range(count):
        ref, eng = rules.Game(size), QuoridorEngine(size)
        for _ in range(rng.randrange(plies)):
            walls = ref.walls_left[ref.to_move] > 0 and rng.random() < 0.4
            moves = (ref.legal_walls() if walls else []) or ref.legal_pawn_moves()
            move = rules.move_name(rng.choice(moves))
            ref.play(move)
            eng.play(move)
            if ref.winner is not None:
                break
        if ref.winner is None:
            yield ref, eng


@pytest.mark.parametrize("size", [5, 7, 9])
def test_the_facts_are_the_rules_found_the_slow_way(size):
    checked = 0
    for ref, eng in _random_games(size, size, 25, 4 * size):
        me, opp = ref.to_move, 1 - ref.to_move
        assert _facts(eng) == [ref.path_length(me), ref.path_length(opp), ref.walls_left[me],
                               ref.walls_left[opp], _best_gain(ref, me), _best_gain(ref, opp)]
        checked += 1
    assert checked >= 15


def test_a_finished_game_has_no_facts():
    eng = QuoridorEngine(5)
    for move in ["c2", "c4", "c3", "b4", "c4", "b3", "c5"]:
        eng.play(move)
    assert eng.winner == 0
    facts = ffi.new("int[]", lib.QR_LEAF_FACTS)
    assert lib.qr_leaf_facts(eng.board, facts) == lib.QR_ERR_GAME_OVER


def test_the_compiled_weights_are_value_weights_h():
    text = WEIGHTS_H.read_text()
    weights = [float(v) for v in re.search(r"\{([^}]*)\}", text.split("VALUE_WEIGHTS")[1]).group(1)
               .replace("\n", " ").split(",") if v.strip()]
    assert len(weights) == lib.QR_VALUE_FEATURES
    feats = ffi.new("double[]", lib.QR_VALUE_FEATURES)
    for facts in ([10, 12, 5, 3, 2, 1], [3, 2, 0, 4, 0, 3], [7, 7, 1, 1, 0, 0]):
        lib.qr_value_features(facts, feats)
        e = sum(w * f for w, f in zip(weights, feats))
        assert lib.qr_value_chance(facts) == pytest.approx(1 / (1 + np.exp(-e)), abs=1e-9)


def test_without_walls_the_value_is_the_race():
    assert lib.qr_value_chance([4, 4, 0, 0, 0, 0]) == pytest.approx(0.97)  # the mover is a step ahead
    assert lib.qr_value_chance([5, 4, 0, 0, 0, 0]) == pytest.approx(0.03)


def test_the_value_prefers_the_shorter_path_and_more_walls():
    chance = lib.qr_value_chance
    assert chance([6, 8, 5, 5, 1, 1]) > chance([7, 8, 5, 5, 1, 1]) > chance([8, 8, 5, 5, 1, 1])
    assert chance([8, 8, 6, 5, 1, 1]) > chance([8, 8, 5, 5, 1, 1]) > chance([8, 8, 5, 6, 1, 1])
    assert 0 < chance([2, 14, 9, 0, 3, 0]) < 1 and 0 < chance([14, 2, 0, 9, 0, 3]) < 1


def test_the_fit_finds_the_weights_of_a_known_model():
    rng = np.random.default_rng(3)
    x = np.column_stack([np.ones(20000), rng.normal(size=20000), rng.integers(-3, 4, 20000)])
    truth = np.array([0.3, 1.2, -0.5])
    y = (rng.random(20000) < 1 / (1 + np.exp(-(x @ truth)))).astype(float)
    w = learn_value.fit(x, y, l2=0.0)
    assert np.allclose(w, truth, atol=0.08)
    assert learn_value.log_loss(learn_value.predict(w, x), y) < learn_value.log_loss(np.full(20000, 0.5), y)


def test_selfplay_then_fit_writes_weights_the_core_can_read(tmp_path):
    games, header = tmp_path / "games.jsonl", tmp_path / "value_weights.h"
    runner = CliRunner()
    out = runner.invoke(learn_value.main, ["selfplay", "--games", "6", "--playouts", "200", "--size",
                                           "5", "--jobs", "1", "-o", str(games)])
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in games.read_text().splitlines()]
    assert [r["seed"] for r in records] == [1, 2, 3, 4, 5, 6]
    for r in records:       # every recorded game is legal by the readable rules
        ref = rules.Game(5)
        for move in r["moves"]:
            ref.play(move)
        assert ref.winner == r["winner"]
    out = runner.invoke(learn_value.main, ["fit", str(games), "-o", str(header)])
    assert out.exit_code == 0, out.output
    assert "held out, fitted weights: log loss" in out.output
    text = header.read_text()
    assert text.startswith("/* Generated by engines/quoridor/learn_value.py")
    assert len(re.findall(r"-?\d+\.\d{4}", text.split("{", 1)[1])) == lib.QR_VALUE_FEATURES


def test_selfplay_against_the_reference_method_records_who_the_bot_was(tmp_path):
    games = tmp_path / "games.jsonl"
    out = CliRunner().invoke(learn_value.main, ["selfplay", "--games", "4", "--playouts", "100",
                                                "--size", "5", "--jobs", "1", "--seed", "10",
                                                "--reference", "50,300", "-o", str(games)])
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in games.read_text().splitlines()]
    # game seed s: the bot is player s % 2 at level (s // 2) % 2 of the list
    assert [r["reference"] for r in records] == [
        {"player": 0, "rollouts": 300}, {"player": 1, "rollouts": 300},
        {"player": 0, "rollouts": 50}, {"player": 1, "rollouts": 50}]
    conf, checked = learn_value.SelfPlay(), 0
    for r in records:       # past the sampled plies, the bot's moves are the reference method's
        eng = QuoridorEngine(5, seed=r["seed"], mcts_megabytes=32)
        for i, move in enumerate(r["moves"]):
            if i >= conf.opening_plies + conf.sample_plies and eng.to_move == r["reference"]["player"]:
                assert eng.search(playouts=r["reference"]["rollouts"], engine="reference-ai")["move"] == move
                checked += 1
            eng.play(move)
    assert checked >= 4


@pytest.mark.parametrize("bad", ["many", "0", "20000,-3"])
def test_selfplay_refuses_bad_reference_levels(tmp_path, bad):
    out = CliRunner().invoke(learn_value.main, ["selfplay", "--games", "1", "--reference", bad,
                                                "-o", str(tmp_path / "g.jsonl")])
    assert out.exit_code == 2
    assert "--reference" in out.output and not (tmp_path / "g.jsonl").exists()


def test_fit_refuses_a_file_that_is_not_game_records(tmp_path):
    bad = tmp_path / "games.jsonl"
    bad.write_text('{"seed": 1}\nnot json\n')
    out = CliRunner().invoke(learn_value.main, ["fit", str(bad)])
    assert out.exit_code == 1
    assert f"{bad}:2 is not a JSON game record" in out.output and "learn_value selfplay" in out.output


def test_selfplay_from_other_games_replays_their_positions_and_fits_only_what_follows(tmp_path):
    source, games = tmp_path / "bot.jsonl", tmp_path / "resumed.jsonl"
    runner = CliRunner()
    out = runner.invoke(learn_value.main, ["selfplay", "--games", "3", "--playouts", "100", "--size",
                                           "5", "--jobs", "1", "--reference", "50", "-o", str(source)])
    assert out.exit_code == 0, out.output
    prefixes = [r["moves"] for r in learn_value.read_records(source)]
    out = runner.invoke(learn_value.main, ["selfplay", "--games", "5", "--playouts", "100", "--size",
                                           "5", "--jobs", "1", "--seed", "40", "--sample-plies",
                                           "0", "--start-from", str(source), "-o", str(games)])
    assert out.exit_code == 0, out.output
    records = learn_value.read_records(games)
    for r in records:       # the start is a prefix of a source game, 4 plies or more from its ends
        assert "reference" not in r and any(
            r["moves"][:r["start"]] == p[:r["start"]] and 4 <= r["start"] <= len(p) - 4 for p in prefixes)
        ref = rules.Game(5)
        for move in r["moves"]:
            ref.play(move)
        assert ref.winner == r["winner"]
        eng = QuoridorEngine(5, seed=r["seed"], mcts_megabytes=32)
        for move in r["moves"][:r["start"]]:
            eng.play(move)      # with no sampled plies, the first searched move is the search's
        assert eng.search(playouts=100, engine="mcts")["move"] == r["moves"][r["start"]]
    # the fit learns from the positions after the start only
    whole = [dict(r, start=0) for r in records if r["winner"] in (0, 1)]
    resumed = [r for r in records if r["winner"] in (0, 1)]
    cut = sum(r["start"] for r in resumed)
    assert 0 < len(learn_value.samples(resumed).y) < len(learn_value.samples(whole).y)
    assert len(learn_value.samples(whole).y) - len(learn_value.samples(resumed).y) <= cut


def test_selfplay_refuses_start_games_of_another_size(tmp_path):
    source = tmp_path / "nine.jsonl"
    source.write_text(json.dumps({"seed": 1, "size": 9, "walls": 10, "moves": ["e2", "e8", "e3", "e7"] * 3,
                                  "winner": None}) + "\n")
    out = CliRunner().invoke(learn_value.main, ["selfplay", "--games", "1", "--size", "5",
                                                "--start-from", str(source), "-o", str(tmp_path / "g.jsonl")])
    assert out.exit_code != 0
    assert "another size" in out.output and not (tmp_path / "g.jsonl").exists()

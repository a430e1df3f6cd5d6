"""Learned move priors: the C features are orientation-free, the fit finds what a teacher
prefers, and the generated table is valid C that the search reads."""
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from engines.go import GoEngine, learn_priors, sgf
from engines.go._core import ffi, lib


def move_classes(engine):
    """{(x, y): (canonical shape key, classes)} for every legal move of the side to move."""
    xy = ffi.new("int[]", 2 * 361)
    keys = ffi.new("uint32_t[]", 361)
    cls = ffi.new("uint8_t[]", 361 * learn_priors.GROUPS)
    n = lib.go_game_move_classes(engine._game, xy, keys, cls, ffi.NULL)
    g = learn_priors.GROUPS
    return {(xy[2 * i], xy[2 * i + 1]): (keys[i], tuple(cls[g * i:g * i + g])) for i in range(n)}


def random_game(rng, size=9, moves=40):
    out = []
    with GoEngine(size=size, seed=rng.randrange(1 << 30)) as e:
        color = "b"
        for _ in range(moves):
            legal = e.legal_moves(color)
            if not legal:
                break
            p = rng.choice(legal)
            e.play(color, p)
            out.append((color, p))
            color = "w" if color == "b" else "b"
    return out


SYMMETRIES = [
    lambda x, y, n: (y, x),
    lambda x, y, n: (n - 1 - x, y),
    lambda x, y, n: (x, n - 1 - y),
    lambda x, y, n: (n - 1 - y, n - 1 - x),
]


@pytest.mark.parametrize("sym", range(len(SYMMETRIES)))
def test_move_features_do_not_depend_on_the_board_orientation(sym):
    """The same game turned or mirrored gives every move the same shape key and classes."""
    f = SYMMETRIES[sym]
    rng = random.Random(sym)
    for _ in range(5):
        game = random_game(rng)
        with GoEngine(size=9) as a, GoEngine(size=9) as b:
            for color, p in game:
                a.play(color, p)
                b.play(color, f(*p, 9))
            ca, cb = move_classes(a), move_classes(b)
            assert len(ca) > 20
            assert {f(*p, 9): v for p, v in ca.items()} == cb


def move_patterns(engine):
    """{(x, y): (SYMS, SIZES) array of large-pattern hashes} for every legal move, in the order
    and with the points of move_classes."""
    n_max, syms, sizes = 361, learn_priors.SYMS, learn_priors.SIZES
    buf = ffi.new("uint64_t[]", n_max * syms * sizes)
    n = lib.go_game_move_patterns(engine._game, buf)
    points = list(move_classes(engine))
    assert len(points) == n
    flat = list(buf)[:n * syms * sizes]
    return {p: [flat[(i * syms + s) * sizes:(i * syms + s + 1) * sizes] for s in range(syms)]
            for i, p in enumerate(points)}


@pytest.mark.parametrize("sym", range(len(SYMMETRIES)))
def test_large_patterns_are_the_same_set_of_hashes_in_every_orientation(sym):
    """Turning the board turns each move's patterns: the 8 symmetric hashes of every size are
    the same set, so the canonical (smallest) one is the same key."""
    f = SYMMETRIES[sym]
    rng = random.Random(100 + sym)
    for _ in range(3):
        game = random_game(rng, moves=30)
        with GoEngine(size=9) as a, GoEngine(size=9) as b:
            for color, p in game:
                a.play(color, p)
                b.play(color, f(*p, 9))
            pa, pb = move_patterns(a), move_patterns(b)
            assert len(pa) > 20
            for p, hashes in pa.items():
                turned = pb[f(*p, 9)]
                for size in range(learn_priors.SIZES):
                    assert {h[size] for h in hashes} == {h[size] for h in turned}


def test_large_patterns_see_colour_and_size():
    """A stone three steps away is outside the smallest pattern and inside the larger ones; it
    reads as own or enemy by who is to move; every size hashes differently even when empty."""
    with GoEngine(size=9) as e:
        empty = move_patterns(e)[(4, 4)][0]
        assert len(set(empty)) == learn_priors.SIZES           # a key per size
        e.play("b", (4, 1))                                    # (0, -3) from E5: distance 6
        as_white = move_patterns(e)[(4, 4)][0]
        e.play("w", (0, 8))                                    # far away
        as_black = move_patterns(e)[(4, 4)][0]
    assert as_white[:2] == empty[:2] and as_black[:2] == empty[:2]   # sizes to distance 4 and 5
    assert all(len({w, b, x}) == 3 for w, b, x in zip(as_white[2:], as_black[2:], empty[2:]))


def test_shape_keys_see_colour_relative_to_the_mover():
    """A lone black stone looks like an own stone to black and an enemy stone to white."""
    with GoEngine(size=9) as e:
        e.play("b", (4, 4))
        as_white = move_classes(e)[(4, 3)][0]
        e.play("w", (0, 0))
        as_black = move_classes(e)[(4, 3)][0]
    assert as_white != as_black
    assert bin(as_black).count("1") == 1 and bin(as_white).count("1") == 1   # one stone, no atari


def teacher_games(tmp_path, n=30, seed=7):
    """The teacher always answers next to its opponent's last move when it can; the other
    player is random."""
    rng = random.Random(seed)
    tmp_path.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        rec = sgf.GameRecord(size=9, komi=7.0, black="Teacher" if i % 2 == 0 else "Random",
                             white="Random" if i % 2 == 0 else "Teacher")
        teacher = "b" if i % 2 == 0 else "w"
        with GoEngine(size=9, seed=i) as e:
            color, last = "b", None
            for _ in range(50):
                legal = e.legal_moves(color)
                if not legal:
                    break
                near = [p for p in legal if last and abs(p[0] - last[0]) + abs(p[1] - last[1]) == 1]
                p = rng.choice(near) if color == teacher and near else rng.choice(legal)
                e.play(color, p)
                rec.moves.append((color, p))
                color, last = ("w" if color == "b" else "b"), p
        sgf.save(tmp_path / f"game-{i:03}.sgf", rec)
    return tmp_path


def test_the_fit_finds_what_the_teacher_prefers(tmp_path):
    samples = learn_priors.extract(learn_priors.sgf_files([teacher_games(tmp_path)]), "Teacher")
    model = learn_priors.fit(samples, min_count=3, iterations=10, echo=None)
    dist = model.class_gamma[6]            # distance to the last move
    assert dist[1] > 10 * max(dist[0], dist[2], dist[3], dist[4])
    top1, top5 = learn_priors.accuracy(samples, model)
    assert top5 > 0.5 and top1 > 0.15      # uniform over ~60 legal moves would give 2% and 8%


def jumping_teacher_games(tmp_path, n=40):
    """The teacher plays a three-space jump from one of its stones when it can (a shape that
    neither the 3x3 square nor the classes see); the other player is random."""
    rng = random.Random(5)
    tmp_path.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        rec = sgf.GameRecord(size=9, komi=7.0, black="Teacher", white="Random")
        with GoEngine(size=9, seed=i) as e:
            color, mine = "b", [(rng.randrange(9), rng.randrange(9))]
            e.play("b", mine[0])
            rec.moves.append(("b", mine[0]))
            color = "w"
            for _ in range(30):
                legal = e.legal_moves(color)
                if not legal:
                    break
                jumps = [p for p in legal if any(
                    sorted((abs(p[0] - q[0]), abs(p[1] - q[1]))) == [0, 3] for q in mine)]
                p = rng.choice(jumps) if color == "b" and jumps else rng.choice(legal)
                e.play(color, p)
                rec.moves.append((color, p))
                if color == "b":
                    mine.append(p)
                color = "w" if color == "b" else "b"
        sgf.save(tmp_path / f"game-{i:03}.sgf", rec)
    return tmp_path


def test_large_patterns_learn_what_the_3x3_shape_cannot_see(tmp_path):
    samples = learn_priors.extract(learn_priors.sgf_files([jumping_teacher_games(tmp_path)]), "Teacher")
    plain = learn_priors.fit(samples, min_count=3, iterations=10, pattern_min_count=10 ** 9)
    model = learn_priors.fit(samples, min_count=3, iterations=10, pattern_min_count=3)
    assert len(plain.pattern_keys) == 0 and len(model.pattern_keys) > 0
    # The jump from a lone stone in the middle of an empty board, as black sees it.
    with GoEngine(size=9) as e:
        e.play("b", (4, 1))
        e.play("w", (0, 8))
        jump = min(h[2] for h in move_patterns(e)[(4, 4)])      # the size that reaches 3 steps
    assert jump in set(model.pattern_keys.tolist())
    rated = model.pattern_gamma[list(model.pattern_keys).index(jump)]
    assert rated > 5 * model.pattern_none
    assert learn_priors.accuracy(samples, model)[0] > learn_priors.accuracy(samples, plain)[0] + 0.1


def probe_gammas(tmp_path, model, files, table_edit=None):
    """Every legal move's gamma, position by position, at the teacher's (black's) moves of
    FILES, from a copy of the core compiled with MODEL's table (TABLE_EDIT: a change to its
    text first)."""
    from tests.engines import fuzzing

    core = tmp_path / "core"
    shutil.copytree(fuzzing.core_dir("go"), core)
    header = core / "shape_gammas.h"
    learn_priors.write_header(model, header, "the test's teacher")
    if table_edit:
        header.write_text(table_edit(header.read_text()))
    probe = fuzzing.build(core, Path(__file__).with_name("gamma_probe.c"), tmp_path / "probe",
                          sanitize=False)
    blocks = []
    for path in files:
        script = []
        for color, point in sgf.load(path).moves:
            if color == "b":
                script.append("?")
            script.append("p %d %d" % (point if point else (-1, -1)))
        out = subprocess.run([str(probe)], input="\n".join(script), capture_output=True,
                             text=True, check=True).stdout.split("end\n")[:-1]
        blocks += [[float(line.split()[2]) for line in block.splitlines()] for block in out]
    return blocks


def assert_shares_match(blocks, samples, gammas, npos):
    assert len(blocks) == npos
    for pos, c in enumerate(blocks):
        want = gammas[samples.pos == pos]
        assert len(c) == len(want)
        assert [v / sum(c) for v in c] == pytest.approx(list(want / want.sum()), rel=2e-3)


@pytest.fixture(scope="module")
def fitted_patterns(tmp_path_factory):
    """A model with large patterns fitted to a teacher, and the first games' samples."""
    files = learn_priors.sgf_files([jumping_teacher_games(tmp_path_factory.mktemp("games"), n=20)])
    model = learn_priors.fit(learn_priors.extract(files, "Teacher"), min_count=3, iterations=10,
                             pattern_min_count=3)
    assert len(model.pattern_keys) > 20
    return model, files[:6], learn_priors.extract(files[:6], "Teacher")


def test_a_core_built_with_a_fitted_pattern_table_gives_the_models_gammas(tmp_path, fitted_patterns):
    """End to end: the table written as C into a copy of the core and compiled gives every
    legal move the share the fitted model gives it (the core grows each move's pattern on the
    board as it stands, the model reads canonical hashes: they agree in every orientation)."""
    model, files, samples = fitted_patterns
    npos = int(samples.pos.max()) + 1
    idx = learn_priors.pattern_index(samples.patterns, model.pattern_keys)
    assert (idx < len(model.pattern_keys)).sum() > 50               # patterns really count here
    assert_shares_match(probe_gammas(tmp_path, model, files), samples,
                        learn_priors.team_gamma(samples, model), npos)


def test_large_patterns_apply_only_on_the_board_size_they_were_learned_on(tmp_path, fitted_patterns):
    """The same table marked as learned on 13x13 leaves the 9x9 gammas without their pattern
    factor: patterns near the edges of one board size do not carry to another."""
    model, files, samples = fitted_patterns
    npos = int(samples.pos.max()) + 1
    feats = learn_priors.feature_matrix(samples, model.shape_keys, model.pattern_keys)
    without = learn_priors.team_gamma(samples, model) / learn_priors.model_gamma_vector(model)[feats[:, -1]]
    blocks = probe_gammas(tmp_path, model, files, lambda text: text.replace(
        "#define PATTERN_BOARD_SIZE 9", "#define PATTERN_BOARD_SIZE 13"))
    assert_shares_match(blocks, samples, without, npos)


def test_patterns_only_adds_patterns_to_the_built_in_table_end_to_end(tmp_path, fitted_patterns):
    """--patterns-only holds the shapes and classes the core was built with: each move's team
    is its built-in gamma times its pattern's, the three-space jump is learned on top, and the
    table written from it (the shipped shapes and classes with the new patterns) compiled into
    a copy of the core gives every move the model's share."""
    model, files, samples = fitted_patterns
    base = learn_priors.built_table_base()
    only = learn_priors.fit_patterns(learn_priors.extract(learn_priors.sgf_files([files[0].parent]), "Teacher"),
                                     iterations=10, base=base, pattern_min_count=3)
    assert only.base == base and len(only.pattern_keys) > 20
    idx = learn_priors.pattern_index(samples.patterns, only.pattern_keys)
    rated = idx < len(only.pattern_keys)
    team = learn_priors.team_gamma(samples, only)
    factor = team / samples.built
    assert factor[~rated] == pytest.approx(only.pattern_none)
    assert factor[rated] == pytest.approx(only.pattern_gamma[idx[rated]])
    # It explains the teacher better than the built-in table alone.
    assert (learn_priors.mean_log_share(samples, team)
            > learn_priors.mean_log_share(samples, samples.built.astype(float)) + 0.1)
    npos = int(samples.pos.max()) + 1
    assert_shares_match(probe_gammas(tmp_path, only, files), samples, team, npos)
    header = (tmp_path / "core" / "shape_gammas.h").read_text()
    assert header.startswith(base[:base.index("*/")].rstrip())      # the shipped shapes, kept
    assert base[base.index("*/") + 2:] in header
    assert "Large patterns fitted on top of them to the test's teacher" in header


def test_patterns_only_refuses_a_built_in_table_that_has_patterns(tmp_path, monkeypatch):
    """Patterns fitted on top of a table that already rates some would count them twice: the
    command names the table and what to do, writes nothing, and exits 1."""
    games = teacher_games(tmp_path / "g", n=4)
    args = [str(games), "--player", "Teacher", "--patterns-only", "-o", str(tmp_path / "out.h")]
    result = CliRunner().invoke(learn_priors.main, args)
    assert result.exit_code == 0, result.output     # the shipped table has none
    assert "built-in shapes and classes held fixed" in result.output
    assert "Large patterns fitted on top" in (tmp_path / "out.h").read_text()
    table = tmp_path / "shape_gammas.h"
    table.write_text(learn_priors.BUILT_TABLE.read_text().replace("#define PATTERN_COUNT 0",
                                                                  "#define PATTERN_COUNT 8"))
    with pytest.raises(learn_priors.TableHasPatterns, match="already rates large patterns"):
        learn_priors.built_table_base(table)
    monkeypatch.setattr(learn_priors, "BUILT_TABLE", table)
    (tmp_path / "out.h").unlink()
    result = CliRunner().invoke(learn_priors.main, args)
    assert result.exit_code == 1
    assert f"{table} already rates large patterns" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out.h").exists()


def test_games_that_share_an_opening_are_held_out_together(tmp_path):
    """A match plays each opening twice: with --skip N the games that open with the same N
    moves are one group for the held-out split, so no held-out position was trained on."""
    games = teacher_games(tmp_path, n=3)
    shutil.copy(games / "game-000.sgf", games / "game-000-again.sgf")
    files = learn_priors.sgf_files([games])
    apart = learn_priors.extract(files, "Teacher")
    together = learn_priors.extract(files, "Teacher", skip=4)
    assert len(set(apart.games.tolist())) == 4
    assert len(set(together.games.tolist())) == 3


def test_the_generated_table_is_c_the_core_compiles(tmp_path):
    out = tmp_path / "shape_gammas.h"
    result = CliRunner().invoke(learn_priors.main, [str(teacher_games(tmp_path / "g", n=12)),
                                                    "--player", "Teacher", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "held out, fitted table" in result.output and "wrote" in result.output
    assert "held out, table built in" in result.output   # the refit is compared with the table in use
    text = out.read_text()
    assert "SHAPE_KEYS" in text and "CLASS_GAMMAS[9][5]" in text
    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc, "a C compiler is needed to build the engine"
    src = tmp_path / "check.c"
    src.write_text('#include <stdint.h>\n#include "shape_gammas.h"\n'
                   "int main(void) { return !(sizeof SHAPE_KEYS == sizeof SHAPE_GAMMAS"
                   " && SHAPE_GAMMAS[0] > 0 && CLASS_GAMMAS[6][1] > 0"
                   " && sizeof PATTERN_HASHES / 8 == sizeof PATTERN_GAMMAS / 4"
                   " && (1 << PATTERN_HASH_BITS) >= 2 * PATTERN_COUNT && PATTERN_GAMMA_NONE > 0"
                   " && PATTERN_FINGERPRINT != 0 && PATTERN_BOARD_SIZE == 9); }\n")
    subprocess.run([cc, "-std=c11", "-Wall", "-Werror", "-o", str(tmp_path / "check"), str(src)],
                   check=True, cwd=tmp_path)
    assert subprocess.run([str(tmp_path / "check")]).returncode == 0


def test_skip_leaves_out_the_first_moves_of_every_game(tmp_path):
    """A match's generated opening is not the teacher's choice: --skip 10 drops the teacher's
    five moves among the first ten of each game, and nothing else."""
    files = learn_priors.sgf_files([teacher_games(tmp_path, n=6)])
    every = learn_priors.extract(files, "Teacher")
    later = learn_priors.extract(files, "Teacher", skip=10)
    assert int(every.pos.max()) + 1 - (int(later.pos.max()) + 1) == 6 * 5
    assert len(every.built) == len(every.keys) and (every.built > 0).all()


def test_the_table_built_in_is_scored_on_the_same_positions(tmp_path):
    """accuracy(samples, None) ranks by the core's own gammas: the shipped table favours a move
    next to the last one, as this teacher does, so it beats a uniform guess (21% in the top
    five against 8%)."""
    samples = learn_priors.extract(learn_priors.sgf_files([teacher_games(tmp_path)]), "Teacher")
    top1, top5 = learn_priors.accuracy(samples, None)
    assert top5 > 0.15                     # uniform over ~60 legal moves: 8%


def test_no_moves_of_the_player_is_a_clear_error(tmp_path):
    teacher_games(tmp_path, n=2)
    result = CliRunner().invoke(learn_priors.main, [str(tmp_path), "--player", "Nobody"])
    assert result.exit_code == 1
    assert "no moves of a player matching 'Nobody'" in result.output
    assert "Traceback" not in result.output
    # The library raises a named error; only the command turns it into a message and exit 1.
    with pytest.raises(learn_priors.NoSamples, match="matching 'Nobody'"):
        learn_priors.extract(learn_priors.sgf_files([tmp_path]), "Nobody")


def test_search_priors_follow_the_learned_table():
    """On the empty 9x9 board the shipped table prefers the third line or higher to the edge."""
    with GoEngine(size=9, seed=1) as e:
        priors = {c["move"]: c["prior"] for c in e.analyze("b", playouts=2000)["candidates"]}
    top = max(priors, key=priors.get)
    assert min(top[0], top[1], 8 - top[0], 8 - top[1]) >= 2
    edge = [p for p in priors if 0 in p or 8 in p]
    assert all(priors[p] < priors[top] for p in edge)
    assert len({round(v, 5) for v in priors.values()}) > 1


def shipped_table():
    """The gammas in engines/go/core/shape_gammas.h, read back from the C source."""
    import re
    from pathlib import Path

    import engines.go
    text = (Path(engines.go.__file__).parent / "core" / "shape_gammas.h").read_text()

    def numbers(name):
        body = re.search(name + r"[^=]*=\s*\{(.*?)\};", text, re.S).group(1)
        body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
        return [float(v.rstrip("f")) for v in re.findall(r"[-+0-9.e]+f?", body) if v.rstrip("f")]

    def scalar(name):
        return re.search(name + r" = ([-+0-9.e]+)[fu]?;", text).group(1)

    keys = [int(v) for v in numbers("SHAPE_KEYS")]
    rare = float(scalar("SHAPE_GAMMA_RARE"))
    classes = numbers(r"CLASS_GAMMAS\[9\]\[5\]")
    hashes = [int(v) for v in re.search(r"PATTERN_HASHES\[\] = \{(.*?)\};", text, re.S).group(1)
              .replace("u", "").replace(",", " ").split()]
    patterns = dict(zip(hashes, numbers("PATTERN_GAMMAS")))
    return (dict(zip(keys, numbers("SHAPE_GAMMAS"))), rare, classes, patterns,
            float(scalar("PATTERN_GAMMA_NONE")), int(scalar("PATTERN_FINGERPRINT")))


def test_the_shipped_table_was_made_for_this_cores_pattern_hashes():
    """Pattern hashes mean nothing to a core that hashes differently (other cells or keys)."""
    *_, fingerprint = shipped_table()
    assert fingerprint == lib.go_pattern_fingerprint() != 0


def test_the_search_reads_the_shipped_table_for_every_orientation():
    """The gamma the search gives each legal move is its shape's gamma times its classes'
    gammas times its largest rated pattern's gamma, as listed in the table (the runtime expands
    the canonical shape keys to all symmetries; the table lists every pattern variant)."""
    shapes, rare, classes, patterns, none, _ = shipped_table()
    assert len(shapes) > 100 and len(classes) == learn_priors.GROUPS * learn_priors.VALUES
    rng = random.Random(11)
    known = 0
    for _ in range(4):
        game = random_game(rng, moves=30)
        for f in SYMMETRIES:
            with GoEngine(size=9) as e:
                for color, p in game:
                    e.play(color, f(*p, 9))
                hashes = move_patterns(e)
                for (x, y), (key, cls) in move_classes(e).items():
                    want = shapes.get(key, rare)
                    known += key in shapes
                    for g, v in enumerate(cls):
                        want *= classes[g * learn_priors.VALUES + v]
                    pattern = none
                    for h in hashes[(x, y)][0]:          # the board as it stands, size by size
                        if h not in patterns:
                            break
                        pattern = patterns[h]
                    want *= pattern
                    assert lib.go_game_move_gamma(e._game, x, y) == pytest.approx(want, rel=1e-3)
    assert known > 100

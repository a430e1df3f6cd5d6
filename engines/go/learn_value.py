"""Learn a network for the Go search from self-play: who wins from a position (the value),
who owns each point at the end, and which move the search would choose (the policy).

    python -m engines.go.learn_value selfplay --games 3000 -o var/go-value/games.jsonl

`selfplay` plays the engine against itself at a small playout budget and appends each game to
a JSON-lines file as it ends (a rerun with the same file and seed plays only the games it does
not hold yet). Variety comes from the first moves: for SAMPLE_PLIES plies the move is drawn by
the search's visits rather than taken as the most visited. Unless settled (below), a game is
played out to two passes even where the engine would resign, so it ends in a position whose
owner of each point is known: the record keeps the final score (dead stones judged) and the
search's ownership of the last position, a second thing to learn besides the winner.

`--value` searches with the network the core was built with, so its games can teach the next
network (expert iteration).

    python -m engines.go.learn_value label var/runs/gnugo-* --player soloshop \
        -o var/go-value/labelled.jsonl

`label` turns games already played (SGF, such as a match's records against GNU Go) into
records: each game once, and with `--player` the games that player lost and as many it won;
one position in EVERY is searched again with the network at PLAYOUTS (several times what the
engine plays with: the teacher), whose visits teach the policy and whose estimate joins the
value's target. Self-play alone never meets the positions an opponent leads the engine into.

`--fast-playouts N` randomizes the playout cap (KataGo's playout cap randomization): after the
drawn first moves, a move is searched with the full PLAYOUTS only FULL_SHARE of the time and
with N playouts otherwise. Only the full searches teach the policy and the searched estimate;
every position still learns the game's result and ownership. At 800 and 160 playouts a game
costs half as much (1,860 games a CPU hour against 940 with the network), and games are the
value's scarce data: the positions of one game are nearly one example.

`--settle P` (on by default at 0.05) ends a game once SETTLE_PLIES searches in a row give the
same side at least 1 - P, and calls that side the winner, as AlphaGo Zero resigned its
self-play games: a game played out to two passes spends most of its moves after the result is
clear, in positions the network already calls (94% of them right from move 60 on). A share of
the games (CHECK_SHARE) is played on anyway, to count how often the call was wrong; `selfplay`
and `fit` report it. Those games' positions past the call are not learned from: a stopped
game has none. With the network at 800 and 160 playouts on 9x9, games stop at move 64
on average instead of 147, a core plays 2,640 of them an hour instead of 1,600, and 2 of 455
checked calls were wrong (bench/README.md, session 34).

A record: {"seed", "size", "komi", "playouts", "sample_plies", "max_plies", "value",
"moves": [[x, y] or null for a pass, ...],
"winrates": [the search's chance for the side to move before each move, ...],
"visits": [[[move, visits], ...] for each move: the search's visits of the root's children, a
move as y * size + x, size * size for a pass; null for a fast search's move],
(with --fast-playouts: "fast_playouts", "full_share"; a fast search's winrate is null too),
"winner": "b", "w" or null (a drawn count), "score" (black's, komi included), "ownership"
(row-major, black +1 to white -1), "resign_ply" (where the engine first called it lost, or
null); with --settle: "settle", "settle_plies", "check_share", "settled_ply" (the moves
played when the searches settled it, or null), "settled" (the side they called) and
"checked" (played on to check the call: the winner and score are the count's; otherwise a
settled game's winner is the call, its score null and its ownership the last search's);
from `label`: "source" (the SGF file, or a journal and "#" the game's index), "every",
"labelled" (true: the moves are the players', the visits the teacher's; null visits where it
did not search), the score null, the ownership the teacher's search of the final position and
the seed the holdout group of the opening)}.

    python -m engines.go.learn_value fit var/go-value/games.jsonl -o engines/go/core/value_weights.h
    python -m engines.go.learn_value score var/go-value/games.jsonl --weights OTHER.h

`fit` trains one network with three heads on every position of the decided games: the value
toward the game's result (blended with the search's estimate), the ownership toward the final
ownership, and the policy toward the self-play search's visits of each move (cross-entropy
over the empty points and a pass; records without visits teach the move the search chose).
The search evaluates it once per node it expands when asked to (`go_search_opts.value`): the
policy sets the children's priors, the value the node's. `--init HEADER` starts from a network
a fit wrote; a larger `--channels` or `--layers` grows it first (`grow`), so that a wider
network starts from what the smaller one learned. `score` reports on a written network what
`fit` reports on its own, on the same held-out games, so that generations compare on one set.
"""
from __future__ import annotations

import json
import multiprocessing
import random
import re
import sys
import time
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path

import click
import numpy as np

from engines.cbuild import c_float
from plumbing.cli import named_errors
from plumbing.errors import NamedError
from plumbing.files import append_line, atomic_write, read_json_lines


HEADER = Path(__file__).parent / "core" / "value_weights.h"   # the network the core is built with


class BadRecords(NamedError):
    """A game-record file that is not what `selfplay` writes."""


class BadHeader(NamedError):
    """A file given as a network that is not a header `fit` wrote."""


class NoTorch(NamedError):
    """Training needs PyTorch, which the engine itself does not."""


@dataclass(frozen=True)
class SelfPlay:
    """How one self-play game is played."""
    size: int = 9
    komi: float = 7.0
    playouts: int = 800
    sample_plies: int = 8        # moves drawn by the search's visits, for variety
    max_plies: int = 243         # 3 x the points: a game this long is cut (no winner)
    value: bool = False          # search with the learned network (the next round's teacher)
    fast_playouts: int = 0       # the other moves' playouts (0: every move is searched in full)
    full_share: float = 0.25     # with fast_playouts: the share of moves searched in full
    settle: float = 0.0          # end a game once SETTLE_PLIES searches in a row give one side at
    settle_plies: int = 6        # least 1 - SETTLE (0: play every game out to two passes) ...
    check_share: float = 0.1     # ... except this share of games, played on to check the call


def play_game(conf: SelfPlay, seed: int) -> dict:
    """One game of the engine against itself, as a record (see the module doc)."""
    from engines.go.engine import GoEngine

    rng = random.Random(f"go-value:{seed}")
    # its own stream, so that a game with settle 0 is the game it was before settling existed
    check = conf.settle > 0 and random.Random(f"go-value-check:{seed}").random() < conf.check_share
    eng = GoEngine(size=conf.size, komi=conf.komi, seed=seed, value=conf.value)
    moves, winrates, visits, resign_ply, passes, ownership = [], [], [], None, 0, None
    leaders, settled_ply, settled = [], None, None
    try:
        while passes < 2 and len(moves) < conf.max_plies and (settled is None or check):
            color = eng.to_move
            full = (not conf.fast_playouts or len(moves) < conf.sample_plies
                    or rng.random() < conf.full_share)
            eng.set_budget(playouts=conf.playouts if full else conf.fast_playouts)
            move, a = eng.genmove_analyzed(color)      # plays the move unless it resigns
            cands = [c for c in a["candidates"] if c["visits"] > 0] or a["candidates"]
            if len(moves) < conf.sample_plies:
                if move != "resign":
                    eng.undo()
                move = rng.choices([c["move"] for c in cands], weights=[c["visits"] for c in cands])[0]
                eng.play(color, move)
            elif move == "resign":
                resign_ply = len(moves) if resign_ply is None else resign_ply
                move = cands[0]["move"]
                eng.play(color, move)
            moves.append(list(move) if move else None)
            visits.append([[_index(c["move"], conf.size), c["visits"]] for c in cands] if full else None)
            winrates.append(round(a["winrate"], 3) if full else None)
            passes = passes + 1 if move is None else 0
            ownership = a["ownership"]
            leaders.append(_leader(a["winrate"], color, conf.settle))
            if (settled is None and len(moves) > conf.sample_plies and conf.settle
                    and len(leaders) >= conf.settle_plies
                    and len(set(leaders[-conf.settle_plies:])) == 1 and leaders[-1]):
                settled_ply, settled = len(moves), leaders[-1]
        score = eng.final_score() if passes == 2 else None
    finally:
        eng.close()
    winner = None if not score else ("b" if score > 0 else "w")
    if settled and not check:
        winner = settled         # the searches' call: the game stopped before a count
    setup = asdict(conf)
    if not conf.fast_playouts:       # records as before playout caps were randomized
        del setup["fast_playouts"], setup["full_share"]
    if not conf.settle:              # ... and as before games were settled early
        del setup["settle"], setup["settle_plies"], setup["check_share"]
    extra = {"settled_ply": settled_ply, "settled": settled, "checked": check} if conf.settle else {}
    return {"seed": seed, **setup, "moves": moves, "winrates": winrates, "visits": visits,
            "winner": winner, "score": score, "resign_ply": resign_ply, **extra,
            "ownership": [round(v, 3) for row in ownership for v in row] if ownership else None}


def _leader(winrate: float, color: str, settle: float) -> str | None:
    """The side a search gives at least 1 - SETTLE, from its WINRATE for COLOR, or None."""
    if winrate <= settle:
        return "w" if color == "b" else "b"
    return color if winrate >= 1 - settle else None


def settle_report(records) -> str | None:
    """How many games were settled early, and how often the games played on to check the call
    ended the other way (the labels' error), or None when no record was settled."""
    settled = [r for r in records if r.get("settled")]
    if not settled:
        return None
    stopped = [r for r in settled if not r.get("checked")]
    checked = [r for r in settled if r.get("checked") and r.get("winner")]
    wrong = sum(r["winner"] != r["settled"] for r in checked)
    at = sum(r["settled_ply"] for r in settled) / len(settled)
    called = (f"{wrong} of the {len(checked)} played on to check ended the other way "
              f"({wrong / len(checked):.1%})" if checked else "none played on to check yet")
    return (f"settled {len(settled)} of {len(records)} games early (at move {at:.0f} on average; "
            f"{len(stopped)} stopped there); {called}")


def _index(move, size: int) -> int:
    """A move as the network's policy numbers it: y * size + x, size * size for a pass."""
    return move[1] * size + move[0] if move else size * size


def _play(task):
    return play_game(*task)


def read_records(path: Path, repair: bool = False) -> list[dict]:
    """The game records in PATH (none when it does not exist yet); a game cut off by a killed
    run is left out, and with REPAIR (the writer, before it appends) cut off the file."""
    if not path.exists():
        return []
    return read_json_lines(path, BadRecords, "cut the line, or write the file with `learn_value "
                           "selfplay`", repair=repair)


def selfplay(conf: SelfPlay, games: int, seed: int, jobs: int, out: Path, echo=print) -> int:
    """Play the games SEED..SEED+GAMES-1 that OUT does not hold yet on JOBS processes,
    appending each record as it ends; returns how many were played."""
    done = {r["seed"] for r in read_records(out, repair=True)}
    tasks = [(conf, s) for s in range(seed, seed + games) if s not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    start, played = time.monotonic(), 0
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for rec in pool.imap_unordered(_play, tasks):
            append_line(out, json.dumps(rec))
            played += 1
            if played % max(1, len(tasks) // 50) == 0 or played == len(tasks):
                rate = played / max(time.monotonic() - start, 1e-9) * 3600
                echo(f"selfplay: {played}/{len(tasks)} games, {rate:.0f} games/h")
    if report := settle_report(read_records(out)):
        echo(f"selfplay: {out}: {report}")
    return played


# ---- match games, searched again by a stronger search -------------------------------------

@dataclass(frozen=True)
class Teacher:
    """How `label` searches the positions of a game record."""
    playouts: int = 4000         # several times what the engine plays with: the teacher
    every: int = 4               # one position in EVERY (neighbours teach nearly the same)
    value: bool = True           # search with the network the core was built with


def _opening_key(moves) -> int:
    """The holdout group of a game: games that start with the same four moves are held out
    together (a match plays each generated opening more than once)."""
    return zlib.crc32(json.dumps(moves[:4]).encode())


def game_records(paths, warn=print):
    """(source, GameRecord) of every game in PATHS: SGF files, folders of them, and the games a
    match's journal.jsonl holds (a file, or found in a folder; source: the journal's path and
    "#" the game's index), which is all a run kept in git needs to keep. Unreadable ones are
    named to WARN and left out."""
    from engines.go import sgf
    from engines.go.learn_priors import sgf_files
    from engines.match.journal import JOURNAL, Journal, JournalError

    paths = [Path(p) for p in paths]
    journals = [p for p in paths if p.name == JOURNAL]
    journals += [j for p in paths if p.is_dir() for j in sorted(p.rglob(JOURNAL))]
    for path in sgf_files(p for p in paths if p.name != JOURNAL):
        try:
            yield path, sgf.load(path)
        except (OSError, sgf.SgfError) as e:
            warn(f"label: {path} skipped: {e}")
    for journal in journals:
        try:
            games = Journal(journal.parent).games("go")
        except JournalError as e:
            warn(f"label: {journal} skipped: {e}")
            continue
        for g in games:
            if g.get("record_format") != "sgf" or not g.get("record"):
                continue
            try:
                yield Path(f"{journal}#{g['index']}"), sgf.loads(g["record"])
            except sgf.SgfError as e:
                warn(f"label: {journal} game {g['index']} skipped: {e}")


def match_games(paths, player: str | None = None, warn=print) -> list[tuple]:
    """The decided games in PATHS (game_records), each once however often it was played:
    (source, [(colour, point or None), ...], winner "b"/"w", size, komi). With PLAYER (a PB/PW
    name containing it, either case; games it played against itself are left out): the games
    it lost, and as many it won (drawn at random, the same on every run), so that the positions
    of lost games are half of what is learned."""
    seen, games = set(), []
    for path, rec in game_records(paths, warn):
        key = (rec.size, tuple(rec.moves))
        if rec.result[:2] not in ("B+", "W+") or rec.setup_black or rec.setup_white or key in seen:
            continue   # no winner to teach (a drawn count, no result), or handicap stones
        seen.add(key)
        winner = rec.result[0].lower()
        sides = {c for c, name in (("b", rec.black), ("w", rec.white))
                 if player and player.lower() in name.lower()}
        if player and len(sides) != 1:
            continue
        games.append(((path, rec.moves, winner, rec.size, rec.komi), sides == {winner}))
    if not player:
        return [game for game, _ in games]
    lost = [game for game, player_won in games if not player_won]
    won = [game for game, player_won in games if player_won]
    random.Random(len(games)).shuffle(won)
    return sorted(lost + won[:len(lost)])


def label_game(teacher: Teacher, path: Path, moves: list, winner: str, size: int,
               komi: float) -> dict:
    """A game record searched again: one position in TEACHER.every (from the third on) gets a
    search at TEACHER.playouts, whose visits teach the policy and whose estimate joins the
    value's target; the game's result teaches every position, and the search of the final
    position the ownership. The moves are the players', not the search's: `positions` learns
    the visits as they are (`"labelled": true`)."""
    from engines.go.engine import GoEngine, IllegalMove

    visits, winrates = [None] * len(moves), [None] * len(moves)
    seed = zlib.crc32(str(path).encode())
    with GoEngine(size=size, komi=komi, seed=seed, value=teacher.value) as eng:
        eng.set_budget(playouts=teacher.playouts)
        for ply, (color, point) in enumerate(moves):
            if ply >= 2 and ply % teacher.every == seed % teacher.every:
                a = eng.analyze(color)
                visits[ply] = [[_index(c["move"], size), c["visits"]]
                               for c in a["candidates"] if c["visits"]]
                winrates[ply] = round(a["winrate"], 3)
            try:
                eng.play(color, point)
            except IllegalMove as e:
                return {"source": str(path), "skipped": f"move {ply + 1} ({color} {point}): {e}"}
        ownership = eng.analyze(eng.to_move)["ownership"]
    return {"seed": _opening_key(moves), "source": str(path), "size": size, "komi": komi,
            "playouts": teacher.playouts, "every": teacher.every, "value": teacher.value,
            "labelled": True, "moves": [list(p) if p else None for _, p in moves],
            "winrates": winrates, "visits": visits, "winner": winner, "score": None,
            "resign_ply": None, "ownership": [round(v, 3) for row in ownership for v in row]}


def _label(task):
    return label_game(*task)


def label(teacher: Teacher, games, jobs: int, out: Path, echo=print) -> int:
    """Search GAMES (from match_games) that OUT does not hold yet on JOBS processes, appending
    each record as it is done (a game with an illegal move is named and skipped); returns how
    many were searched."""
    done = {r.get("source") for r in read_records(out, repair=True)}
    tasks = [(teacher, *game) for game in games if str(game[0]) not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    start, n, written = time.monotonic(), 0, 0
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for rec in pool.imap_unordered(_label, tasks):
            n += 1
            if "skipped" in rec:      # not written: a rerun names it again
                echo(f"label: {rec['source']} skipped: {rec['skipped']}")
            else:
                append_line(out, json.dumps(rec))
                written += 1
            if n % max(1, len(tasks) // 50) == 0 or n == len(tasks):
                rate = n / max(time.monotonic() - start, 1e-9) * 3600
                echo(f"label: {n}/{len(tasks)} games, {rate:.0f} games/h")
    return written


# ---- positions ----------------------------------------------------------------------------

@dataclass
class Positions:
    planes: np.ndarray   # (n, GO_VALUE_PLANES, size, size) uint8
    won: np.ndarray      # (n,) 1.0 when the side to move won
    owner: np.ndarray    # (n, size, size) final ownership, +1 the side to move's
    game: np.ndarray     # (n,) index of the game (held-out games are whole games)
    searched: np.ndarray  # (n,) the self-play search's chance for the side to move, NaN if not recorded
    move: np.ndarray     # (n,) the move the self-play search chose: y * size + x, size * size a pass
    policy: np.ndarray   # (n, size * size + 1) float16: what the policy learns, the self-play
    #                      search's visits as shares (the chosen move alone where not recorded;
    #                      all 0 after a fast search, which teaches the policy nothing)
    ply: np.ndarray      # (n,) moves played before the position
    labelled: np.ndarray  # (n,) bool: a match game's position (`label`), not self-play's

    @property
    def taught(self) -> np.ndarray:
        """The positions whose policy row teaches something (not after a fast search)."""
        return self.policy.max(axis=1) > 0

    def subset(self, mask: np.ndarray) -> "Positions":
        return Positions(self.planes[mask], self.won[mask], self.owner[mask], self.game[mask],
                         self.searched[mask], self.move[mask], self.policy[mask], self.ply[mask],
                         self.labelled[mask])

    def target(self, search_weight: float, match_result: bool = True) -> np.ndarray:
        """What the value learns: the game's result, blended with the self-play search's own
        estimate where it was recorded (less noisy than one game's result). Without
        MATCH_RESULT a match game's position learns the teacher's estimate alone, and nothing
        (NaN) where the teacher did not search."""
        mix = (1 - search_weight) * self.won + search_weight * self.searched
        out = np.where(np.isnan(self.searched), self.won, mix)
        if not match_result:
            out = np.where(self.labelled, self.searched, out)
        return out.astype(np.float32)


def decided(records) -> list[dict]:
    """The games positions() learns from: a winner and a final ownership."""
    return [r for r in records if r.get("winner") in ("b", "w") and r.get("ownership")]


def positions(records, after_resign: int = 10, echo=None) -> Positions:
    """Every position of every decided game, up to AFTER_RESIGN plies past the first point
    where the engine called it lost (after that the loser's moves tell little)."""
    from engines.go._core import ffi, lib
    from engines.go.engine import GoEngine

    sizes = {r["size"] for r in records}
    if len(sizes) > 1:
        raise BadRecords(f"the records mix board sizes {sorted(sizes)}: learn one size at a time")
    kept = decided(records)
    if not kept:
        raise BadRecords("no decided game with a final ownership: play games with `selfplay`")
    n = kept[0]["size"]
    buf = ffi.new("float[]", lib.GO_VALUE_PLANES * n * n)
    planes, won, owner, game, searched, chosen, policy, plies, labelled = ([] for _ in range(9))
    for gi, rec in enumerate(kept):
        final = np.array(rec["ownership"], dtype=np.float32).reshape(n, n)
        winrates = rec.get("winrates") or [None] * len(rec["moves"])
        visits = rec.get("visits")        # None: not recorded; an entry None: a fast search's
        stop = len(rec["moves"]) if rec["resign_ply"] is None else rec["resign_ply"] + after_resign
        if rec.get("settled_ply") is not None:      # a game played on past it: as if it stopped
            stop = min(stop, rec["settled_ply"])
        with GoEngine(size=n, komi=rec["komi"]) as eng:
            for ply, move in enumerate(rec["moves"][:stop]):
                lib.go_game_value_planes(eng.game, buf)
                planes.append(np.frombuffer(ffi.buffer(buf), dtype=np.float32).astype(np.uint8))
                me = eng.to_move
                won.append(1.0 if rec["winner"] == me else 0.0)
                owner.append(final if me == "b" else -final)
                game.append(gi)
                plies.append(ply)
                labelled.append(bool(rec.get("labelled")))
                searched.append(float("nan") if winrates[ply] is None else winrates[ply])
                chosen.append(_index(move, n))
                # drawn for variety, or a player's move searched again (label): not the
                # search's own choice, so its visits teach as they are
                drawn = ply < rec.get("sample_plies", 0) or rec.get("labelled")
                recorded = visits[ply] if visits else None
                if visits and recorded is None:      # a fast search: nothing for the policy
                    policy.append(np.zeros(n * n + 1, np.float16))
                else:
                    policy.append(_shares(_taught(recorded, chosen[-1], not drawn), n))
                eng.play(me, tuple(move) if move else None)
        if echo and (gi + 1) % 500 == 0:
            echo(f"positions: {gi + 1}/{len(kept)} games, {len(won)} positions")
    return Positions(np.stack(planes).reshape(-1, lib.GO_VALUE_PLANES, n, n),
                     np.array(won, dtype=np.float32), np.stack(owner), np.array(game),
                     np.array(searched, dtype=np.float32), np.array(chosen, dtype=np.int16),
                     np.stack(policy), np.array(plies, dtype=np.int16), np.array(labelled, dtype=bool))


def _taught(visits, move: int, searched: bool):
    """What the policy learns at a ply: the search's VISITS, or the MOVE alone where they were
    not recorded, or where the search played another move than its most visited one by rule
    (a settling capture, a pass when the game is won) while it chose by its visits (SEARCHED:
    not one of the first moves drawn for variety, nor a player's move that `label` searched)."""
    counts = dict(visits or [])
    if not counts or (searched and counts.get(move, -1) < max(counts.values())):
        return [[move, 1]]
    return visits


def _shares(visits, size: int) -> np.ndarray:
    """A record's [[move, visits], ...] as each move's share of the visits."""
    row = np.zeros(size * size + 1, np.float32)
    for move, n in visits:
        row[move] += n
    return (row / row.sum()).astype(np.float16)


# ---- the network --------------------------------------------------------------------------

@dataclass(frozen=True)
class Shape:
    channels: int = 32
    layers: int = 4
    hidden: int = 32


def _he(rng: np.random.Generator, *dims: int, fan: int) -> np.ndarray:
    """Random weights of shape DIMS at He's scale for FAN inputs."""
    return (rng.standard_normal(dims) * np.sqrt(2.0 / fan)).astype(np.float32)


def init_weights(shape: Shape, planes: int, seed: int = 0) -> dict:
    """Random weights (He-scaled) in the layout core/value.c reads; the last layer starts
    small, so an untrained net says about 50%."""
    rng = np.random.default_rng(seed)
    c, h = shape.channels, shape.hidden

    def he(*dims, fan):
        return _he(rng, *dims, fan=fan)

    return {"conv0_w": he(c, planes, 3, 3, fan=9 * planes),
            "conv_w": he(shape.layers - 1, c, c, 3, 3, fan=9 * c) * 0.5,
            "conv_b": np.zeros((shape.layers, c), np.float32),
            "own_w": he(c, fan=c), "own_b": np.zeros((), np.float32),
            "fc1_w": he(h, c + 1, fan=c + 1), "fc1_b": np.zeros(h, np.float32),
            "fc2_w": he(h, fan=h) * 0.1, "fc2_b": np.zeros((), np.float32),
            "pol_w": he(c, fan=c) * 0.1, "pol_b": np.zeros((), np.float32),
            "pass_w": np.zeros(c + 1, np.float32), "pass_b": np.float32(-3.0)}


def grow(w: dict, shape: Shape, seed: int = 0, planes: int | None = None) -> dict:
    """W's network made SHAPE's size, reading PLANES planes (default: W's), computing what W
    computes, so that a larger network starts from what a smaller one learned rather than from
    nothing.
    - More planes (go_value_planes adds new ones last): read with zero weights, so the same
      outputs (exactly in floats; the core's 16-bit rounding of the weights counts the inputs,
      so about 1e-3 apart there); their gradient is the input times the first layer's, so
      they learn.
    - More channels: the new ones are drawn at random (He-scaled, as init_weights) from every
      channel, and nothing reads them yet (zero weights from them into the old channels and
      the heads): the same outputs exactly, and the heads' gradients reach them at once.
    - More layers: residual layers appended after the old ones, drawn at a thousandth of
      init_weights' scale, so that each adds almost nothing (x + relu(conv x)) at first; zero
      weights would add exactly nothing, but a relu at exactly zero passes no gradient."""
    rng = np.random.default_rng(seed)
    c, layers = w["conv_b"].shape[1], len(w["conv_b"])
    C, L, had = shape.channels, shape.layers, w["conv0_w"].shape[1]
    planes = had if planes is None else planes
    if C < c or L < layers or planes < had or shape.hidden != len(w["fc1_b"]):
        raise ValueError(f"cannot grow {c} channels x {layers} layers (hidden {len(w['fc1_b'])}, "
                         f"{had} planes) into {C} x {L} (hidden {shape.hidden}, {planes} planes)")

    g = {k: np.array(v, np.float32) for k, v in w.items()}
    conv0 = np.zeros((C, planes, 3, 3), np.float32)
    conv0[:c, :had] = g["conv0_w"]
    conv0[c:] = _he(rng, C - c, planes, 3, 3, fan=9 * planes)
    conv = np.zeros((L - 1, C, C, 3, 3), np.float32)
    conv[:layers - 1, :c, :c] = g["conv_w"]
    conv[:layers - 1, c:] = _he(rng, layers - 1, C - c, C, 3, 3, fan=9 * C) * 0.5  # into the new
    conv[layers - 1:] = _he(rng, L - layers, C, C, 3, 3, fan=9 * C) * 1e-3
    bias = np.zeros((L, C), np.float32)
    bias[:layers, :c] = g["conv_b"]
    pad = np.zeros(C - c, np.float32)
    fc1 = g["fc1_w"]                  # (hidden, channels + 1): the channels' means, then ownership's
    fc1 = np.concatenate([fc1[:, :c], np.zeros((len(fc1), C - c), np.float32), fc1[:, c:]], axis=1)
    return {**g, "conv0_w": conv0, "conv_w": conv, "conv_b": bias, "fc1_w": fc1,
            "own_w": np.concatenate([g["own_w"], pad]), "pol_w": np.concatenate([g["pol_w"], pad]),
            "pass_w": np.concatenate([g["pass_w"][:c], pad, g["pass_w"][c:]])}


def quantized_weights(k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A 3x3 convolution's weights (out, in, 3, 3) as core/value.c quantizes them (value_scale):
    (the scale of each output plane (out,), the weights at it, whole numbers). The scale keeps
    the largest |w| at most 32767 and the sum of |w| below 65536, so that sums of products
    with 16-bit inputs stay below 2^31; the sum is taken in order in float64, as in C."""
    flat = np.abs(k.reshape(len(k), -1).astype(np.float64))
    top, total = flat.max(axis=1), np.add.accumulate(flat, axis=1)[:, -1]
    with np.errstate(divide="ignore"):
        ws = np.where(total > 0, np.minimum(32767.0 / top, (65536.0 - flat.shape[1]) / total), 1.0)
    ws = ws.astype(np.float32)
    return ws, np.floor(k * ws[:, None, None, None] + np.float32(0.5))


def _taps(x: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The 3x3 convolution of x (n, in, size, size) by k (out, in, 3, 3), zero padding, no bias,
    in x's and k's dtype."""
    pad = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    n = x.shape[-1]
    out = np.zeros((x.shape[0], k.shape[0], n, n), x.dtype)
    for dy in range(3):
        for dx in range(3):
            out += np.einsum("oi,niyx->noyx", k[:, :, dy, dx], pad[:, :, dy:dy + n, dx:dx + n])
    return out


def _trunk(w: dict, planes: np.ndarray, quantized: bool = True) -> np.ndarray:
    """The trunk's output (n, channels, size, size) in numpy, as core/value.c computes it: each
    layer's input quantized to 16-bit integers at 32767 over its largest value (per position),
    the weights by quantized_weights, the integer sums (exact in float64) scaled back to float32.
    Not QUANTIZED: in float32 throughout, as trained."""

    def layer(x, k, b):
        if not quantized:
            return np.maximum(_taps(x, k) + b[None, :, None, None], 0)
        top = x.max(axis=(1, 2, 3))
        with np.errstate(divide="ignore"):
            a = np.where(top > 0, np.float32(32767) / top, np.float32(1)).astype(np.float32)
        xq = np.floor(x * a[:, None, None, None] + np.float32(0.5)).astype(np.float64)
        ws, kq = quantized_weights(k)
        inv = np.float32(1) / (a[:, None] * ws[None, :])
        acc = _taps(xq, kq.astype(np.float64)).astype(np.float32)
        return np.maximum(acc * inv[:, :, None, None] + b[None, :, None, None], np.float32(0))

    h = layer(planes.astype(np.float32), w["conv0_w"], w["conv_b"][0])
    for k in range(len(w["conv_w"])):
        h = h + layer(h, w["conv_w"][k], w["conv_b"][k + 1])
    return h


def _pooled(w: dict, h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    own = np.tanh(np.einsum("c,ncyx->nyx", w["own_w"], h) + w["own_b"])
    return np.concatenate([h.mean(axis=(2, 3)), own.mean(axis=(1, 2))[:, None]], axis=1), own


def forward(w: dict, planes: np.ndarray, quantized: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The network in numpy, as core/value.c computes it: (chance the side to move wins (n,),
    ownership (n, size, size)) for planes (n, GO_VALUE_PLANES, size, size). Not QUANTIZED: as
    trained, in floats."""
    feat, own = _pooled(w, _trunk(w, planes, quantized))
    hid = np.maximum(feat @ w["fc1_w"].T + w["fc1_b"], 0)
    return 1 / (1 + np.exp(-(hid @ w["fc2_w"] + w["fc2_b"]))), own


def policy_logits(w: dict, planes: np.ndarray, quantized: bool = True) -> np.ndarray:
    """The policy head in numpy, as core/value.c computes it: (n, size * size + 1) logits of
    the side to move's next move, row-major, a pass last; occupied points -inf. Not QUANTIZED:
    as trained, in floats."""
    h = _trunk(w, planes, quantized)
    feat, _ = _pooled(w, h)
    n, size = h.shape[0], h.shape[-1]
    pts = (np.einsum("c,ncyx->nyx", w["pol_w"], h) + w["pol_b"]).reshape(n, -1)
    pts = np.where(planes[:, :2].sum(axis=1).reshape(n, -1) > 0, -np.inf, pts)
    return np.concatenate([pts, (feat @ w["pass_w"] + w["pass_b"])[:, None]], axis=1)


def _c_array(name: str, values: np.ndarray) -> list[str]:
    flat = [c_float(v, 7) for v in np.asarray(values, dtype=np.float32).ravel()]
    rows = [", ".join(flat[i:i + 8]) + "," for i in range(0, len(flat), 8)]
    return [f"static const float {name}[{len(flat)}] = {{", *("    " + r for r in rows), "};"]


def write_header(w: dict, size: int, path: Path, source: str) -> None:
    """core/value_weights.h for weights W (the layout of init_weights)."""
    layers, c = len(w["conv_b"]), w["conv_b"].shape[1]
    lines = ["/* Generated by engines/go/learn_value.py - do not edit. The network's weights (value,",
             f"   ownership and policy), learned from {source}. */",
             f"#define VALUE_TRAINED_SIZE {size}",
             f"#define VALUE_PLANES {w['conv0_w'].shape[1]}",
             f"#define VALUE_CHANNELS {c}",
             f"#define VALUE_LAYERS {layers}",
             f"#define VALUE_HIDDEN {w['fc1_b'].shape[0]}",
             f"#define VALUE_OWN_B {c_float(w['own_b'], 7)}",
             f"#define VALUE_FC2_B {c_float(w['fc2_b'], 7)}",
             *_c_array("VALUE_CONV0_W", w["conv0_w"]),
             *_c_array("VALUE_CONV_W", w["conv_w"]),
             *_c_array("VALUE_CONV_B", w["conv_b"]),
             *_c_array("VALUE_OWN_W", w["own_w"]),
             *_c_array("VALUE_FC1_W", w["fc1_w"]),
             *_c_array("VALUE_FC1_B", w["fc1_b"]),
             *_c_array("VALUE_FC2_W", w["fc2_w"]),
             "#define VALUE_POLICY 1",
             f"#define VALUE_POL_B {c_float(w['pol_b'], 7)}",
             f"#define VALUE_PASS_B {c_float(w['pass_b'], 7)}",
             *_c_array("VALUE_POL_W", w["pol_w"]),
             *_c_array("VALUE_PASS_W", w["pass_w"])]
    atomic_write(path, "\n".join(lines) + "\n")


def header_source(path: Path) -> str:
    """What the network in a header write_header wrote learned from (its comment's words)."""
    m = re.search(r"learned from (.*?)\. \*/", path.read_text(), re.S)
    return " ".join(m.group(1).split()) if m else f"the network in {path}"


def trained_on(kept: list[dict], game: np.ndarray, init: Path | None) -> str:
    """A fitted header's source: these games (KEPT, and GAME: each position's index in it),
    self-play and match games searched again by `label` (a file given twice counts twice), then
    what --init's network had learned from."""
    per_game = np.bincount(game, minlength=len(kept))
    parts = []
    for labelled, name in ((False, "self-play games"), (True, "match games searched again")):
        idx = [i for i, r in enumerate(kept) if bool(r.get("labelled")) == labelled]
        distinct = len({kept[i].get("source") for i in idx}) if labelled else len(idx)
        if idx:
            parts.append(f"{int(per_game[idx].sum())} positions of {len(idx)} {name}"
                         + (f" ({distinct} distinct)" if distinct < len(idx) else ""))
    these = " and ".join(parts)
    return f"{these}, after {header_source(init)}" if init else these


def read_header(path: Path) -> tuple[int, dict]:
    """(trained size, weights) of a header write_header wrote: the weights a core was built with."""
    text = path.read_text()
    arrays = {m.group(1): np.array([float(v.rstrip("f")) for v in m.group(2).split(",") if v.strip()],
                                   np.float32)
              for m in re.finditer(r"static const float (\w+)\[\d+\] = \{(.*?)\};", text, re.S)}
    defs = {m.group(1): m.group(2) for m in re.finditer(r"#define (\w+) (\S+)", text)}
    missing = [n for n in ("VALUE_CHANNELS", "VALUE_LAYERS", "VALUE_TRAINED_SIZE") if n not in defs] + \
              [n for n in ("VALUE_CONV0_W", "VALUE_CONV_W", "VALUE_FC1_W") if n not in arrays]
    if missing:
        raise BadHeader(f"{path} is not a network header `learn_value fit -o` wrote (it has no "
                        f"{', '.join(missing)}): give one it wrote, such as engines/go/core/value_weights.h")
    c, layers = int(defs["VALUE_CHANNELS"]), int(defs["VALUE_LAYERS"])
    w = {"conv0_w": arrays["VALUE_CONV0_W"].reshape(c, -1, 3, 3),
         "conv_w": arrays["VALUE_CONV_W"].reshape(layers - 1, c, c, 3, 3),
         "conv_b": arrays["VALUE_CONV_B"].reshape(layers, c),
         "own_w": arrays["VALUE_OWN_W"], "own_b": np.float32(defs["VALUE_OWN_B"].rstrip("f")),
         "fc1_w": arrays["VALUE_FC1_W"].reshape(-1, c + 1), "fc1_b": arrays["VALUE_FC1_B"],
         "fc2_w": arrays["VALUE_FC2_W"], "fc2_b": np.float32(defs["VALUE_FC2_B"].rstrip("f")),
         "pol_w": arrays["VALUE_POL_W"], "pol_b": np.float32(defs["VALUE_POL_B"].rstrip("f")),
         "pass_w": arrays["VALUE_PASS_W"], "pass_b": np.float32(defs["VALUE_PASS_B"].rstrip("f"))}
    return int(defs["VALUE_TRAINED_SIZE"]), w


# ---- training (PyTorch: `pip install torch==2.13.0`, CPU build) ---------------------------

def _torch():
    try:
        import torch
    except ImportError:
        raise NoTorch("training needs PyTorch: pip install torch==2.13.0 (the CPU build)") from None
    return torch


def _net(torch, w: dict):
    """A torch module holding W (init_weights' layout), computing what forward() does."""
    nn, F = torch.nn, torch.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.p = nn.ParameterDict({k: nn.Parameter(torch.tensor(np.asarray(v))) for k, v in w.items()})

        def forward(self, x):
            p = self.p
            h = F.relu(F.conv2d(x, p["conv0_w"], p["conv_b"][0], padding=1))
            for layer in range(p["conv_w"].shape[0]):
                h = h + F.relu(F.conv2d(h, p["conv_w"][layer], p["conv_b"][layer + 1], padding=1))
            own = torch.tanh(torch.einsum("c,ncyx->nyx", p["own_w"], h) + p["own_b"])
            feat = torch.cat([h.mean(dim=(2, 3)), own.mean(dim=(1, 2))[:, None]], dim=1)
            hid = F.relu(feat @ p["fc1_w"].T + p["fc1_b"])
            empty = 1 - x[:, 0] - x[:, 1]            # own and opponent's stones are planes 0, 1
            pts = torch.einsum("c,ncyx->nyx", p["pol_w"], h) + p["pol_b"]
            pts = (pts - 1e4 * (1 - empty)).flatten(1)
            pol = torch.cat([pts, (feat @ p["pass_w"] + p["pass_b"])[:, None]], dim=1)
            return hid @ p["fc2_w"] + p["fc2_b"], own, pol

    return Net()


def _symmetry(torch, x, k: int):
    """One of the 8 rotations and reflections of the last two axes."""
    x = torch.rot90(x, k % 4, dims=(-2, -1))
    return torch.flip(x, dims=(-1,)) if k >= 4 else x


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy, each chance held within [0.005, 0.995] (a search that rounds a lost
    position to 0 is not charged without bound for the odd comeback)."""
    p = np.clip(p, 0.005, 0.995)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def symmetric(x: np.ndarray, k: int) -> np.ndarray:
    """_symmetry in numpy: np.rot90 turns the way torch.rot90 does."""
    x = np.rot90(x, k % 4, axes=(-2, -1))
    return np.flip(x, axis=-1) if k >= 4 else x


def policy_seen(policy: np.ndarray, size: int, k: int) -> np.ndarray:
    """Rows of a policy (size * size points row-major, then a pass) seen through symmetry K:
    each point's share goes where symmetric() takes the planes' point; a pass stays a pass."""
    pts = symmetric(policy[:, :-1].reshape(-1, size, size), k).reshape(len(policy), -1)
    return np.concatenate([pts, policy[:, -1:]], axis=1)


def train(pos: Positions, shape: Shape, epochs: float, batch: int = 256, lr: float = 2e-3,
          own_weight: float = 1.0, search_weight: float = 0.0, policy_weight: float = 1.0,
          match_result: bool = True, seed: int = 0, init: dict | None = None, echo=print) -> dict:
    """Weights fitted to POS (value: cross-entropy with pos.target(SEARCH_WEIGHT, MATCH_RESULT)
    where it is a number; ownership: squared error, weighted OWN_WEIGHT; policy: cross-entropy
    with pos.policy, the self-play search's visits, weighted POLICY_WEIGHT), each batch seen
    through a random symmetry; Adam with a one-cycle learning rate. Starts from INIT (weights
    of SHAPE) when given, else at random."""
    torch = _torch()
    torch.manual_seed(seed)
    net = _net(torch, init if init is not None else init_weights(shape, pos.planes.shape[1], seed))
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-5)
    steps = max(1, int(epochs * len(pos.won) / batch))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    rng = np.random.default_rng(seed)
    target = pos.target(search_weight, match_result)
    valued = ~np.isnan(target)
    target = np.nan_to_num(target)
    start, seen, seen_p, size = time.monotonic(), 0.0, 0.0, pos.planes.shape[-1]
    for step in range(steps):
        idx = rng.integers(0, len(pos.won), batch)
        k = int(rng.integers(8))
        x = _symmetry(torch, torch.from_numpy(pos.planes[idx].astype(np.float32)), k)
        own_t = _symmetry(torch, torch.from_numpy(pos.owner[idx]), k)
        logit, own, pol = net(x)
        mask = torch.from_numpy(valued[idx].astype(np.float32))
        loss_v = (torch.nn.functional.binary_cross_entropy_with_logits(
            logit, torch.from_numpy(target[idx]), reduction="none") * mask).sum() / mask.sum().clamp(min=1)
        pol_t = torch.from_numpy(policy_seen(pos.policy[idx].astype(np.float32), size, k))
        # cross-entropy over the rows that teach (a fast search's row is all 0)
        loss_p = -(pol_t * torch.log_softmax(pol, dim=1)).sum() / pol_t.sum().clamp(min=1)
        loss = loss_v + own_weight * ((own - own_t) ** 2).mean() + policy_weight * loss_p
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        seen = 0.98 * seen + 0.02 * loss_v.item() if step else loss_v.item()
        seen_p = 0.98 * seen_p + 0.02 * loss_p.item() if step else loss_p.item()
        if echo and (step + 1) % max(1, steps // 20) == 0:
            echo(f"train: step {step + 1}/{steps}, value log loss {seen:.4f}, policy {seen_p:.3f}, "
                 f"{(step + 1) * batch / (time.monotonic() - start):.0f} positions/s")
    return {k: v.detach().numpy().copy() for k, v in net.p.items()}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Learn a value for the Go search from self-play (see the module doc)."""


@main.command("selfplay")
@click.option("--games", default=3000, show_default=True, type=click.IntRange(1))
@click.option("--playouts", default=SelfPlay.playouts, show_default=True, type=click.IntRange(1),
              help="The search's playouts a move.")
@click.option("--size", default=9, show_default=True, type=click.Choice(["7", "9", "13", "19"]))
@click.option("--komi", default=SelfPlay.komi, show_default=True)
@click.option("--sample-plies", default=SelfPlay.sample_plies, show_default=True,
              type=click.IntRange(0), help="First moves drawn by the search's visits, for variety.")
@click.option("--value/--no-value", default=False, show_default=True,
              help="Search with the learned network the core was built with (expert iteration: "
                   "its games teach the next network).")
@click.option("--fast-playouts", default=0, show_default=True, type=click.IntRange(0),
              help="Search the moves not chosen for a full search with this many playouts; they "
                   "teach the value but not the policy (0: every move in full).")
@click.option("--full-share", default=SelfPlay.full_share, show_default=True,
              type=click.FloatRange(0, 1, min_open=True),
              help="With --fast-playouts: the share of moves searched with the full PLAYOUTS.")
@click.option("--settle", default=0.05, show_default=True, type=click.FloatRange(0, 0.5, max_open=True),
              help="End a game once --settle-plies searches in a row give one side at least "
                   "1 - SETTLE, that side the winner (0: play every game out to two passes).")
@click.option("--settle-plies", default=SelfPlay.settle_plies, show_default=True,
              type=click.IntRange(1))
@click.option("--check-share", default=SelfPlay.check_share, show_default=True,
              type=click.FloatRange(0, 1),
              help="With --settle: the share of games played on anyway, to count how often the "
                   "call was wrong.")
@click.option("--seed", default=1, show_default=True, help="Game i uses seed SEED+i.")
@click.option("--jobs", default=2, show_default=True, type=click.IntRange(1, 64))
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="JSON lines, appended to (games it holds are not played again).")
def selfplay_cmd(games, playouts, size, komi, sample_plies, value, fast_playouts, full_share,
                 settle, settle_plies, check_share, seed, jobs, out):
    """Play GAMES self-play games and append them to OUT."""
    if fast_playouts >= playouts:
        raise click.BadParameter(f"{fast_playouts} is not fewer than --playouts {playouts}: give "
                                 "a fast search fewer playouts than a full one, or 0 for none",
                                 param_hint="--fast-playouts")
    conf = SelfPlay(size=int(size), komi=komi, playouts=playouts, sample_plies=sample_plies,
                    max_plies=3 * int(size) ** 2, value=value, fast_playouts=fast_playouts,
                    full_share=full_share, settle=settle, settle_plies=settle_plies,
                    check_share=check_share)
    with named_errors():
        n = selfplay(conf, games, seed, jobs, out, echo=click.echo)
    click.echo(f"{out}: {n} games played")


@main.command("label")
@click.argument("sgf", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--playouts", default=Teacher.playouts, show_default=True, type=click.IntRange(1),
              help="The teacher's playouts a searched position (several times what it plays with).")
@click.option("--every", default=Teacher.every, show_default=True, type=click.IntRange(1),
              help="Search one position in EVERY.")
@click.option("--value/--no-value", default=Teacher.value, show_default=True,
              help="Search with the learned network the core was built with.")
@click.option("--player", help="Only the games this player (PB/PW) lost, and as many it won.")
@click.option("--jobs", default=2, show_default=True, type=click.IntRange(1, 64))
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="JSON lines, appended to (games it holds are not searched again).")
def label_cmd(sgf, playouts, every, value, player, jobs, out):
    """Search the positions of the games in SGF (files or folders, such as a match's --out, whose
    journal.jsonl alone will do) again with a stronger search and append them to OUT as records
    `fit` learns from: the teacher's visits teach the policy, its estimate and the game's result
    the value (expert iteration on the positions the engine meets in play)."""
    games = match_games(sgf, player, warn=click.echo)
    if not games:
        raise click.UsageError("no decided game in the SGF given" + (f" with {player!r} as a "
                               "player (matched against PB and PW)" if player else ""))
    with named_errors():
        n = label(Teacher(playouts, every, value), games, jobs, out, echo=click.echo)
    click.echo(f"{out}: {n} games searched ({len(games)} chosen)")


@main.command("fit")
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--holdout", default=0.05, show_default=True,
              help="Share of games kept out to measure the fit (chosen by each game's seed).")
@click.option("--epochs", default=4.0, show_default=True, help="Passes over the positions.")
@click.option("--channels", type=click.IntRange(4),
              help=f"Width of the network (a multiple of 4).  [default: {Shape.channels}, or --init's]")
@click.option("--layers", type=click.IntRange(2), help=f"[default: {Shape.layers}, or --init's]")
@click.option("--init", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Start from the weights in this header (one fit wrote, such as "
                   "engines/go/core/value_weights.h) instead of random ones: the network keeps what "
                   "it learned from earlier games and learns these; its shape is the header's, or "
                   "grown to a larger --channels or --layers.")
@click.option("--lr", default=2e-3, show_default=True, type=click.FloatRange(0, min_open=True),
              help="Peak learning rate (a smaller one suits --init).")
@click.option("--own-weight", default=1.0, show_default=True, help="Weight of the ownership loss.")
@click.option("--search-weight", default=0.5, show_default=True, type=click.FloatRange(0, 1),
              help="Share of the target taken from the self-play search's own estimate, where the "
                   "records hold it (the rest: the game's result).")
@click.option("--policy-weight", default=1.0, show_default=True, type=click.FloatRange(0),
              help="Weight of the policy loss (the self-play search's visits).")
@click.option("--match-result/--no-match-result", default=True, show_default=True,
              help="Let the result of a match game searched again (`label`) teach the value. Its "
                   "results lean to the side that won more (the engine, against a weaker "
                   "opponent), which a network can learn as a style of play rather than the "
                   "position; without it those positions learn the teacher's estimate alone.")
@click.option("--threads", default=2, show_default=True, help="PyTorch's threads.")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the C weights here.")
def fit_cmd(games, holdout, epochs, channels, layers, init, lr, own_weight, search_weight,
            policy_weight, match_result, threads, out):
    """Fit the network to the GAMES (records of `selfplay` or `label`; a file given twice counts
    twice); report how well it and the self-play search call the held-out games' winners, and
    how often its policy names the search's move first; write core/value_weights.h."""
    if channels is not None and channels % 4:
        raise click.BadParameter(f"{channels}: the C network computes 4 channels at a time; "
                                 "give a multiple of 4", param_hint="--channels")
    with named_errors():
        records = [r for path in games for r in read_records(path)]
        pos = positions(records, echo=click.echo)
        shape, start = starting_point(init, records[0]["size"], pos.planes.shape[1], channels, layers)
    with named_errors():
        _torch().set_num_threads(threads)
    kept = decided(records)      # pos.game indexes these
    test = held_out(kept, pos, holdout)
    click.echo(f"{len(kept)} games, {len(pos.won)} positions ({int((~test).sum())} to fit, "
               f"{int(test.sum())} held out)")
    if report := settle_report(records):
        click.echo(report)
    w = train(pos.subset(~test), shape, epochs, lr=lr, own_weight=own_weight, search_weight=search_weight,
              policy_weight=policy_weight, match_result=match_result, init=start, echo=click.echo)
    if test.any():
        report_holdout(w, pos.subset(test), echo=click.echo)
    if out:
        write_header(w, kept[0]["size"], out, trained_on(kept, pos.game, init))
        click.echo(f"wrote {out}")


def held_out(kept: list[dict], pos: Positions, share: float) -> np.ndarray:
    """Which of POS (the positions of the games KEPT) are held out: every position of the SHARE
    of games a hash of their seed picks, so `fit` and `score` hold out the same games."""
    return np.array([random.Random(f"holdout:{r['seed']}").random() < share for r in kept])[pos.game]


@main.command("score")
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--weights", default=HEADER, show_default="the core's, engines/go/core/value_weights.h",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The network to measure: a header `fit` wrote.")
@click.option("--holdout", default=0.05, show_default=True, type=click.FloatRange(0, 1, min_open=True),
              help="Measure on the games `fit --holdout` with this share kept out (1: every game).")
def score_cmd(games, weights, holdout):
    """Report how well the network in --weights calls the winners of the GAMES (records of
    `selfplay` or `label`) and how often its policy names the search's move first, as `fit`
    reports on the games it held out: two generations measured on the same games."""
    with named_errors():
        records = [r for path in games for r in read_records(path)]
        pos = positions(records)
        trained, w = read_header(weights)
    if trained != records[0]["size"]:
        raise click.UsageError(f"{weights} was trained on {trained}x{trained} and these games are "
                               f"{records[0]['size']}x{records[0]['size']}")
    if pos.planes.shape[1] != w["conv0_w"].shape[1]:
        raise click.UsageError(f"{weights} reads {w['conv0_w'].shape[1]} planes where these games "
                               f"give {pos.planes.shape[1]}: it was fitted by another version; fit it again")
    kept = decided(records)      # pos.game indexes these
    test = held_out(kept, pos, holdout)
    if not test.any():
        raise click.UsageError(f"no game of the {len(kept)} is held out at --holdout "
                               f"{holdout}: give a larger share, or 1 for every game")
    click.echo(f"{weights} ({header_source(weights)}): {int(test.sum())} positions of "
               f"{len(set(pos.game[test].tolist()))} games")
    report_holdout(w, pos.subset(test), echo=click.echo)


def starting_point(init: Path | None, size: int, planes: int, channels: int | None,
                   layers: int | None) -> tuple[Shape, dict | None]:
    """fit's network before training: (its shape, the weights in INIT or None for random ones).
    The header must suit the games (SIZE); --channels and --layers larger than its, and more
    PLANES (a newer go_value_planes), grow its network (grow); smaller ones are refused."""
    if init is None:
        return Shape(channels or Shape.channels, layers or Shape.layers), None
    trained, w = read_header(init)
    shape = Shape(len(w["conv_b"][0]), len(w["conv_b"]), len(w["fc1_b"]))
    for name, given, has in (("--channels", channels, shape.channels), ("--layers", layers, shape.layers)):
        if given is not None and given < has:
            raise click.BadParameter(f"{given}, but {init} has {has}: a network can grow, not "
                                     "shrink; leave it out to keep the header's shape",
                                     param_hint=name)
    if trained != size:
        raise click.BadParameter(f"{init} was trained on {trained}x{trained} and these games are "
                                 f"{size}x{size}", param_hint="--init")
    if w["conv0_w"].shape[1] > planes:
        raise click.BadParameter(f"{init} reads {w['conv0_w'].shape[1]} planes of a position and "
                                 f"this version makes only {planes}: it comes from a newer "
                                 "version; fit without --init", param_hint="--init")
    wanted = Shape(channels or shape.channels, layers or shape.layers, shape.hidden)
    if wanted == shape and w["conv0_w"].shape[1] == planes:
        return shape, w
    return wanted, grow(w, wanted, planes=planes)


def report_holdout(w: dict, held: Positions, echo=print) -> None:
    """How well the network (as the core computes it, and in floats), a coin and the self-play
    search (where recorded) call the winners of held-out positions: log loss and the share
    called right."""
    def in_chunks(f, planes):   # the integer arithmetic's float64 arrays are large
        return np.concatenate([f(planes[i:i + 4096]) for i in range(0, len(planes), 4096)])

    def values(quantized):
        return in_chunks(lambda x: forward(w, x, quantized)[0], held.planes)

    p, y = values(True), held.won
    echo(f"held out, the network: log loss {log_loss(p, y):.4f} (in floats, as trained: "
         f"{log_loss(values(False), y):.4f}), the winner called "
         f"{np.mean((p > 0.5) == (y > 0.5)):.1%} (a coin: {log_loss(np.full_like(y, y.mean()), y):.4f})")
    taught = held.subset(held.taught)     # the policy is judged where it learns: full searches
    logits = in_chunks(lambda x: policy_logits(w, x), taught.planes)
    logits -= logits.max(axis=1, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    chosen = logp[np.arange(len(taught.won)), taught.move.astype(np.int64)]
    visits = -(taught.policy.astype(np.float32) * np.where(np.isinf(logp), 0, logp)).sum(axis=1)
    echo(f"held out, the policy ({len(taught.won)} positions): the search's move first "
         f"{np.mean(logits.argmax(axis=1) == taught.move):.1%}, "
         f"log loss {-chosen.mean():.3f} (against the search's visits {visits.mean():.3f})")
    have = ~np.isnan(held.searched)
    if have.any():
        q, yq = held.searched[have], y[have]
        echo(f"  on the {int(have.sum())} of them with the self-play search's estimate: the network "
             f"{log_loss(p[have], yq):.4f} ({np.mean((p[have] > 0.5) == (yq > 0.5)):.1%}), "
             f"the search {log_loss(q, yq):.4f} ({np.mean((q > 0.5) == (yq > 0.5)):.1%})")
    echo("held out, the winner called by moves played: " + ", ".join(
        _called_by_phase(p, held.searched, y, held.ply)))


PHASES = (0, 20, 40, 60)   # the plies where fit's report starts each phase (the last: to the end)


def _called_by_phase(p: np.ndarray, searched: np.ndarray, y: np.ndarray, ply: np.ndarray) -> list[str]:
    """Per phase of the game, the share of winners the network (P) and the self-play search
    (SEARCHED, where recorded) call right: a small network is weakest in the middle game, where
    the whole-game figure hides it."""
    out = []
    for lo, hi in zip(PHASES, PHASES[1:] + (None,)):
        m = (ply >= lo) & (ply < hi) if hi else ply >= lo
        if not m.any():
            continue
        s = m & ~np.isnan(searched)
        search = f", search {np.mean((searched[s] > 0.5) == (y[s] > 0.5)):.0%}" if s.any() else ""
        out.append(f"{lo}-{hi - 1 if hi else ''}: network {np.mean((p[m] > 0.5) == (y[m] > 0.5)):.0%}{search}")
    return out


if __name__ == "__main__":
    sys.exit(main())

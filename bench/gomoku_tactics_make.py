"""Make the Gomoku tactics suite (bench/gomoku_tactics.json): positions with a forced win (VCF
and VCT, both colours, three rules) and defence positions with one saving reply, each proved
by engines.gomoku.threat_solver over the readable rules, never by the engine.

Where they come from: self-play games of the engine (20,000 nodes a move, a fixed budget so a
rerun gives the same games) from the rule's balanced openings, taken in file order. In each
game won by a five, scanning back from the end over the winner's turns:
- vcf: the earliest position where the winner has a VCF (3 to 11 plies, the solver's shortest);
- vct: the winner's turn before it, when it has no VCF there but its move in the game wins
  against every reply by a VCF (a "three", one threat; the solver checks every reply);
- defence: the loser's turns just before those, when exactly one reply leaves the winner no
  VCF within 11 plies (`saving_replies`): the only non-losing reply as far as VCF can tell.
At most one of each kind a game, until each rule has TARGET of vcf and vct per colour and
DEFENCE defence positions (or MAX_GAMES games). A solver call that needs more than BUDGET VCF
nodes (a crowded board) is skipped, so every kept claim was proved in full.

    python bench/gomoku_tactics_make.py             # every rule in turn
    python bench/gomoku_tactics_make.py RULE        # one rule into a part file (in parallel)
    python bench/gomoku_tactics_make.py --merge     # the three part files into the suite
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engines.gomoku import openings, rules, threat_solver as ts  # noqa: E402
from engines.gomoku.engine import GomokuEngine  # noqa: E402
from plumbing.files import atomic_write  # noqa: E402

OUT = ROOT / "bench" / "gomoku_tactics.json"
NODES = 20000
VCF_PLIES = 11
TARGET = 6          # vcf and vct positions per colour and rule
DEFENCE = 4         # defence positions per rule
MAX_GAMES = 30
BUDGET = 6000       # VCF nodes a solver call may take; a call that needs more is skipped


def self_play(rule: str, opening) -> list:
    with GomokuEngine(15, rule, tt_megabytes=16) as engine:
        engine.setup(opening.moves)
        while not engine.is_over:
            engine.genmove(nodes=NODES)
        return engine.moves() if engine.winner else []


def position(history, k, rule) -> rules.Game:
    game = rules.Game(15, rule)
    game.setup(history[:k])
    return game


def entry(kind, rule, history, k, **fields) -> dict:
    game = position(history, k, rule)
    return {"kind": kind, "rule": rule, "to_move": game.to_move,
            "moves": [list(p) for p in history[:k]], **fields}


def proved(call, *args):
    """CALL(*ARGS) within the budget, or None when it needs more."""
    try:
        with ts.limited(BUDGET):
            return call(*args)
    except ts.OutOfBudget:
        return None


def earliest_vcf(history, rule, winner):
    """(k, line) of the winner's earliest turn with a VCF of 3+ plies, scanning back."""
    found = None
    for k in range(len(history) - 1, 0, -1):
        game = position(history, k, rule)
        if game.to_move != winner:
            continue
        try:
            with ts.limited(BUDGET):
                line = ts.solve_vcf(game, VCF_PLIES)
        except ts.OutOfBudget:
            break
        if line is None:
            break
        found = (k, line)
    return found if found and len(found[1]) >= 3 else None


def from_game(history, rule, need) -> list:
    winner = rules.BLACK if len(history) % 2 else rules.WHITE
    vcf = earliest_vcf(history, rule, winner)
    if vcf is None:
        return []
    k, line = vcf
    out = []
    if need("vcf", winner):
        out.append(entry("vcf", rule, history, k, plies=len(line),
                         line=[list(p) if p else None for p in line]))
    game = position(history, k - 2, rule)
    move = history[k - 2]
    if (need("vct", winner) and proved(lambda: ts.solve_vcf(game, VCF_PLIES) is None)
            and proved(ts.wins_after, game, move, 0, VCF_PLIES)):
        out.append(entry("vct", rule, history, k - 2, move=list(move), threats=1))
    for j in (k - 1, k - 3):
        if need("defence", None) and j > 0:
            saving = proved(ts.saving_replies, position(history, j, rule), VCF_PLIES)
            if saving is not None and len(saving) == 1:
                out.append(entry("defence", rule, history, j, saving=[list(saving[0])]))
                break
    return out


def make_rule(rule: str) -> list:
    kept: list = []

    def count(kind, color):
        return sum(1 for e in kept if e["kind"] == kind and (color is None
                                                             or e["to_move"] == color))

    def need(kind, color):
        return count(kind, color) < (DEFENCE if kind == "defence" else TARGET)

    for number, opening in enumerate(openings.load_balanced(rule)[:MAX_GAMES], start=1):
        history = self_play(rule, opening)
        if history:
            for e in from_game(history, rule, need):
                e["id"] = f"{rule}-{e['kind']}-{count(e['kind'], None) + 1}"
                e["source"] = f"self-play from {opening.id}, {NODES} nodes a move"
                kept.append(e)
        print(f"{rule}: game {number}: {len(kept)} kept", file=sys.stderr)
        if not any(need(k, c) for k in ("vcf", "vct") for c in "bw") and not need("defence",
                                                                                  None):
            break
    return kept


def write(suite: list, path: Path = OUT) -> None:
    atomic_write(path, json.dumps({"made_by": "bench/gomoku_tactics_make.py",
                                   "vcf_plies": VCF_PLIES, "budget": BUDGET,
                                   "positions": suite}, indent=1) + "\n")


def main(argv: list[str]) -> int:
    """No argument: every rule in turn. RULE: that rule only, into a part file (rules can be
    made in parallel); --merge: the part files of the three rules into the suite."""
    parts = {rule: OUT.with_name(f"gomoku_tactics-{rule}.part.json") for rule in rules.RULES}
    if argv[:1] == ["--merge"]:
        suite = [e for rule in rules.RULES if parts[rule].exists()   # a stopped rule: none
                 for e in json.loads(parts[rule].read_text())["positions"]]
    elif argv:
        write(make_rule(argv[0]), parts[argv[0]])
        return 0
    else:
        suite = []
        for rule in rules.RULES:                 # written after each rule: a stop keeps it
            suite += make_rule(rule)
            write(suite)
    write(suite)
    kinds = {}
    for e in suite:
        key = (e["rule"], e["kind"], e["to_move"])
        kinds[key] = kinds.get(key, 0) + 1
    print(f"{OUT}: {len(suite)} positions", *(f"{k}: {v}" for k, v in sorted(kinds.items())),
          sep="\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

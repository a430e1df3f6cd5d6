"""The Gomoku tactics suite (bench/gomoku_tactics.json, made by bench/gomoku_tactics_make.py):
how many positions the engine solves within a budget (default 1 s each, one thread).

Solved means, checked by engines.gomoku.threat_solver over the readable rules and not by the
engine: for a forced-win position (vcf, vct) the engine's move wins against every reply by a
VCF, or by one more threat then a VCF (a move the solver cannot prove within its budget
counts as missed); for a defence position it is the one saving reply.

    python bench/gomoku_tactics.py [--seconds 1] [--verify] [--json]

--verify first proves every position again with the solver (a few minutes).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engines.gomoku import rules, threat_solver as ts  # noqa: E402
from engines.gomoku.engine import GomokuEngine  # noqa: E402

SUITE = ROOT / "bench" / "gomoku_tactics.json"


def load() -> dict:
    return json.loads(SUITE.read_text())


def game_of(entry) -> rules.Game:
    game = rules.Game(15, entry["rule"])
    game.setup([tuple(p) for p in entry["moves"]])
    return game


def verify(entry, vcf_plies: int = 11) -> str | None:
    """None when the solver proves the entry again, else what is wrong."""
    game = game_of(entry)
    if game.to_move != entry["to_move"] or game.is_over:
        return "the side to move or the game state differs"
    if entry["kind"] == "vcf":
        line = ts.solve_vcf(game, vcf_plies)
        if line is None or len(line) != entry["plies"]:
            return f"the shortest VCF is {line and len(line)}, not {entry['plies']}"
        return None
    if entry["kind"] == "vct":
        if ts.solve_vcf(game, vcf_plies) is not None:
            return "it has a VCF, so it is no VCT position"
        if not ts.wins_after(game, tuple(entry["move"]), 0, vcf_plies):
            return f"{entry['move']} does not win against every reply"
        return None
    saving = ts.saving_replies(game, vcf_plies)
    if saving != [tuple(p) for p in entry["saving"]]:
        return f"the saving replies are {saving}, not {entry['saving']}"
    return None


SOLVED_BUDGET = 30000    # VCF nodes to prove the engine's move; beyond it: not counted


def solved(entry, move, vcf_plies: int = 11) -> bool:
    """Is the engine's MOVE a solution (proved by the solver within SOLVED_BUDGET)?"""
    if move is None:
        return False
    if entry["kind"] == "defence":
        return [list(move)] == entry["saving"]
    game = game_of(entry)
    try:
        with ts.limited(SOLVED_BUDGET):
            return (ts.wins_after(game, move, 0, vcf_plies)
                    or ts.wins_after(game, move, 1, vcf_plies))
    except ts.OutOfBudget:
        return False


def run(seconds: float, entries: list) -> list[dict]:
    rows = []
    for entry in entries:
        with GomokuEngine(15, entry["rule"], tt_megabytes=64) as engine:
            engine.setup([tuple(p) for p in entry["moves"]])
            started = time.perf_counter()
            result = engine.search(seconds=seconds)
            wall = time.perf_counter() - started
        rows.append({"id": entry["id"], "kind": entry["kind"], "rule": entry["rule"],
                     "to_move": entry["to_move"], "move": result["move"],
                     "solved": solved(entry, result["move"]), "seconds": round(wall, 3),
                     "depth": result["depth"], "proven_win_in": result["proven_win_in"]})
    return rows


def summary(rows: list[dict]) -> dict:
    out = {}
    for key in ("all", "vcf", "vct", "defence"):
        mine = [r for r in rows if key in ("all", r["kind"])]
        if key == "all":
            mine = [r for r in rows if r["kind"] != "defence"]
            key = "forced wins"
        out[key] = [sum(r["solved"] for r in mine), len(mine)]
    for rule in rules.RULES:
        mine = [r for r in rows if r["rule"] == rule]
        out[rule] = [sum(r["solved"] for r in mine), len(mine)]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--verify", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    entries = load()["positions"]
    if args.verify:
        bad = [(e["id"], why) for e in entries if (why := verify(e))]
        for name, why in bad:
            print(f"NOT PROVED {name}: {why}")
        print(f"verified by the solver: {len(entries) - len(bad)}/{len(entries)}")
        if bad:
            return 1
    rows = run(args.seconds, entries)
    figures = summary(rows)
    conditions = (f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, one "
                  f"search thread, {args.seconds:g} s a position, fresh 64 MB table each")
    if args.json:
        print(json.dumps({"conditions": conditions, "summary": figures, "rows": rows}))
        return 0
    for r in rows:
        if not r["solved"]:
            print(f"missed {r['id']} ({r['to_move']} to move): played {r['move']}, depth "
                  f"{r['depth']}")
    for key, (won, total) in figures.items():
        print(f"{key:12s} {won}/{total} ({100 * won / max(total, 1):.0f}%)")
    print(f"conditions: {conditions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

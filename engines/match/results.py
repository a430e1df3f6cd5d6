"""One game's result, the match summary and its text, and the results file (results.json)."""
from __future__ import annotations

import json
import os
import platform
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from engines.match.stats import (elo_from_pentanomial, elo_from_trinomial, elo_interval,
                                 pentanomial, trinomial, wilson_interval)
from plumbing.files import atomic_write

RESULTS = "results.json"


@dataclass
class GameResult:
    index: int
    seed: int
    candidate_color: str  # the candidate's side: 'b' (moves first) or 'w'
    result: str
    winner: str | None
    points: float  # 1 win, 0.5 draw, 0 loss, from the candidate's side
    reason: str
    ending: str
    moves: int
    candidate_seconds: list[float] = field(default_factory=list)
    opponent_seconds: list[float] = field(default_factory=list)
    disputed: bool = False
    sgf: str = ""  # the game record's path
    pair: int = -1  # games 2p and 2p+1 play the same opening with colours swapped
    opening: str = ""  # the opening's id
    forfeit: str = ""  # why the loser forfeited: illegal, crash, time, timeout, garbage, refused
    forfeited_by: str = ""  # 'candidate' or 'opponent' when forfeit is set
    record: str = ""  # the game record in the game's own format (SGF text for Go)
    record_format: str = ""

    @classmethod
    def from_json(cls, entry: dict) -> "GameResult":
        names = cls.__dataclass_fields__
        return cls(**{k: v for k, v in entry.items() if k in names})


def pair_points(results: list[GameResult]) -> list[float]:
    """The candidate's points of each complete pair (both games played), by pair number."""
    by_pair: dict[int, list[float]] = {}
    for r in results:
        if r.pair >= 0:
            by_pair.setdefault(r.pair, []).append(r.points)
    return [sum(p) for _, p in sorted(by_pair.items()) if len(p) == 2]


def summarize(results: list[GameResult], conditions: dict, limit: float | None,
              sprt: dict | None = None) -> dict:
    """The match in figures; LIMIT is the candidate's time per move (None: no limit); SPRT the
    test's state (elo0, elo1, alpha, beta, lower, upper, llr, decision) when there is one."""
    games = len(results)
    wdl = trinomial(r.points for r in results)
    penta = pentanomial(pair_points(results))
    forfeits: dict[str, dict[str, int]] = {}
    for r in results:
        if r.forfeit:
            side = forfeits.setdefault(r.forfeited_by or "?", {})
            side[r.forfeit] = side.get(r.forfeit, 0) + 1
    wins = sum(r.points for r in results)
    low, high = wilson_interval(wins, games)
    per_colour = {}
    for color, label in (("b", "black"), ("w", "white")):
        mine = [r for r in results if r.candidate_color == color]
        per_colour[label] = {"games": len(mine), "wins": sum(r.points for r in mine)}
    cand = [s for r in results for s in r.candidate_seconds]
    opp = [s for r in results for s in r.opponent_seconds]
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "wilson95": [low, high],
        "score": wins / games if games else None,
        "elo": elo_interval(wins, games),
        "trinomial": list(wdl),  # wins, draws, losses
        "elo_trinomial": elo_from_trinomial(*wdl),
        "pentanomial": penta,  # pairs scoring 0, 0.5, 1, 1.5, 2 points
        "elo_pentanomial": elo_from_pentanomial(penta),
        "forfeits": forfeits,  # {"candidate": {"time": 2}, ...}
        "sprt": sprt,
        "per_colour": per_colour,
        "endings": {kind: sum(r.ending == kind for r in results)
                    for kind in sorted({r.ending for r in results})},
        "candidate_seconds_per_move": {
            "mean": sum(cand) / len(cand) if cand else 0.0,
            "max": max(cand, default=0.0),
            "over_limit": sum(s > limit for s in cand) if limit else 0,
        },
        "opponent_seconds_per_move": {"mean": sum(opp) / len(opp) if opp else 0.0},
        "disputed_games": [r.index for r in results if r.disputed],
        "conditions": conditions,
    }


def format_summary(summary: dict, describe: Callable[[dict], str]) -> str:
    """The summary as text; DESCRIBE (the game adapter's) writes the conditions line."""
    c = summary["conditions"]
    low, high = summary["wilson95"]
    colours = summary["per_colour"]
    cand = summary["candidate_seconds_per_move"]
    return "\n".join([
        f"{c['candidate']} vs {c['opponent']}: {summary['wins']:g}/{summary['games']} "
        f"= {100 * summary['win_rate']:.1f}% (Wilson 95%: {100 * low:.1f}%-{100 * high:.1f}%; "
        f"{format_elo(summary['elo'])})",
        f"  as black {colours['black']['wins']:g}/{colours['black']['games']}, "
        f"as white {colours['white']['wins']:g}/{colours['white']['games']}; endings "
        + ", ".join(f"{k} {v}" for k, v in summary["endings"].items()),
        f"  candidate {cand['mean']:.3f} s/move (max {cand['max']:.3f} s, "
        f"{cand['over_limit']} over the limit); opponent "
        f"{summary['opponent_seconds_per_move']['mean']:.3f} s/move",
        f"  +{summary['trinomial'][0]} ={summary['trinomial'][1]} -{summary['trinomial'][2]}"
        f" ({format_elo(summary['elo_trinomial'])}); pairs "
        f"{sum(summary['pentanomial'])}, pentanomial {summary['pentanomial']} "
        f"({format_elo(summary['elo_pentanomial'])})",
        f"  forfeits: {format_forfeits(summary['forfeits'])}",
        *([f"  {summary['sprt']['text']}"] if summary.get("sprt") else []),
        f"  disputed by the referee's cross-check: {summary['disputed_games'] or 'none'}",
        f"  conditions: {describe(c)}; {c['machine']}",
        f"  candidate: {c['candidate_cmd']}",
        f"  opponent:  {c['opponent_cmd']}",
    ])


def format_elo(elo: dict) -> str:
    """"Elo +191 [+92, +340]"; at a 100% (0%) score only the interval's finite end bounds it."""
    estimate, low, high = elo["estimate"], elo["low"], elo["high"]
    if estimate is not None:
        ends = [f"{end:+.0f}" if end is not None else "?" for end in (low, high)]
        return f"Elo {estimate:+.0f} [{ends[0]}, {ends[1]}]"
    if low is not None:
        return f"Elo at least {low:+.0f}"
    if high is not None:
        return f"Elo at most {high:+.0f}"
    return "Elo unknown"


def format_forfeits(forfeits: dict) -> str:
    parts = [f"{side} {kind} {n}" for side, kinds in sorted(forfeits.items())
             for kind, n in sorted(kinds.items())]
    return ", ".join(parts) or "none"


def format_sprt(sprt: dict) -> str:
    """"SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05: LLR 1.23 in [-2.94, 2.94], H1 accepted"."""
    state = {"H1": "H1 accepted (stronger by elo1)", "H0": "H0 accepted (elo0)"}.get(
        sprt.get("decision"), "undecided")
    return (f"SPRT elo0={sprt['elo0']:g} elo1={sprt['elo1']:g} alpha={sprt['alpha']:g} "
            f"beta={sprt['beta']:g}: LLR {sprt['llr']:.2f} in [{sprt['lower']:.2f}, "
            f"{sprt['upper']:.2f}], {state}")


def progress_line(result: GameResult, done: int, total: int, wins: float) -> str:
    colour = "B" if result.candidate_color == "b" else "W"
    cand = result.candidate_seconds
    mean = sum(cand) / len(cand) if cand else 0.0
    outcome = {1.0: "win", 0.5: "draw", 0.0: "loss"}[result.points]
    flag = "  DISPUTED" if result.disputed else ""
    return (f"game {result.index + 1:3d} ({done}/{total})  seed {result.seed}  candidate {colour}  "
            f"{result.result:8s} {outcome:4s}  {result.moves:3d} moves  "
            f"{mean:.3f} s/move  running {wins:g}/{done}{flag}")


def machine() -> str:
    """The CPU, cores, kernel and load average, for the conditions of a figure."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"load average {load} at the end")


def write_results(out: Path, summary: dict, results: list[GameResult]) -> Path:
    """OUT/results.json, replaced atomically: {"summary": ..., "games": [...]}."""
    path = Path(out) / RESULTS
    atomic_write(path, json.dumps({"summary": summary, "games": [asdict(r) for r in results]},
                                  indent=1))
    return path

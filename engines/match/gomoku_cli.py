"""`engines match gomoku`: Gomoku between two Gomocup brains, judged by the readable rules.

    engines match gomoku --games 200 --rule freestyle --seconds 0.2 --sprt elo0=0,elo1=20

The default opponent is the baseline: this venv's brain as a plain fixed-depth alpha-beta
(`engines gomocup --depth 4 --plain`); the default openings are the rule's 100 balanced ones
(engines/gomoku/openings/).
"""
from __future__ import annotations

import click

from engines.match.gomoku import (DEFAULT_TIMEOUT, DEFAULT_TOLERANCE, GOMOCUP_MEMORY,
                                  GomokuAdapter, GomokuSettings, baseline_cmd,
                                  default_engine_cmd)
from engines.match.players import Side
from engines.match.options import candidate_seconds, common_options, run_adapter


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@common_options(
    out="var/gomoku-match",
    openings_help="'balanced' (the rule's 100 kept openings, engines/gomoku/openings/); a "
                  "file of Gomocup offset lines (0,0, 1,-1, ...); 'generate' (seeded random "
                  "3-5 stones, not balanced); 'none' (empty board). Each opening is played "
                  "twice, colours swapped.",
    engine_help="Candidate brain command line  [default: this venv's `engines gomocup`].",
    opponent=None,
    opponent_help="Opponent brain command line ({seed}, {size}, {rule})  [default: the "
                  "baseline, `engines gomocup --depth D --plain`].",
    tolerance=DEFAULT_TOLERANCE, timeout=DEFAULT_TIMEOUT, openings="balanced")
@click.option("--size", default=15, show_default=True, type=click.IntRange(5, 20))
@click.option("--rule", default="freestyle", show_default=True,
              type=click.Choice(["freestyle", "standard", "renju"]))
@click.option("--baseline-depth", default=4, show_default=True, type=click.IntRange(1, 12),
              help="Depth of the default opponent (the plain alpha-beta baseline).")
@click.option("--max-memory", default=GOMOCUP_MEMORY // 2**20, show_default=True,
              type=click.IntRange(min=1), help="MB each brain is told (INFO max_memory).")
def gomoku(games, openings, seconds, tc, opponent_seconds, opponent_tc, tolerance, timeout,
           base_seed, concurrency, sprt, cluster, out, engine_cmd, opponent_cmd, as_json, size,
           rule, baseline_depth, max_memory):
    """Play up to GAMES games of Gomoku between two Gomocup brains; report the candidate's score.

    engines.gomoku.rules judges every move (renju's forbidden points included). Forfeits
    (illegal or forbidden move, crash, time, no answer, garbage, refused) are recorded with
    their reason. Exit 1 when the match stopped early (not by the SPRT)."""
    adapter = GomokuAdapter(GomokuSettings(
        size=size, rule=rule, out=out,
        candidate=Side(engine_cmd or default_engine_cmd(), candidate_seconds(seconds, tc), tc),
        opponent=Side(opponent_cmd or baseline_cmd(baseline_depth), opponent_seconds or None,
                      opponent_tc),
        tolerance=tolerance, timeout=timeout, max_memory=max_memory * 2**20,
        openings=None if openings == "none" else openings))
    run_adapter(adapter, games=games, base_seed=base_seed, concurrency=concurrency, sprt=sprt,
                cluster=cluster, out=out, as_json=as_json)

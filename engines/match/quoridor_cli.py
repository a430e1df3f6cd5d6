"""`engines match quoridor`: Quoridor over its line protocol, judged by engines.quoridor.rules.

    engines match quoridor --games 20 --seconds 1 --opponent 'engines quoridor --engine reference-ai'
"""
from __future__ import annotations

import click

from engines.match.options import candidate_seconds, common_options, run_adapter
from engines.match.quoridor import (DEFAULT_TIMEOUT, DEFAULT_TOLERANCE, QuoridorAdapter,
                                    QuoridorSettings, Side, default_engine_cmd)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@common_options(
    out="var/quoridor-match",
    openings_help="A file with one opening a line (moves like `e2 e8 c3h`, # comments); "
                  "'generate' (--opening-plies seeded random legal moves per pair); 'none' "
                  "(the start position). Each opening is played twice, colours swapped.",
    engine_help="Candidate command line  [default: this venv's `engines quoridor`].",
    opponent=None, opponent_help="Opponent command line  [default: this venv's `engines "
                                 "quoridor`]; {seed} and {size} are filled in.",
    tolerance=DEFAULT_TOLERANCE, timeout=DEFAULT_TIMEOUT)
@click.option("--size", default="9", show_default=True, type=click.Choice(["5", "7", "9"]))
@click.option("--walls", default=None, type=click.IntRange(0, 20),
              help="Walls each  [default: 10 on 9x9, 6 on 7x7, 3 on 5x5].")
@click.option("--nodes", default=None, type=click.IntRange(min=1),
              help="Candidate's node (or rollout) budget per move (set_budget nodes N).")
@click.option("--opponent-nodes", default=None, type=click.IntRange(min=1))
@click.option("--opening-plies", default=2, show_default=True, type=click.IntRange(0, 12),
              help="Random legal moves of a generated opening.")
@click.option("--max-moves", default=None, type=click.IntRange(min=1),
              help="Plies after which a game without a winner is a draw  [default: 20 x size].")
def quoridor(games, openings, seconds, tc, opponent_seconds, opponent_tc, tolerance, timeout,
             base_seed, concurrency, sprt, cluster, out, engine_cmd, opponent_cmd, as_json, size,
             walls, nodes, opponent_nodes, opening_plies, max_moves):
    """Play up to GAMES games of Quoridor between two line-protocol engines and report the
    candidate's score.

    White (player one, on e1) moves first; every move is checked by the readable rules.
    Forfeits (illegal move, crash, time, no answer, garbage, refusal) are recorded with their
    reason; a game is a draw when a position comes a third time or without a winner after
    --max-moves plies. Records (the project's
    notation) are saved as OUT/game-NNN.qdr. Exit 1 when the match stopped early (not by the
    SPRT)."""
    adapter = QuoridorAdapter(QuoridorSettings(
        size=int(size), walls=walls, max_moves=max_moves, out=out,
        candidate=Side(engine_cmd or default_engine_cmd(),
                       None if nodes and seconds is None and not tc
                       else candidate_seconds(seconds, tc), tc, nodes),
        opponent=Side(opponent_cmd or default_engine_cmd(), opponent_seconds or None,
                      opponent_tc, opponent_nodes),
        tolerance=tolerance, timeout=timeout, opening_plies=opening_plies,
        openings=None if openings == "none" else openings))
    run_adapter(adapter, games=games, base_seed=base_seed, concurrency=concurrency, sprt=sprt,
                cluster=cluster, out=out, as_json=as_json)

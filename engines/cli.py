"""`engines`: the game engines' command line (GTP adapters, benchmarks, matches, the arcade server).

Each command imports its implementation lazily (inside the command, or through the group's
`lazy=` table) so that `engines --help` stays fast and one game's build problem cannot break
another game's command. Named errors (plumbing.errors.NamedError) print as one line, exit 1.
"""
from pathlib import Path

import click

from plumbing.cli import ToolGroup


@click.group(cls=ToolGroup, lazy={"match": "engines.match.cli:match"},
             context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Compiled board-game engines and the web arcade that serves them."""


@main.command()
@click.argument("game", type=click.Choice(["go"]))
@click.option("--playouts", type=click.IntRange(min=1), default=None,
              help="Playouts per move (first of playouts and seconds reached ends the search).")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds per move, also a cap on what time_settings allow  [default: "
                   "what time_settings allow; without them 1, or none with --playouts].")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="Search threads  [default: 1].")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Random seed of the search (same seed and playouts: same moves).")
@click.option("--value/--no-value", default=True, show_default=True,
              help="The learned network's policy and value as the search's priors, on 9x9 (the "
                   "size it was trained on): stronger at equal playouts and at equal time "
                   "(bench/README.md). --no-value: the shape priors alone.")
def gtp(game, playouts, seconds, threads, seed, value):
    """Speak GTP v2 on stdin/stdout for GAME (for GoGui, Sabaki, GNU Go matches)."""
    from engines.go.gtp import Budget, run_gtp

    budget = Budget(playouts=playouts, seconds=seconds, threads=threads)
    raise SystemExit(run_gtp(budget=budget, seed=seed, value=value))


@main.command()
@click.option("--size", type=click.Choice(["5", "7", "9"]), default="9", show_default=True,
              help="Board size at the start (the boardsize command changes it).")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds per move  [default: 1 when no budget is given].")
@click.option("--nodes", type=click.IntRange(min=1), default=None, help="Nodes per move.")
@click.option("--depth", type=click.IntRange(1, 48), default=None, help="Plies per move.")
@click.option("--engine", "searcher", default="mcts", show_default=True,
              type=click.Choice(["alphabeta", "mcts", "reference-ai"]),  # quoridor.engine.ENGINES
              help="The search: our MCTS (the stronger in matches), our alpha-beta, or the "
                   "public quoridor-ai method.")
@click.option("--rollouts", "--playouts", "playouts", type=click.IntRange(min=1), default=None,
              help="Playouts per move of the tree searches (the same budget as --nodes).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seeds the tree searches (with the position).")
@click.option("--reuse/--no-reuse", default=True, show_default=True,
              help="Our MCTS starts each genmove from the part of its last tree that holds "
                   "the position (+143 Elo at 0.3 s a move, bench/README.md).")
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Threads of our MCTS, sharing one tree (more than one: moves vary run to "
                   "run).")
def quoridor(size, seconds, nodes, depth, searcher, playouts, seed, reuse, threads):
    """Speak Quoridor's GTP-shaped line protocol on stdin/stdout (see README)."""
    from engines.quoridor.protocol import run

    raise SystemExit(run(size=int(size), seconds=seconds, nodes=playouts or nodes, depth=depth,
                         engine=searcher, seed=seed, reuse=reuse, threads=threads))


@main.command("export")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def export(directory):
    """Write the arcade as static files into DIRECTORY: every game with an in-page engine
    (its C core compiled to WebAssembly) plays there with no server; serve DIRECTORY from
    any static host, e.g. `python3 -m http.server -d DIRECTORY`."""
    from engines.web.export import export_site

    pages = export_site(directory)
    click.echo(f"wrote {len(pages)} pages and the static files to {directory}")


@main.command()
@click.argument("game", type=click.Choice(["go"]))
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def bench(game, as_json):
    """Measure GAME's speed (playouts per second) and print the conditions."""
    from engines.go.bench import run_bench

    raise SystemExit(run_bench(as_json=as_json))


@main.command()
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds per move when no INFO timeout_turn/time_left arrive  [default: 1].")
@click.option("--depth", type=click.IntRange(1, 40), default=None,
              help="Search every move to this depth, whatever the time.")
@click.option("--nodes", type=click.IntRange(1000, 10**9), default=None,
              help="Search every move to this many nodes, whatever the time (a budget that "
                   "other programs' load cannot change, for self-play SPRTs).")
@click.option("--plain", is_flag=True,
              help="The reference alpha-beta (no VCF, no table, no killers or history): with "
                   "--depth, the match baseline.")
def gomocup(seconds, depth, nodes, plain):
    """Speak the Gomocup (Piskvork) brain protocol on stdin/stdout for Gomoku."""
    from engines.gomoku.gomocup import run

    raise SystemExit(run(default_seconds=seconds, depth=depth, nodes=nodes, plain=plain))


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to bind.")
def serve(host, port):
    """Serve the arcade (every game's page and JSON API)."""
    from engines.web.serve import serve as serve_arcade

    serve_arcade(host=host, port=port)

"""Misread positions benchmark: how our Go engine judges positions from the games it lost.

    .venv/bin/python bench/go_positions.py collect var/go-match-9x9-k var/go-match-9x9-l
    .venv/bin/python bench/go_positions.py run [--playouts 25000 --seeds 3]

`collect` takes positions from the lost games of `engines match go` runs (their --out
directories), `run` reports the win rate our engine gives the side that actually wins each
one. What they do is engines/go/positions.py; the kept positions are bench/go_positions.json.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from a source tree

from engines.go import positions  # noqa: E402
from plumbing.cli import ToolGroup  # noqa: E402

POSITIONS = ROOT / "bench" / "go_positions.json"


@click.group(cls=ToolGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Positions from lost games where our engine misjudged the outcome."""


@main.command()
@click.argument("runs", nargs=-1, required=True,
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--playouts", default=25000, show_default=True,
              help="Our engine's budget when looking.")
@click.option("--window", default=10, show_default=True,
              help="How many of our last moves to look back.")
@click.option("--out", default=str(POSITIONS), show_default=True, type=click.Path(path_type=Path))
def collect(runs, playouts, window, out):
    """Collect misread positions from the lost games of match RUNS (`engines match go --out`)."""
    kept = positions.collect(list(runs), out, playouts, window, base=ROOT, echo=click.echo)
    click.echo(f"{len(kept)} positions in {out}")


@main.command()
@click.option("--positions", "path", default=str(POSITIONS), show_default=True,
              type=click.Path(path_type=Path))
@click.option("--playouts", default=25000, show_default=True,
              help="Per position and seed (about what 0.436 s on two threads gives in a match).")
@click.option("--seeds", default=3, show_default=True, type=click.IntRange(1, 100))
@click.option("--threads", default=1, show_default=True, type=click.IntRange(1, 64))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def run(path, playouts, seeds, threads, as_json):
    """Search every position; report the win rate given to the side that wins."""
    summary = positions.run(positions.load_positions(path), playouts, seeds, threads,
                            echo=None if as_json else click.echo)
    if as_json:
        click.echo(json.dumps(summary, indent=1))
    else:
        click.echo(f"read right: {summary['read_right']}/{summary['positions']}; mean win rate "
                   f"given to the winner {summary['mean_winner_winrate']:.3f} ({playouts} "
                   f"playouts x {seeds} seeds, {threads} thread(s), "
                   f"{summary['conditions']['seconds']} s)")


if __name__ == "__main__":
    main()

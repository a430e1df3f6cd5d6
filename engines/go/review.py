"""Where a Go match's lost games turned: each game the candidate lost, replayed with this
engine's own estimate before each of the candidate's moves.

    python -m engines.go.review var/runs/gnugo-901

A match (`engines match go --out DIR`) keeps every game's record in DIR/journal.jsonl. For
each game the candidate lost (and drew, with --draws), this replays the record and searches
every position where the candidate was to move (PLAYOUTS playouts, the network unless
--no-value), giving the candidate side's chance to win. The curve says what kind of loss it
was (`turning`):

- a collapse: the estimate was at least LEAD within TURN moves of the move after which it
  never again rose above LOST (a group or a race lost in a few moves: tactics);
- behind early: not a collapse, and below EVEN by move 30 (the opening and the early
  middle game);
- a slide: the rest (a lead or an even game given away over many moves).

The judge is this engine, whatever the candidate was: its estimate is the verdict of a
1,000-playout search, not the truth, so read a collapse as "a turn this engine did not see
coming", which is what the next change has to fix.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click

from engines.go import sgf
from engines.match.journal import Journal
from plumbing.cli import named_errors

LOST = 0.2       # below this for the rest of the game: lost for good
LEAD = 0.55      # at least this shortly before: the game collapsed from a lead
TURN = 10        # "shortly": this many moves
EVEN = 0.45      # below this at move 30: behind early
EARLY = 30


@dataclass
class Turning:
    kind: str              # "collapse", "behind early" or "slide"
    lost_at: int | None    # the move after which the estimate never rose above LOST
    before: float | None   # the best estimate in the TURN moves before it
    at_early: float | None  # the estimate at move EARLY (or the last before it)


def turning(curve: list[tuple[int, float]]) -> Turning:
    """The kind of loss a CURVE of (move number, the candidate's estimate) shows."""
    lost_at = None
    for m, p in reversed(curve):       # the start of the curve's last run below LOST
        if p >= LOST:
            break
        lost_at = m
    before = max((p for m, p in curve if lost_at is not None and lost_at - TURN <= m < lost_at),
                 default=None)
    early = [p for m, p in curve if m <= EARLY]
    at_early = early[-1] if early else None
    if before is not None and before >= LEAD:
        kind = "collapse"
    elif at_early is not None and at_early < EVEN:
        kind = "behind early"
    else:
        kind = "slide"
    return Turning(kind, lost_at, before, at_early)


def estimates(record: sgf.GameRecord, color: str, playouts: int, value: bool) -> list[tuple[int, float]]:
    """COLOR's chance to win before each of its moves in RECORD, by this engine's search."""
    from engines.go.engine import GoEngine

    curve = []
    with GoEngine(size=record.size, komi=record.komi, seed=1, value=value) as eng:
        for stone in record.setup_black:
            eng.play("b", stone)
        for stone in record.setup_white:
            eng.play("w", stone)
        for number, (mover, point) in enumerate(record.moves):
            if mover == color:
                curve.append((number, eng.analyze(color, playouts=playouts)["winrate"]))
            eng.play(mover, point)
    return curve


def lost_games(run: Path, draws: bool) -> list[dict]:
    """The journal's games the candidate lost (and drew, with DRAWS), in the order played."""
    return [e for e in Journal(run).games("go") if e.get("record")
            and (e["points"] == 0 or (draws and e["points"] == 0.5))]


def _line(entry: dict, curve: list[tuple[int, float]], t: Turning) -> str:
    def f(x):
        return "-" if x is None else f"{x:.2f}"
    shown = " ".join(f"{m}:{p:.2f}" for m, p in curve[::2])
    return (f"seed {entry['seed']} as {entry['candidate_color']} {entry['result']} "
            f"({entry['moves']} moves): {t.kind}; move {EARLY} {f(t.at_early)}, below {LOST} "
            f"from move {'-' if t.lost_at is None else t.lost_at} on, best in the {TURN} moves "
            f"before {f(t.before)}\n  {shown}")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("run", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--playouts", default=1000, show_default=True, type=click.IntRange(1),
              help="The judging search's playouts a position.")
@click.option("--value/--no-value", default=True, show_default=True,
              help="Judge with the learned network (9x9) or the shapes alone.")
@click.option("--draws", is_flag=True, help="Review the drawn games too.")
def main(run, playouts, value, draws):
    """Replay the games the candidate of the Go match in RUN lost, with this engine's estimate
    before each of its moves, and say where each turned (see the module doc)."""
    with named_errors():
        games = lost_games(run, draws)
    kinds: dict[str, list[int]] = {}
    for i, entry in enumerate(games, 1):
        curve = estimates(sgf.loads(entry["record"]), entry["candidate_color"], playouts, value)
        t = turning(curve)
        kinds.setdefault(t.kind, []).append(entry["seed"])
        click.echo(f"[{i}/{len(games)}] " + _line(entry, curve, t))
    click.echo(f"{len(games)} games reviewed: " + ("; ".join(
        f"{len(seeds)} {kind} ({', '.join(map(str, seeds))})" for kind, seeds in sorted(kinds.items()))
        or "none lost"))


if __name__ == "__main__":
    sys.exit(main())

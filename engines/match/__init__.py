"""Matches between two engines, scored by an independent referee: `engines match GAME ...`.

The runner knows nothing about any game; a game comes in through an adapter
(`engines.match.adapter.GameAdapter`): it plays one game between the candidate and the opponent
and returns a `GameResult`. Today Go is the only game (`engines.match.go`: GTP players, GNU Go
as the opponent and, through `engines.go.referee`, the judge).

- `stats`: the Wilson score interval of a win rate, and the Elo difference it implies.
- `results`: one game's result, the match summary, its text, the results file.
- `commands`: engine command lines with placeholders, split before they are filled.
- `adapter`: what a game brings to the runner.
- `go`: the Go adapter.
- `runner`: games in parallel, alternating colours, seeds SEED+i, progress, interruption.
- `cli`: the `engines match` command.
"""

"""Matches between two engines, scored by an independent referee: `engines match GAME ...`.

The runner knows nothing about any game; a game comes in through an adapter
(`engines.match.adapter.GameAdapter`): it plays one game between the candidate and the opponent
and returns a `GameResult`. Today Go is the only game (`engines.match.go`: GTP players, GNU Go
as the opponent and, through `engines.go.referee`, the judge).

- `stats`, `sprt`, `report`: the statistics (Wilson, trinomial/pentanomial Elo), the SPRT, the
  HTML report (pure).
- `openings`: Go openings from SGF (errors name file:line) or generated from a seed.
- `journal`: OUT/journal.jsonl, appended per game; resume and its refusal on other options.
- `pool`: where games run (LocalPool; `make_pool` is the hook for the Ray backend).
- `progress`: the live progress line.
- `results`: one game's result, the match summary, its text, the results file.
- `commands`: engine command lines with placeholders, split before they are filled.
- `adapter`: what a game brings to the runner.
- `go`: the Go adapter.
- `runner`: paired openings with colours swapped, seeds SEED+i, the pool, journal/resume, SPRT
  stop, progress, interruption.
- `cli`: the `engines match` group, one lazily loaded subcommand per game (`go_cli`: `engines
  match go`); `options`: the options every game's command shares, and the run.
"""

"""The Go match runner's old entry point, kept so that earlier command lines reproduce their
figures (its options are those of `engines match go`; `--jobs` is `--concurrency`):

    .venv/bin/python bench/go_match.py ARGS   is   engines match go --openings none ARGS

Its games start from the empty board, as they always did (`engines match` itself plays
generated openings in pairs unless told `--openings none`); an --openings in ARGS wins.

The runner itself is the `engines.match` package (`engines match --help`).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a source tree

from engines.cli import main  # noqa: E402

if __name__ == "__main__":
    main(["match", "go", "--openings", "none", *sys.argv[1:]], prog_name="engines")

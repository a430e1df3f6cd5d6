"""The Go match runner's old entry point, kept so that earlier command lines still work
(its options are those of `engines match go`; `--jobs` is `--concurrency`, see README.md):

    .venv/bin/python bench/go_match.py ARGS   is   engines match go ARGS

The runner itself is the `engines.match` package (`engines match --help`).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a source tree

from engines.cli import main  # noqa: E402

if __name__ == "__main__":
    main(["match", "go", *sys.argv[1:]], prog_name="engines")

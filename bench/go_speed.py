"""Go engine speed: light playouts and search playouts per second, with conditions.

    .venv/bin/python bench/go_speed.py [--json]      (the same as `engines bench go`)
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.go.bench import run_bench  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(run_bench(as_json="--json" in sys.argv[1:]))

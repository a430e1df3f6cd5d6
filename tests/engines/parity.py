"""How many random games the parity tests play: their full counts under `make test`, a share
under `make check` (SOLOSHOP_PARITY_SCALE=0.5, set by the Makefile), more for a one-off long
run (SOLOSHOP_PARITY_SCALE=10)."""
import os


def scaled(games: int) -> int:
    """GAMES times SOLOSHOP_PARITY_SCALE (default 1), at least one."""
    return max(1, round(games * float(os.environ.get("SOLOSHOP_PARITY_SCALE", "1"))))

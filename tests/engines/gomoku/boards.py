"""ASCII positions for the Gomoku tests: 15x15 rows of X (black), O (white) and '.', with rows 0
and 14 left free for filler stones."""

FILLERS = [(x, y) for y in (0, 14) for x in range(0, 15, 2)]  # spaced out: never a line of two


def balance(rows: list[list[str]], to_move: str) -> None:
    """Add filler stones on rows 0 and 14 so that the colours alternate up to TO_MOVE."""
    black = sum(r.count("X") for r in rows)
    white = sum(r.count("O") for r in rows)
    extra_white = black - white if to_move == "b" else black - white - 1
    for i in range(abs(extra_white)):
        x, y = FILLERS[i]
        assert rows[y][x] == ".", "rows 0 and 14 hold the filler stones"
        rows[y][x] = "O" if extra_white > 0 else "X"

"""Random positions for the tests that compare the core with rules.py the slow way."""
import random

from engines.quoridor import rules
from engines.quoridor.engine import QuoridorEngine


def random_positions(seed, size, count, plies, wall_share=0.4):
    """Positions of COUNT random games of fewer than PLIES plies each (a wall with chance
    WALL_SHARE while walls are left), the finished ones left out: (rules.Game,
    QuoridorEngine) at the same position."""
    rng = random.Random(seed)
    for _ in range(count):
        ref, eng = rules.Game(size), QuoridorEngine(size)
        for _ in range(rng.randrange(plies)):
            walls = ref.walls_left[ref.to_move] > 0 and rng.random() < wall_share
            moves = (ref.legal_walls() if walls else []) or ref.legal_pawn_moves()
            move = rules.move_name(rng.choice(moves))
            ref.play(move)
            eng.play(move)
            if ref.winner is not None:
                break
        if ref.winner is None:
            yield ref, eng

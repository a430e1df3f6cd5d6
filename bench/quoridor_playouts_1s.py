"""How many playouts our MCTS reaches in the protocol's share of 1 s a move (0.89 s of search,
protocol.py's TIME_MARGIN), over positions of a few games, so a match can give our side that
fixed playout budget instead of a clock (a fixed budget cannot be biased by the machine's load).

    taskset -c 1 python bench/quoridor_playouts_1s.py [GAMES] [PLAYOUTS]

The positions come from self-play at 3,000 playouts a move from seeded 2-ply openings (every
third position of each game); each is searched once by a fresh engine with PLAYOUTS (200,000),
timed in process CPU seconds (so other work on the core slows the wall clock, not the figure).
Prints playouts per CPU second (quartiles) and what 0.89 s of them is.
"""
from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import time

from engines.quoridor.engine import QuoridorEngine


def positions(games: int, seed: int = 1) -> list[list[str]]:
    rng, out = random.Random(seed), []
    for _ in range(games):
        eng = QuoridorEngine(9)
        moves: list[str] = []
        for _ in range(2):
            move = rng.choice(eng.legal_pawn_moves() + eng.legal_walls())
            eng.play(move)
            moves.append(move)
        while eng.winner is None and len(moves) < 160:
            if len(moves) % 3 == 0:
                out.append(list(moves))
            r = eng.search(playouts=3000)
            eng.play(r["move"])
            moves.append(r["move"])
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    playouts = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
    rates = []
    for line in positions(games):
        eng = QuoridorEngine(9)
        for m in line:
            eng.play(m)
        t0 = time.process_time()
        r = eng.search(playouts=playouts)
        rates.append(r["playouts"] / (time.process_time() - t0))
    q = statistics.quantiles(rates, n=4)
    print({"positions": len(rates), "playouts": playouts, "per_cpu_second_median": round(q[1]),
           "lower_quartile": round(q[0]), "upper_quartile": round(q[2]), "min": round(min(rates)),
           "in_0.89_s_median": round(0.89 * q[1]), "in_0.89_s_lower_quartile": round(0.89 * q[0])})
    print([round(x) for x in rates])
    print(f"conditions: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f} at the end, one thread, games {games}")


if __name__ == "__main__":
    main()

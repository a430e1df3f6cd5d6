"""Each pawn's shortest path to its goal row, as squares, for the board view. The engine gives
the lengths; the squares come from a breadth-first search over rules.py's wall geometry
(`Game.neighbours`), which the parity test keeps equal to the core's."""
from __future__ import annotations

from collections import deque

from engines.quoridor import rules


def shortest_path(size: int, walls, start, goal_row: int) -> list[tuple[int, int]]:
    """The squares from `start` (excluded) to the goal row along one shortest path; [] if none."""
    geometry = rules.Game(size, 0)
    walls = set(walls)
    parent = {tuple(start): None}
    queue = deque([tuple(start)])
    while queue:
        square = queue.popleft()
        if square[1] == goal_row:
            path = []
            while parent[square] is not None:
                path.append(square)
                square = parent[square]
            return path[::-1]
        for nxt in geometry.neighbours(square, walls):
            if nxt not in parent:
                parent[nxt] = square
                queue.append(nxt)
    return []

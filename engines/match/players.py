"""What every game's adapter needs about its two players: their limits (`Side`), a forfeit with
its reason (`Forfeit`, and `forfeit_for` a protocol client's failure) and the time each may
take (`MoveClock`: a time per move, or a game clock of base + increment kept here).

A move over S + tolerance, or a game clock below -tolerance, is a time loss; with no time
control a command that takes longer than the match's --timeout is a 'timeout' forfeit.
"""
from __future__ import annotations

from dataclasses import dataclass

from engines.gtp_client import GtpClientError
from engines.match.pool import Cancelled


@dataclass
class Side:
    """One player's command line and limits."""

    cmd: str
    seconds: float | None = None  # per move (byo-yomi)
    tc: tuple[float, float] | None = None  # per game: base seconds, increment per move
    playouts: int | None = None
    threads: int | None = None

    def describe(self) -> str:
        parts = []
        if self.tc:
            parts.append(f"{self.tc[0]:g}+{self.tc[1]:g} s/game")
        if self.seconds:
            parts.append(f"{self.seconds:g} s/move")
        if self.playouts:
            parts.append(f"{self.playouts} playouts")
        if self.threads:
            parts.append(f"{self.threads} threads")
        return ", ".join(parts) or "no limit"


class Forfeit(Exception):
    """ROLE ('candidate' or 'opponent') loses the game: KIND (illegal, crash, time, timeout,
    garbage, refused) and the DETAIL the record keeps."""

    def __init__(self, role: str, kind: str, detail: str):
        super().__init__(detail)
        self.role, self.kind, self.detail = role, kind, detail


def forfeit_for(role: str, error: GtpClientError, time_control: bool = False) -> Exception:
    """The forfeit a client's failure is (or Cancelled when the pool is closing)."""
    if error.kind == "cancelled":
        return Cancelled(str(error))
    if error.kind == "timeout":
        if time_control:
            return Forfeit(role, "time", f"over its time: {error}")
        return Forfeit(role, "timeout", f"stopped answering: {error}")
    return Forfeit(role, error.kind, str(error))


class MoveClock:
    """The time each role may take for its next move, and the charge for the one it took."""

    def __init__(self, sides: dict[str, Side], tolerance: float, timeout: float):
        self.sides, self.tolerance, self.timeout = sides, tolerance, timeout
        self.left = {role: side.tc[0] for role, side in sides.items() if side.tc}

    def timed(self, role: str) -> bool:
        side = self.sides[role]
        return bool(side.tc or side.seconds)

    def deadline(self, role: str) -> float:
        """Seconds ROLE's answer may take."""
        side = self.sides[role]
        if side.tc:
            return max(0.0, self.left[role]) + self.tolerance
        if side.seconds:
            return side.seconds + self.tolerance
        return self.timeout

    def charge(self, role: str, elapsed: float) -> None:
        """ROLE took ELAPSED seconds for a move: a time loss forfeits, else the increment."""
        side, tolerance = self.sides[role], self.tolerance
        if side.tc:
            self.left[role] -= elapsed
            if self.left[role] < -tolerance:
                raise Forfeit(role, "time", f"lost on time: {-self.left[role]:.2f} s over its "
                              f"{side.tc[0]:g}+{side.tc[1]:g} game time (tolerance "
                              f"{tolerance:g} s)")
            self.left[role] += side.tc[1]
        elif side.seconds and elapsed > side.seconds + tolerance:
            raise Forfeit(role, "time", f"took {elapsed:.2f} s for a move (limit "
                          f"{side.seconds:g} s + tolerance {tolerance:g} s)")

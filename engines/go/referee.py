"""An independent referee for finished Go games (area scoring, as Chinese rules and Tromp-Taylor).

Neither player judges its own game. The referee is a fresh GNU Go process that knows nothing but
the game record:

1. It replays the record with ``play`` (GNU Go checks every move's legality: an illegal move in
   the record forfeits the game for the player who made it).
2. **Verdict**: GNU Go's ``final_status_list dead`` names the dead stones; they are lifted and
   the board is area-scored by Tromp-Taylor with komi. GNU Go decides death by its owl search plus
   a careful play-out (its "aftermath" module), the strongest classical judge available here.
3. **Cross-check**: the same process then plays the position out, both colours, with
   ``--capture-all-dead`` (dead stones must be captured on the board before it passes) until two
   passes, and the finished board is scored by Tromp-Taylor with no judgement at all. Death is made
   physical, as the exhaustion referees do.

When the two disagree on the winner the verdict keeps step 2 and is marked ``disputed`` so the
match runner can list the game for a human look at its SGF. The raw Tromp-Taylor score of the
final board (every stone counted as alive) is reported too: it disagrees whenever dead stones were
left on the board, which is why it cannot be the referee on its own.

Trade-off: the judge is the same program as the usual opponent (GNU Go), so a blind spot it has
when playing can reappear when judging; the play-out cross-check and the saved SGFs are the guard.
Seki is scored as Tromp-Taylor does (shared liberties are nobody's), which is what area rules say.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from engines.go.coords import from_gtp, to_gtp
from engines.go.gtp import format_score
from engines.gtp_client import GtpClient, GtpClientError
from engines.go.sgf import GameRecord
from plumbing.errors import NamedError

Point = tuple[int, int]
GNUGO = "/usr/games/gnugo"


class RefereeError(NamedError):
    """The referee could not judge the game (its GNU Go process failed)."""


@dataclass(frozen=True)
class Ending:
    """How the game stopped: 'passes', 'resign', 'forfeit' (loser named) or 'max-moves'."""

    kind: str
    loser: str | None = None  # 'b' | 'w' for resign and forfeit
    detail: str = ""


@dataclass
class Verdict:
    result: str  # "B+3", "W+R", "B+F", "0" (a draw)
    winner: str | None  # 'b', 'w' or None for a draw
    reason: str
    score: float | None = None  # area score after removing dead stones, positive = black
    dead: list[Point] = field(default_factory=list)
    playout_score: float | None = None
    raw_score: float | None = None  # Tromp-Taylor with every stone alive
    disputed: bool = False


# ---------------------------------------------------------------- scoring (pure)


def area_score(rows: list[str] | list[list[str]], komi: float) -> float:
    """Tromp-Taylor: stones plus empty regions that reach only one colour; black minus white
    minus komi. ``rows`` hold '.', 'b', 'w'."""
    size = len(rows)
    seen = [[False] * size for _ in range(size)]
    score = {"b": 0, "w": 0}
    for y in range(size):
        for x in range(size):
            cell = rows[y][x]
            if cell != ".":
                score[cell] += 1
                continue
            if seen[y][x]:
                continue
            region, reaches = 0, set()
            queue = deque([(x, y)])
            seen[y][x] = True
            while queue:
                px, py = queue.popleft()
                region += 1
                for nx, ny in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                    if 0 <= nx < size and 0 <= ny < size:
                        neighbour = rows[ny][nx]
                        if neighbour == ".":
                            if not seen[ny][nx]:
                                seen[ny][nx] = True
                                queue.append((nx, ny))
                        else:
                            reaches.add(neighbour)
            if len(reaches) == 1:
                score[reaches.pop()] += region
    return score["b"] - score["w"] - komi


def remove_stones(rows, points) -> list[list[str]]:
    board = [list(row) for row in rows]
    for x, y in points:
        board[y][x] = "."
    return board


def winner_of(score: float) -> str | None:
    return "b" if score > 0 else "w" if score < 0 else None


# ---------------------------------------------------------------- the referee process


class Referee:
    """Judges finished games with its own GNU Go process per game (nothing carries over)."""

    def __init__(self, gnugo: str = GNUGO, level: int = 10, playout_level: int | None = None,
                 timeout: float = 300.0, seed: int = 1):
        self.gnugo = gnugo
        self.seed = seed  # fixed, so the same record always gets the same verdict
        self.level = level
        self.playout_level = level if playout_level is None else playout_level
        self.timeout = timeout

    def judge(self, record: GameRecord, ending: Ending) -> Verdict:
        if ending.kind in ("resign", "forfeit"):
            if ending.loser not in ("b", "w"):
                raise ValueError(f"a {ending.kind} needs the loser ('b' or 'w')")
            winner = "w" if ending.loser == "b" else "b"
            mark = "R" if ending.kind == "resign" else "F"
            who = "black" if ending.loser == "b" else "white"
            reason = f"{who} {'resigned' if mark == 'R' else 'forfeited'}"
            return Verdict(f"{winner.upper()}+{mark}", winner,
                           reason + (f": {ending.detail}" if ending.detail else ""))
        argv = [self.gnugo, "--mode", "gtp", "--chinese-rules", "--level", str(self.level),
                "--komi", f"{record.komi:g}", "--capture-all-dead", "--seed", str(self.seed)]
        try:
            with GtpClient(argv, name="referee (GNU Go)", timeout=self.timeout) as gnugo:
                return self._count(gnugo, record, ending)
        except OSError as error:
            raise RefereeError(f"cannot start the referee {self.gnugo}: {error} "
                               "(install Debian's gnugo)") from None

    def _count(self, gnugo: GtpClient, record: GameRecord, ending: Ending) -> Verdict:
        size = record.size
        try:
            gnugo.command(f"boardsize {size}")
            gnugo.command("clear_board")
            gnugo.command(f"komi {record.komi:g}")
        except GtpClientError as error:
            raise RefereeError(f"the referee cannot set up a {size}x{size} game: {error}") from None
        setup = [("b", p) for p in record.setup_black] + [("w", p) for p in record.setup_white]
        for number, (color, point) in enumerate(setup + record.moves, start=1 - len(setup)):
            try:
                gnugo.command(f"play {color} {to_gtp(point, size)}")
            except GtpClientError:
                winner = "w" if color == "b" else "b"
                who = "black" if color == "b" else "white"
                return Verdict(f"{winner.upper()}+F", winner,
                               f"{who} played an illegal move {to_gtp(point, size)} "
                               f"(move {number})")
        try:
            rows = self._board(gnugo, size)
            dead = self._vertices(gnugo.command("final_status_list dead"), size)
            score = area_score(remove_stones(rows, dead), record.komi)
            raw = area_score(rows, record.komi)
            playout = area_score(self._play_out(gnugo, record), record.komi)
        except GtpClientError as error:
            raise RefereeError(f"the referee failed while counting: {error}") from None
        winner = winner_of(score)
        reasons = [f"{'two passes' if ending.kind == 'passes' else 'move limit reached'}; "
                   f"area count after removing {len(dead)} dead stone(s)"]
        disputed = winner_of(playout) != winner
        if disputed:
            reasons.append(f"DISPUTED: playing it out gives {format_score(playout)}")
        else:
            reasons.append(f"play-out agrees ({format_score(playout)})")
        if winner_of(raw) != winner:
            reasons.append(f"Tromp-Taylor without removal would give {format_score(raw)}")
        return Verdict(format_score(score), winner, "; ".join(reasons), score=score, dead=dead,
                       playout_score=playout, raw_score=raw, disputed=disputed)

    def _board(self, gnugo: GtpClient, size: int) -> list[list[str]]:
        rows = [["."] * size for _ in range(size)]
        for color in ("b", "w"):
            for x, y in self._vertices(gnugo.command(f"list_stones {color}"), size):
                rows[y][x] = color
        return rows

    @staticmethod
    def _vertices(text: str, size: int) -> list[Point]:
        return [p for p in (from_gtp(v, size) for v in text.split()) if p is not None]

    def _play_out(self, gnugo: GtpClient, record: GameRecord) -> list[list[str]]:
        """Both colours played by GNU Go (capturing dead stones before passing) to two passes."""
        if self.playout_level != self.level:
            gnugo.command(f"level {self.playout_level}")
        color = "w" if record.moves and record.moves[-1][0] == "b" else "b"
        passes = 0
        for _ in range(2 * record.size * record.size):
            move = gnugo.command(f"genmove {color}").lower()
            if move == "resign":  # the resigning colour stops playing; the other side finishes
                move = "pass"
                gnugo.command(f"play {color} pass")
            passes = passes + 1 if move == "pass" else 0
            if passes >= 2:
                break
            color = "w" if color == "b" else "b"
        return self._board(gnugo, record.size)

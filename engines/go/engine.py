"""GoEngine: the Python face of the C core (engines/go/core, built by engines/go/build_go.py).

One engine holds one game and one search (the search reads the game and never changes it; its
random stream is seeded by `seed`). The judging playouts of final_score/dead_stones draw from a
stream of their own, restarted at JUDGE_SEED for each verdict: a verdict depends on the position
alone, not on the searches that ran before it.
Calls are serialised by a lock per engine; the C search runs with the GIL released, so other
Python threads keep running while it thinks.
"""
from __future__ import annotations

import threading

from engines.go._core import ffi, lib

BLACK, WHITE = 1, 2
_COLORS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
_NAMES = {BLACK: "b", WHITE: "w"}
_WHY = {
    1: "occupied",
    2: "suicide",
    3: "ko",
    4: "superko",
    5: "off board",
    6: "wrong color",
    7: "wrong size",
    8: "out of memory",
}
DEFAULT_PLAYOUTS = 10000
DEFAULT_JUDGE_PLAYOUTS = 1000
JUDGE_SEED = 0         # go_core.js judges from the same seed: the page and the server agree


class IllegalMove(ValueError):
    """A move or argument the rules refuse; the message says why (occupied, suicide, ko, ...)."""


def _color(color) -> int:
    code = _COLORS.get(str(color).lower()) if color is not None else None
    if code is None:
        raise IllegalMove(f"wrong color {color!r}: expected 'b' or 'w'")
    return code


class GoEngine:
    """A game of Go with the engine's search; see the package docstring for the contract."""

    def __init__(self, size=9, komi=7.0, superko=False, seed=0, threads=1, value=False):
        if not isinstance(size, int) or not 2 <= size <= 19:
            raise IllegalMove(f"wrong size {size!r}: boards are 2x2 to 19x19")
        game = lib.go_game_new(size, float(komi), 1 if superko else 0)
        if game == ffi.NULL:
            raise MemoryError("the Go core could not allocate a game")
        self._game = ffi.gc(game, lib.go_game_free)
        search = lib.go_search_new(int(seed) & (2**64 - 1))
        if search == ffi.NULL:
            raise MemoryError("the Go core could not allocate a search")
        self._searcher = ffi.gc(search, lib.go_search_free)
        self._lock = threading.Lock()
        self._playouts = DEFAULT_PLAYOUTS
        self._seconds = None
        self._threads = max(1, int(threads))
        # The learned network's policy and value as the search's priors (go_search_opts.value):
        # off by default.
        self.value = bool(value)
        self.superko = bool(superko)
        self._cap = ffi.new("int[]", 2 * 19 * 19)
        self._ncap = ffi.new("int *")

    # ---- state --------------------------------------------------------------------------

    @property
    def game(self):
        if self._game is None:
            raise RuntimeError("this GoEngine is closed")
        return self._game

    @property
    def size(self) -> int:
        return lib.go_game_size(self.game)

    @property
    def komi(self) -> float:
        return lib.go_game_komi(self.game)

    @property
    def to_move(self) -> str:
        return _NAMES[lib.go_game_to_move(self.game)]

    @property
    def captures(self) -> dict:
        return {"b": lib.go_game_captures(self.game, BLACK), "w": lib.go_game_captures(self.game, WHITE)}

    @property
    def ko(self):
        x, y = ffi.new("int *"), ffi.new("int *")
        return (x[0], y[0]) if lib.go_game_ko_xy(self.game, x, y) else None

    def board(self) -> list[list[str]]:
        n = self.size
        buf = ffi.new("char[]", n * n)
        lib.go_game_board_chars(self.game, buf)
        text = ffi.unpack(buf, n * n).decode()
        return [list(text[y * n:(y + 1) * n]) for y in range(n)]

    def moves(self) -> list:
        out, c, x, y = [], ffi.new("int *"), ffi.new("int *"), ffi.new("int *")
        for i in range(lib.go_game_nmoves(self.game)):
            lib.go_game_move(self.game, i, c, x, y)
            out.append((_NAMES[c[0]], None if x[0] < 0 else (x[0], y[0])))
        return out

    def hash(self) -> int:
        """Zobrist hash of the position: stones, side to move and ko point."""
        return lib.go_game_hash(self.game)

    # ---- changing the game ------------------------------------------------------------------

    def clear(self, size=None):
        with self._lock:
            if size is not None and (not isinstance(size, int) or lib.go_game_clear(self.game, size) != 0):
                raise IllegalMove(f"wrong size {size!r}: boards are 2x2 to 19x19")
            if size is None:
                lib.go_game_clear(self.game, 0)

    def set_komi(self, komi: float):
        lib.go_game_set_komi(self.game, float(komi))

    def _xy(self, point):
        if point is None:
            return -1, -1
        try:
            x, y = point
            x, y = int(x), int(y)
        except (TypeError, ValueError):
            raise IllegalMove(f"off board: {point!r} is not an (x, y) point") from None
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise IllegalMove(f"off board: {point!r} on a {self.size}x{self.size} board")
        return x, y

    def play(self, color, point):
        """Play a stone (point=None passes); returns the captured points; raises IllegalMove."""
        code, (x, y) = _color(color), self._xy(point)
        with self._lock:
            err = lib.go_game_play(self.game, code, x, y, self._cap, self._ncap)
            if err:
                raise IllegalMove(f"{_WHY.get(err, 'illegal')}: {_NAMES[code]} at {point}")
            return [(self._cap[2 * i], self._cap[2 * i + 1]) for i in range(self._ncap[0])]

    def undo(self) -> bool:
        with self._lock:
            return bool(lib.go_game_undo(self.game))

    def is_legal(self, color, point) -> bool:
        try:
            code, (x, y) = _color(color), self._xy(point)
        except IllegalMove:
            return False
        return lib.go_game_check(self.game, code, x, y) == 0

    def legal_moves(self, color=None) -> list:
        code = _color(color if color is not None else self.to_move)
        xy = ffi.new("int[]", 2 * self.size * self.size)
        n = lib.go_game_legal_moves(self.game, code, xy)
        return [(xy[2 * i], xy[2 * i + 1]) for i in range(n)]

    # ---- thinking -------------------------------------------------------------------------------

    def set_budget(self, playouts=None, seconds=None, threads=None):
        """Defaults for genmove/analyze: a playout count, a time limit, or both (first reached)."""
        if playouts is not None or seconds is not None:
            self._playouts = int(playouts) if playouts else None
            self._seconds = float(seconds) if seconds else None
        if threads is not None:
            self._threads = max(1, int(threads))

    def _search(self, color, playouts, seconds):
        code = _color(color)
        if playouts is None and seconds is None:
            playouts, seconds = self._playouts, self._seconds
        opts = ffi.new("go_search_opts *")
        opts.playouts = int(playouts or 0)
        opts.seconds = float(seconds or 0.0)
        opts.threads = self._threads
        opts.reuse = 1
        opts.want_pv = 1
        opts.value = 1 if self.value else 0
        res = ffi.new("go_search_result *")
        err = lib.go_search_run(self._searcher, self.game, code, opts, res)
        if err:
            raise IllegalMove(_WHY.get(err, "search failed"))
        return code, res

    def genmove(self, color, playouts=None, seconds=None):
        """Search, play and return the move: (x, y), None for a pass, or 'resign' (not played)."""
        return self.genmove_analyzed(color, playouts, seconds)[0]

    def genmove_analyzed(self, color, playouts=None, seconds=None):
        """genmove, and the analysis (as `analyze` gives it) of the search that chose the move."""
        with self._lock:
            code, res = self._search(color, playouts, seconds)
            analysis = self._analysis(res)
            if res.move_x == -2:
                return "resign", analysis
            x, y = res.move_x, res.move_y
            err = lib.go_game_play(self.game, code, x, y, self._cap, self._ncap)
            if err:  # cannot happen for a searched move; never leave the game inconsistent
                raise IllegalMove(f"{_WHY.get(err, 'illegal')}: engine move {(x, y)}")
            return (None if x < 0 else (x, y)), analysis

    def analyze(self, color, playouts=None, seconds=None) -> dict:
        """Search without playing: win rate for color, candidates, principal variation, ownership."""
        with self._lock:
            _, res = self._search(color, playouts, seconds)
            return self._analysis(res)

    def _analysis(self, res) -> dict:
        n = self.size

        def point(x, y):
            return None if x < 0 else (x, y)

        return {
            "winrate": float(res.winrate),
            "playouts": int(res.playouts),
            "seconds": float(res.seconds),
            "root_visits": int(res.tree_playouts),   # includes visits kept from earlier searches
            "valued": int(res.valued),               # positions the learned network judged
            "candidates": [
                {
                    "move": point(res.cand_x[i], res.cand_y[i]),
                    "visits": int(res.cand_visits[i]),
                    "prior": float(res.cand_prior[i]),
                    "winrate": float(res.cand_winrate[i]),
                }
                for i in range(res.ncandidates)
            ],
            "pv": [point(res.pv_x[i], res.pv_y[i]) for i in range(res.npv)],
            "ownership": [[float(res.ownership[y * n + x]) for x in range(n)] for y in range(n)],
        }

    # ---- scoring ------------------------------------------------------------------------------

    @staticmethod
    def _judge_rng():
        rng = ffi.new("go_rng *")
        lib.go_rng_seed(rng, JUDGE_SEED)
        return rng

    def tromp_taylor_score(self) -> float:
        return lib.go_game_tromp_taylor(self.game)

    def final_score(self, playouts=DEFAULT_JUDGE_PLAYOUTS) -> float:
        with self._lock:
            return lib.go_game_final_score(self.game, int(playouts), self._judge_rng())

    def dead_stones(self, playouts=DEFAULT_JUDGE_PLAYOUTS) -> list:
        n = self.size
        out = ffi.new("uint8_t[]", n * n)
        with self._lock:
            lib.go_game_dead_stones(self.game, int(playouts), self._judge_rng(), out)
        return [(i % n, i // n) for i in range(n * n) if out[i]]

    def pass_alive(self) -> list:
        """Stones of chains Benson's test proves alive (they can never be captured)."""
        n = self.size
        out = ffi.new("uint8_t[]", n * n)
        lib.go_game_pass_alive(self.game, out)
        return [(i % n, i // n) for i in range(n * n) if out[i]]

    # ---- life cycle -----------------------------------------------------------------------------

    def close(self):
        with self._lock:
            if self._game is not None:
                ffi.release(self._game)
                self._game = None
                ffi.release(self._searcher)
                self._searcher = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

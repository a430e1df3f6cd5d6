"""GomokuEngine: the Python face of the C core (engines/gomoku/core, built by
engines/gomoku/build_gomoku.py).

One engine holds one board with its record, under one rule. The exceptions are rules.py's
(IllegalMove and its named subclasses OffBoard, Occupied, GameOver, Forbidden with `.rule`),
so the reference and the engine refuse a move with the same exception and message start.
Calls are serialised by a lock per engine: the C functions run with the GIL released (cffi API
mode), and the forbidden-point checks put stones on the board for a moment.
"""
from __future__ import annotations

import threading

from engines.gomoku._core import ffi, lib
from engines.gomoku.rules import (BLACK, EMPTY, RULES, WHITE, Forbidden, GameOver, IllegalMove,
                                  OffBoard, Occupied, WrongSetup)

_RULE_CODES = {name: i for i, name in enumerate(RULES)}
_COLORS = {lib.GM_EMPTY: EMPTY, lib.GM_BLACK: BLACK, lib.GM_WHITE: WHITE}
_FORBIDDEN = {lib.GM_ERR_OVERLINE: "overline", lib.GM_ERR_DOUBLE_FOUR: "double-four",
              lib.GM_ERR_DOUBLE_THREE: "double-three"}
_WINNERS = {lib.GM_RESULT_BLACK: BLACK, lib.GM_RESULT_WHITE: WHITE}
# gm_board_threats' kinds (GM_THREAT_FIVE = 1 ...), strongest first: the threat view's names.
THREAT_KINDS = ("five", "open-four", "four-four", "four-three", "four", "three-three", "three")
N = lib.GM_MAX_SIZE
WIN_SCORE = lib.GM_WIN_SCORE


def _point(cell: int) -> tuple[int, int]:
    y, x = divmod(cell, N)
    return x, y


def proven_text(color: str, plies: int) -> str:
    """'black wins in 9 plies (5 moves)' for a proof of PLIES plies by COLOR; '' for none."""
    if not plies:
        return ""
    name = "black" if color == BLACK else "white"
    moves = (plies + 1) // 2
    return f"{name} wins in {plies} plies ({moves} move{'s' if moves > 1 else ''})"


class GomokuEngine:
    """A game of Gomoku on the C core; see the module docstring for the contract."""

    def __init__(self, size: int = 15, rule: str = "freestyle", tt_megabytes: int = 64):
        self._lock = threading.Lock()
        self._tt_megabytes = tt_megabytes
        self._search = None
        self._cells = ffi.new("int[]", lib.GM_MAX_CELLS)
        board = lib.gm_board_new(lib.GM_MIN_SIZE, 0)
        if board == ffi.NULL:
            raise MemoryError("the Gomoku core could not allocate a board")
        self._board = ffi.gc(board, lib.gm_board_free)
        self.reset(size, rule)

    # ---- state ----------------------------------------------------------------------------

    @property
    def board_ptr(self):
        if self._board is None:
            raise RuntimeError("this GomokuEngine is closed")
        return self._board

    def reset(self, size: int | None = None, rule: str | None = None) -> None:
        """An empty board; a new size (5..20) and rule if given."""
        size = self.size if size is None else size
        rule = self.rule if rule is None else rule
        if not isinstance(size, int) or not lib.GM_MIN_SIZE <= size <= lib.GM_MAX_SIZE:
            raise WrongSetup(f"size {size!r}: boards are {lib.GM_MIN_SIZE}x{lib.GM_MIN_SIZE} "
                             f"to {N}x{N}")
        if rule not in _RULE_CODES:
            raise WrongSetup(f"rule {rule!r}: one of {', '.join(RULES)}")
        with self._lock:
            lib.gm_board_reset(self.board_ptr, size, _RULE_CODES[rule])

    @property
    def size(self) -> int:
        return lib.gm_board_size(self.board_ptr)

    @property
    def rule(self) -> str:
        return RULES[lib.gm_board_rule(self.board_ptr)]

    @property
    def to_move(self) -> str:
        return _COLORS[lib.gm_board_to_move(self.board_ptr)]

    @property
    def is_over(self) -> bool:
        return lib.gm_board_result(self.board_ptr) != lib.GM_RESULT_NONE

    @property
    def winner(self) -> str | None:
        """'b' or 'w' once a side has won; None while playing and for a draw."""
        return _WINNERS.get(lib.gm_board_result(self.board_ptr))

    @property
    def winning_line(self) -> list[tuple[int, int]]:
        with self._lock:
            n = lib.gm_board_win_line(self.board_ptr, self._cells)
            return [_point(self._cells[i]) for i in range(n)]

    def hash(self) -> int:
        """Zobrist hash: stones and side to move (the keys of rules.py)."""
        return lib.gm_board_hash(self.board_ptr)

    def board(self) -> list[list[str]]:
        """Rows top to bottom of '.', 'b', 'w'."""
        b, n = self.board_ptr, self.size
        return [[_COLORS[lib.gm_board_at(b, x, y)] for x in range(n)] for y in range(n)]

    def moves(self) -> list[tuple[int, int]]:
        b = self.board_ptr
        return [_point(lib.gm_board_move(b, i)) for i in range(lib.gm_board_nmoves(b))]

    # ---- moves ----------------------------------------------------------------------------

    def _xy(self, point) -> tuple[int, int]:
        try:
            x, y = point
            x, y = int(x), int(y)
        except (TypeError, ValueError):
            raise OffBoard(f"{point!r} is not an (x, y) point") from None
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise OffBoard(f"{(x, y)} on a {self.size}x{self.size} board")
        return x, y

    def _error(self, code: int, x: int, y: int) -> IllegalMove:
        if code == lib.GM_ERR_OCCUPIED:
            color = "black" if lib.gm_board_at(self.board_ptr, x, y) == lib.GM_BLACK else "white"
            return Occupied(f"{(x, y)} holds {color}")
        if code in _FORBIDDEN:
            return Forbidden(_FORBIDDEN[code], f"at {(x, y)} for black")
        if code == lib.GM_ERR_GAME_OVER:
            return GameOver(f"{(x, y)}: the game is over")
        return IllegalMove(f"error {code} at {(x, y)}")

    def why_illegal(self, point) -> IllegalMove | None:
        """The exception play(point) would raise, or None."""
        try:
            x, y = self._xy(point)
        except OffBoard as error:
            return error
        with self._lock:
            code = lib.gm_board_check(self.board_ptr, x, y)
        return self._error(code, x, y) if code else None

    def is_legal(self, point) -> bool:
        return self.why_illegal(point) is None

    def play(self, point) -> None:
        """Place a stone of the side to move at (x, y); raises an IllegalMove subclass."""
        x, y = self._xy(point)
        with self._lock:
            code = lib.gm_board_play(self.board_ptr, x, y)
        if code:
            raise self._error(code, x, y)

    def undo(self) -> tuple[int, int] | None:
        """Take back the last move; returns it, or None when there is none."""
        with self._lock:
            b = self.board_ptr
            n = lib.gm_board_nmoves(b)
            if n == 0:
                return None
            last = lib.gm_board_move(b, n - 1)
            lib.gm_board_undo(b)
            return _point(last)

    def setup(self, moves) -> None:
        """The position after moves (black first, alternating) with no rule checked; only the
        last stone is judged. The same as rules.Game.setup."""
        points = [self._xy(p) for p in moves]
        cells = ffi.new("int[]", max(1, len(points)))
        for i, (x, y) in enumerate(points):
            cells[i] = y * N + x
        with self._lock:
            code = lib.gm_board_setup(self.board_ptr, cells, len(points))
        if code == lib.GM_ERR_OCCUPIED:
            raise Occupied(f"a point is given twice in {list(moves)!r}")
        if code:
            raise WrongSetup(f"{len(points)} moves on a {self.size}x{self.size} board")

    def legal_moves(self) -> list[tuple[int, int]]:
        """Points the side to move may play, sorted by (y, x); [] once the game is over."""
        with self._lock:
            n = lib.gm_board_legal_moves(self.board_ptr, self._cells)
            return [_point(self._cells[i]) for i in range(n)]

    def forbidden_points(self) -> list[tuple[int, int]]:
        """Points forbidden for black (renju only), sorted by (y, x)."""
        with self._lock:
            n = lib.gm_board_forbidden_points(self.board_ptr, self._cells)
            return [_point(self._cells[i]) for i in range(n)]

    def forbidden_reason(self, point) -> str | None:
        """overline, double-four or double-three if black may not play there, else None."""
        x, y = self._xy(point)
        with self._lock:
            return _FORBIDDEN.get(lib.gm_board_forbidden(self.board_ptr, x, y))

    def threats(self, color: str) -> list[tuple[tuple[int, int], str]]:
        """(point, kind) where a stone of COLOR ('b' or 'w') makes a threat (THREAT_KINDS),
        strongest first, then by (y, x); in renju none on black's forbidden points."""
        if color not in (BLACK, WHITE):
            raise ValueError(f"color {color!r}: 'b' or 'w'")
        kinds = ffi.new("int[]", lib.GM_MAX_CELLS)
        code = lib.GM_BLACK if color == BLACK else lib.GM_WHITE
        with self._lock:
            n = lib.gm_board_threats(self.board_ptr, code, self._cells, kinds)
            return [(_point(self._cells[i]), THREAT_KINDS[kinds[i] - 1]) for i in range(n)]

    # ---- search ---------------------------------------------------------------------------

    def _searcher(self):
        if self._search is None:
            s = lib.gm_search_new(self._tt_megabytes)
            if s == ffi.NULL:
                raise MemoryError(f"no memory for a {self._tt_megabytes} MB search table")
            self._search = ffi.gc(s, lib.gm_search_free)
        return self._search

    @property
    def tt_megabytes(self) -> int:
        """The size asked for the search's table (the core rounds it down to a power of two)."""
        return self._tt_megabytes

    def set_memory(self, tt_megabytes: int) -> None:
        """The transposition table's size for the next search (a new, empty table)."""
        with self._lock:
            self._tt_megabytes = int(tt_megabytes)
            if self._search is not None:
                ffi.release(self._search)
                self._search = None

    def clear_table(self) -> None:
        """A new game for the search: its table emptied, and all of its memory written now, so
        that no timed search pays for the table's first use (Gomocup's START and RESTART call
        this; a short-lived engine need not)."""
        with self._lock:
            lib.gm_search_clear(self._searcher())

    def search(self, seconds: float | None = None, nodes: int | None = None,
               depth: int | None = None, plain: bool = False) -> dict:
        """Search the position for the side to move (the board is not changed): a root VCF
        proof search, then iterative-deepening alpha-beta until the first budget runs out
        (none given: depth GM_SEARCH_DEFAULT_DEPTH). Returns move (x, y) or None once the game
        is over, score (side to move's view; GM_WIN_SCORE - n for a win whose five is ply n),
        depth, nodes, seconds, pv, candidates [(point, score)] (the best's score exact, the
        others upper bounds), proven_win_in (plies to the five of a proven win, 0 if none) and
        proven, the same in words ("black wins in 9 plies (5 moves)", "" if none).
        PLAIN is the match baseline's reference alpha-beta: no root VCF, no transposition
        table, no killer or history moves (the same evaluation, move order and forced blocks).
        """
        opts = ffi.new("gm_search_opts *")
        opts.seconds = float(seconds) if seconds else 0.0
        opts.nodes = int(nodes) if nodes else 0
        opts.depth = int(depth) if depth else 0
        opts.plain = 1 if plain else 0
        out = ffi.new("gm_search_result *")
        with self._lock:
            lib.gm_search_run(self._searcher(), self.board_ptr, opts, out)
        return {
            "move": _point(out.move) if out.move >= 0 else None,
            "score": out.score, "depth": out.depth, "nodes": out.nodes,
            "seconds": out.seconds,
            "pv": [_point(out.pv[i]) for i in range(out.pv_len)],
            "candidates": [(_point(out.cand[i]), out.cand_score[i]) for i in range(out.ncand)],
            "proven_win_in": out.proven_win_in,
            "proven": proven_text(self.to_move, out.proven_win_in),
        }

    def genmove(self, seconds: float | None = None, nodes: int | None = None,
                depth: int | None = None, plain: bool = False) -> dict:
        """search(), then play its move (when there is one); returns the search's dict."""
        result = self.search(seconds=seconds, nodes=nodes, depth=depth, plain=plain)
        if result["move"] is not None:
            self.play(result["move"])
        return result

    # ---- life cycle -----------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            if self._board is not None:
                ffi.release(self._board)
                self._board = None
            if self._search is not None:
                ffi.release(self._search)
                self._search = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

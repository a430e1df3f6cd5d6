"""QuoridorEngine: the Python face of the C core (engines/quoridor/core, built by
engines/quoridor/build_quoridor.py).

Moves are the ones rules.py takes: notation text ('e2', 'e3v'), a square (x, y) or a wall
(x, y, 'h' | 'v'). Refusals raise rules.py's named exceptions (GameOver, OffBoard,
IllegalPawnMove, NoWallsLeft, WallOverlaps, WallCrosses, WallBlocksPath), each naming the move.
Calls are serialised by a lock per engine; cffi releases the GIL inside every C call, a search
included (``search`` and ``genmove`` hold the engine's lock, not the GIL, while they think).
"""
from __future__ import annotations

import math
import threading

from engines.quoridor import rules
from engines.quoridor._core import ffi, lib

_REFUSALS = {
    lib.QR_ERR_GAME_OVER: (rules.GameOver, "the game is over"),
    lib.QR_ERR_OFF_BOARD: (rules.OffBoard, "off the board"),
    lib.QR_ERR_PAWN: (rules.IllegalPawnMove, "the pawn to move cannot reach it"),
    lib.QR_ERR_NO_WALLS: (rules.NoWallsLeft, "no walls left"),
    lib.QR_ERR_OVERLAP: (rules.WallOverlaps, "overlaps a wall"),
    lib.QR_ERR_CROSS: (rules.WallCrosses, "crosses a wall"),
    lib.QR_ERR_BLOCKS: (rules.WallBlocksPath, "blocks every path of a pawn to its goal row"),
    lib.QR_ERR_NOMEM: (MemoryError, "out of memory"),
}


ENGINES = ("alphabeta", "mcts", "reference-ai")
SHIPPED_ENGINE = "mcts"  # the stronger one at equal time (bench/README.md): the protocol's default
DEFAULT_ENGINE = SHIPPED_ENGINE  # search()'s default too (the arcade asks for the alpha-beta)


def _winrate_score(w: float) -> int:
    """A win rate as hundredths of a step (1.5 steps an e-fold of the odds: about the scale
    of the tree search's leaf value)."""
    w = min(max(w, 1e-4), 1 - 1e-4)
    return round(150 * math.log(w / (1 - w)))


class QuoridorEngine:
    """A game of Quoridor on the C core; see the module docstring for the contract."""

    def __init__(self, size: int = 9, walls: int | None = None, edge_diagonal: bool = True,
                 tt_megabytes: int = 16, mcts_megabytes: int = 256, seed: int = 0,
                 threads: int = 1):
        game = lib.qr_game_new(*self._config(size, walls, edge_diagonal))
        if game == ffi.NULL:
            raise MemoryError("the Quoridor core could not allocate a game")
        self._game = ffi.gc(game, lib.qr_game_free)
        self._lock = threading.Lock()
        self._buf = ffi.new("int[]", lib.QR_MAX_MOVES)
        self._tt_megabytes = tt_megabytes
        self._search = None                     # the C search, made on the first search
        self._mcts_megabytes = mcts_megabytes
        self._mcts = None                       # the C tree search, made on its first run
        self.seed = seed
        self.threads = max(1, int(threads))     # our MCTS's threads sharing one tree

    @staticmethod
    def _config(size, walls, edge_diagonal):
        if size not in rules.SIZES:
            raise rules.OffBoard(f"wrong size {size!r}: boards are 3x3, 5x5, 7x7 or 9x9")
        walls = rules.default_walls(size) if walls is None else walls
        if not isinstance(walls, int) or not 0 <= walls <= lib.QR_MAX_WALLS:
            raise rules.OffBoard(f"wrong wall count {walls!r}: 0..{lib.QR_MAX_WALLS}")
        return size, walls, 1 if edge_diagonal else 0

    def clear(self, size: int | None = None, walls: int | None = None, edge_diagonal=None):
        """Back to the start; a new size, wall count or variant flag when given."""
        b = self.board
        size = b.size if size is None else size
        edge = bool(b.edge_diagonal) if edge_diagonal is None else edge_diagonal
        if walls is None and size == b.size:
            walls = self._start_walls()
        with self._lock:
            lib.qr_game_clear(self._game, *self._config(size, walls, edge))
            self._mcts = None           # a new game: no tree carried over (reuse)

    def _start_walls(self) -> int:
        b = self.board
        return b.walls_left[0] + sum(1 for i in range(lib.qr_game_nmoves(self._game))
                                     if i % 2 == 0 and lib.qr_game_move(self._game, i) >= lib.QR_WALL_H)

    # ---- state ---------------------------------------------------------------------------

    @property
    def board(self):
        return lib.qr_game_board(self._game)

    @property
    def size(self) -> int:
        return self.board.size

    @property
    def edge_diagonal(self) -> bool:
        return bool(self.board.edge_diagonal)

    @property
    def to_move(self) -> int:
        return self.board.to_move

    @property
    def pawns(self) -> list:
        n = self.size
        return [(c % n, c // n) for c in self.board.pawn]

    @property
    def walls_left(self) -> list:
        return list(self.board.walls_left)

    @property
    def walls(self) -> set:
        m, b = self.size - 1, self.board
        return {(s % m, s // m, o) for o, mask in (("h", b.hwalls), ("v", b.vwalls))
                for s in range(m * m) if mask >> s & 1}

    @property
    def winner(self):
        w = lib.qr_board_winner(self.board)
        return None if w < 0 else w

    def hash(self) -> int:
        return self.board.hash

    def path_length(self, player: int):
        d = lib.qr_board_path_length(self.board, player)
        return None if d < 0 else d

    def shortest_path(self, player: int) -> list:
        """The squares after player's pawn along one shortest path to its goal row (pawns
        ignored; the same path as rules.py's Game.shortest_path), [] if none."""
        cells = ffi.new("int[]", lib.QR_MAX_CELLS)
        n = lib.qr_board_shortest_path(self.board, player, cells)
        return [self._decode(c) for c in cells[0:max(n, 0)]]

    def legal_pawn_moves(self) -> list:
        n = lib.qr_board_pawn_moves(self.board, self._buf) if self.winner is None else 0
        return [self._decode(c) for c in self._buf[0:n]]

    def legal_walls(self) -> list:
        n = lib.qr_board_legal_walls(self.board, self._buf)
        return [self._decode(c) for c in self._buf[0:n]]

    def moves(self) -> list:
        return [rules.move_name(self._decode(lib.qr_game_move(self._game, i)))
                for i in range(lib.qr_game_nmoves(self._game))]

    # ---- moves ---------------------------------------------------------------------------

    def encode(self, move) -> int:
        """The core's move code of notation text, a square or a wall; OffBoard if none."""
        if isinstance(move, str):
            move = rules.parse_move(move)
        n = self.size
        if len(move) == 2 and all(0 <= v < n for v in move):
            return lib.qr_pawn_move(self.board, move[0], move[1])
        if len(move) == 3 and move[2] in ("h", "v") and all(0 <= v < n - 1 for v in move[:2]):
            return lib.qr_wall_move(self.board, move[2] == "v", move[0], move[1])
        return -1

    def _decode(self, code: int):
        n = self.size
        if code < lib.QR_WALL_H:
            return (code % n, code // n)
        vertical = code >= lib.QR_WALL_V
        s = code - (lib.QR_WALL_V if vertical else lib.QR_WALL_H)
        return (s % (n - 1), s // (n - 1), "v" if vertical else "h")

    def why_illegal(self, move):
        """None, or the exception class that would refuse move."""
        err = lib.qr_board_check(self.board, self.encode(move))
        return _REFUSALS[err][0] if err else None

    def play(self, move):
        """Play a move for the side to move; raises a named IllegalMove naming it."""
        code = self.encode(move)
        with self._lock:
            err = lib.qr_game_play(self._game, code)
        if err:
            cls, why = _REFUSALS[err]
            name = rules.move_name(self._decode(code)) if code >= 0 else repr(move)
            kind = "wall" if code >= lib.QR_WALL_H or (isinstance(move, tuple) and len(move) == 3) \
                or (isinstance(move, str) and move.strip()[-1:] in "hv") else "pawn move"
            raise cls(f"{kind} {name}: {why}")

    def set_position(self, pawns, walls, walls_left, to_move=0):
        """Set up a position (history cleared): pawns as two squares, walls as (x, y, o)."""
        n, m = self.size, self.size - 1
        cells = [y * n + x if 0 <= x < n and 0 <= y < n else -1 for x, y in pawns]
        masks = {"h": 0, "v": 0}
        for x, y, o in walls:
            if not (0 <= x < m and 0 <= y < m and o in masks):
                raise rules.OffBoard(f"wall {(x, y, o)!r}: off the board's grooves")
            masks[o] |= 1 << (y * m + x)
        with self._lock:
            err = lib.qr_game_set_position(self._game, cells[0], cells[1], masks["h"], masks["v"],
                                           walls_left[0], walls_left[1], to_move)
            self._mcts = None
        if err:
            cls, why = _REFUSALS[err]
            raise cls(f"position {pawns!r} {sorted(walls)!r}: {why}")

    def undo(self) -> bool:
        with self._lock:
            return bool(lib.qr_game_undo(self._game))

    # ---- search --------------------------------------------------------------------------

    def search(self, seconds: float | None = None, nodes: int | None = None,
               depth: int | None = None, engine: str = DEFAULT_ENGINE,
               playouts: int | None = None, reuse: bool = False) -> dict:
        """Search the position (the game is not changed) with ENGINE: 'mcts' (our tree
        search, the default: the stronger at equal time), 'alphabeta' (the C alpha-beta) or
        'reference-ai' (the public quoridor-ai method, see core/mcts.c). The first budget
        reached ends it; with none given, 1 second. For the tree searches NODES is a playout budget (as PLAYOUTS) and DEPTH is ignored;
        for the alpha-beta depth 1 always completes.

        Returns move (notation, None when the game is over), score (hundredths of a step, the
        side to move's view; beyond win_threshold a forced result), depth, nodes, seconds,
        nodes_per_second, pv (names), candidates ([name, score], best first: the first score
        exact, the others upper bounds), path (each player's shortest path), memory (bytes
        the search holds). The tree searches add winrate (the move's, side to move), playouts,
        tree_full, threads (that searched), child_visits (the visits of all root moves: every
        playout but the one that expanded a new root) and candidate_visits; their score is the
        win rate as hundredths of a step (150 ln(w / (1 - w)), about the scale of their leaf
        value) and depth the PV's length.

        REUSE (our MCTS only): start from the part of the last search's tree that holds this
        position (the last root or one or two plies after it; clear and set_position drop the
        tree), so a game's searches build on each other and the result depends on them.

        Our MCTS runs on the engine's THREADS (the constructor's), which share one tree; with
        more than one, a search's result varies from run to run."""
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}: {', '.join(ENGINES)}")
        if engine != "alphabeta":
            return self._tree_search(seconds, playouts or nodes, engine, reuse)
        if seconds is None and nodes is None and depth is None:
            seconds = 1.0
        history = ffi.new("uint64_t[]", lib.QR_SEARCH_HISTORY)
        opts = ffi.new("qr_search_opts *", {"seconds": seconds or 0.0, "nodes": nodes or 0,
                                            "depth": depth or 0, "history": history})
        r = ffi.new("qr_search_result *")
        with self._lock:
            # earlier positions that may come again: the search scores a repetition as a draw
            opts.nhistory = lib.qr_game_recent_hashes(self._game, history,
                                                      lib.QR_SEARCH_HISTORY)
            if self._search is None:
                s = lib.qr_search_new(self._tt_megabytes)
                if s == ffi.NULL:
                    raise MemoryError("the Quoridor core could not allocate a search")
                self._search = ffi.gc(s, lib.qr_search_free)
            lib.qr_search_run(self._search, self.board, opts, r)
            memory = lib.qr_search_memory(self._search)
        return self._search_dict(r, memory)

    def _search_dict(self, r, memory: int) -> dict:
        def name(code):
            return rules.move_name(self._decode(code))
        return {"move": name(r.move) if r.move >= 0 else None, "score": r.score,
                "depth": r.depth, "nodes": r.nodes, "seconds": r.seconds,
                "nodes_per_second": r.nodes / r.seconds if r.seconds > 0 else None,
                "pv": [name(c) for c in r.pv[0:r.pv_len]],
                "candidates": [[name(r.candidates[i]), r.candidate_scores[i]]
                               for i in range(r.ncandidates)],
                "path": [r.path[0], r.path[1]], "memory": memory,
                "win_threshold": lib.QR_SCORE_WIN - lib.QR_SEARCH_MAX_DEPTH}

    def _tree_search(self, seconds, playouts, engine: str, reuse: bool = False) -> dict:
        if seconds is None and playouts is None:
            seconds = 1.0
        style = lib.QR_MCTS_REFERENCE if engine == "reference-ai" else lib.QR_MCTS_OWN
        seed = (self.seed * 0x9E3779B97F4A7C15 ^ self.board.hash) & (2**64 - 1)
        history = ffi.new("uint64_t[]", lib.QR_SEARCH_HISTORY)
        opts = ffi.new("qr_mcts_opts *", {"seconds": seconds or 0.0, "playouts": playouts or 0,
                                          "style": style, "seed": seed, "history": history,
                                          "reuse": 1 if reuse else 0, "threads": self.threads})
        r = ffi.new("qr_mcts_result *")
        with self._lock:
            opts.nhistory = lib.qr_game_recent_hashes(self._game, history,
                                                      lib.QR_SEARCH_HISTORY)
            if self._mcts is None:
                t = lib.qr_mcts_new(self._mcts_megabytes)
                if t == ffi.NULL:
                    raise MemoryError("the Quoridor core could not allocate a tree search")
                self._mcts = ffi.gc(t, lib.qr_mcts_free)
            lib.qr_mcts_run(self._mcts, self.board, opts, r)
            memory = lib.qr_mcts_memory(self._mcts)
        return self._tree_dict(r, memory)

    def _tree_dict(self, r, memory: int) -> dict:
        def name(code):
            return rules.move_name(self._decode(code))
        cands = range(r.ncandidates)
        return {"move": name(r.move) if r.move >= 0 else None,
                "score": _winrate_score(r.winrate), "winrate": r.winrate,
                "depth": r.pv_len, "nodes": r.nodes, "playouts": r.playouts,
                "seconds": r.seconds,
                "nodes_per_second": r.playouts / r.seconds if r.seconds > 0 else None,
                "pv": [name(c) for c in r.pv[0:r.pv_len]],
                "candidates": [[name(r.candidates[i]), _winrate_score(r.candidate_winrates[i])]
                               for i in cands],
                "candidate_visits": [r.candidate_visits[i] for i in cands],
                "path": [r.path[0], r.path[1]], "memory": memory,
                "tree_full": bool(r.tree_full), "threads": r.threads,
                "child_visits": r.child_visits,
                "win_threshold": lib.QR_SCORE_WIN - lib.QR_SEARCH_MAX_DEPTH}

    def genmove(self, seconds: float | None = None, nodes: int | None = None,
                depth: int | None = None, engine: str = DEFAULT_ENGINE,
                playouts: int | None = None, reuse: bool = False) -> dict:
        """search(), then play its move; the search's dict (move None: nothing was played)."""
        result = self.search(seconds=seconds, nodes=nodes, depth=depth, engine=engine,
                             playouts=playouts, reuse=reuse)
        if result["move"] is not None:
            self.play(result["move"])
        return result

    # ---- tools ---------------------------------------------------------------------------

    def rollout(self, seed: int = 0, max_plies: int = 1000):
        """Winner of one shortest-path-guided rollout from here (None: no winner); the game
        is not changed."""
        board = ffi.new("qr_board *", self.board[0])
        rng = ffi.new("qr_rng *")
        lib.qr_rng_seed(rng, seed & (2**64 - 1))
        w = lib.qr_rollout(board, rng, max_plies)
        return None if w < 0 else w

    def rollout_move(self, seed: int = 0):
        """The move a rollout would play next here, or None when the game is over."""
        rng = ffi.new("qr_rng *")
        lib.qr_rng_seed(rng, seed & (2**64 - 1))
        code = lib.qr_rollout_move(self.board, rng)
        return None if code < 0 else self._decode(code)

    def wall_contacts(self, wall) -> int:
        return lib.qr_board_wall_contacts(self.board, self.encode(wall))

    def why_illegal_full(self, move):
        """why_illegal with the path check run for every wall (no contact shortcut)."""
        err = lib.qr_board_check_full(self.board, self.encode(move))
        return _REFUSALS[err][0] if err else None

    def blocks(self) -> list:
        """The side to move's blocking walls, best first: walls that leave the opponent's best
        wall against it gaining less (crossed, overlapped, made illegal or made to gain less),
        without lengthening its own path. The tree search adds them near its root."""
        n = lib.qr_board_blocks(self.board, self._buf)
        return [self._decode(c) for c in self._buf[0:n]]

    def impact_walls(self) -> list:
        """The side to move's walls that lengthen the opponent's shortest path, as both
        searches generate them (best gain first): (wall, [path of player 0, path of player 1]
        after it)."""
        lengths = ffi.new("int[]", 2 * lib.QR_MAX_MOVES)
        n = lib.qr_board_impact_walls(self.board, self._buf, lengths)
        return [(self._decode(self._buf[i]), [lengths[2 * i], lengths[2 * i + 1]]) for i in range(n)]

    def distances(self, player: int) -> list:
        n = self.size
        buf = ffi.new("int[]", n * n)
        lib.qr_board_distances(self.board, player, buf)
        return [[buf[y * n + x] for x in range(n)] for y in range(n)]

// quoridor_core.js - the Quoridor core (quoridor.h) from JavaScript, over its WebAssembly
// build: a game record and the alpha-beta search, the same calls the Python binding
// (engines/quoridor/engine.py) makes natively. Moves cross as the core's codes; squares as
// [x, y] and walls as [x, y, "h" | "v"], as engine.py decodes them.

const B = "qr_board";
const MAX_CELLS = 81, MAX_MOVES = 5 + 2 * 64;  // QR_MAX_CELLS, QR_MAX_MOVES
const WALL_H = 128, WALL_V = 128 + 64;           // QR_WALL_H, QR_WALL_V
const SEARCH_HISTORY = 32;                      // QR_SEARCH_HISTORY
export const SCORE_WIN = 30000, SEARCH_MAX_DEPTH = 48;

// Why the core refuses a move (QR_ERR_*), in engine.py's words.
export const REFUSALS = { 1: "the game is over", 2: "off the board", 3: "the pawn to move cannot reach it",
                          4: "no walls left", 5: "overlaps a wall", 6: "crosses a wall",
                          7: "blocks every path of a pawn to its goal row", 9: "out of memory" };

export class QuoridorGame {
  constructor(core, size, walls, edgeDiagonal) {
    this.core = core;
    this.ptr = core.fn.qr_game_new(size, walls, edgeDiagonal ? 1 : 0);
    if (!this.ptr) throw new Error(`qr_game_new(${size}, ${walls}) failed`);
    this.size = size;
    this.buf = core.alloc(4 * Math.max(MAX_CELLS, MAX_MOVES));
  }

  free() {
    this.core.fn.qr_game_free(this.ptr);
    this.core.free(this.buf);
    this.ptr = 0;
  }

  get board() { return this.core.fn.qr_game_board(this.ptr); }
  field(name, i = 0) { return this.core.get(B, this.board, name, i); }

  toMove() { return this.field("to_move"); }
  wallsLeft() { return [this.field("walls_left", 0), this.field("walls_left", 1)]; }
  pawns() { return [0, 1].map((p) => this.decode(this.field("pawn", p))); }
  winner() {
    const w = this.core.fn.qr_board_winner(this.board);
    return w < 0 ? null : w;
  }

  // The walls on the board, as [x, y, o], horizontal slots first.
  walls() {
    const m = this.size - 1, out = [];
    for (const [o, mask] of [["h", this.field("hwalls")], ["v", this.field("vwalls")]]) {
      for (let s = 0; s < m * m; s++) if ((mask >> BigInt(s)) & 1n) out.push([s % m, Math.floor(s / m), o]);
    }
    return out;
  }

  pawnMoves() {
    const n = this.core.fn.qr_board_pawn_moves(this.board, this.buf);
    return this.codes(n).map((c) => this.decode(c));
  }

  // One shortest path of PLAYER's pawn to its goal row (the squares after the pawn), [] if none.
  shortestPath(player) {
    const n = this.core.fn.qr_board_shortest_path(this.board, player, this.buf);
    return this.codes(Math.max(n, 0)).map((c) => this.decode(c));
  }

  // The core's code of a square [x, y] or a wall [x, y, o] on this board; -1 (refused as off
  // the board) for one that is not on it, as engine.py's encode.
  encode(move) {
    const [x, y, o] = move, limit = o ? this.size - 1 : this.size;
    if (!(x >= 0 && y >= 0 && x < limit && y < limit)) return -1;
    return o ? this.core.fn.qr_wall_move(this.board, o === "v" ? 1 : 0, x, y)
      : this.core.fn.qr_pawn_move(this.board, x, y);
  }

  decode(code) {
    const n = this.size;
    if (code < WALL_H) return [code % n, Math.floor(code / n)];
    const vertical = code >= WALL_V, s = code - (vertical ? WALL_V : WALL_H);
    return [s % (n - 1), Math.floor(s / (n - 1)), vertical ? "v" : "h"];
  }

  check(code) { return this.core.fn.qr_board_check(this.board, code); }
  play(code) { return this.core.fn.qr_game_play(this.ptr, code); }

  codes(n) {
    return n === 0 ? [] : n === 1 ? [this.core.read(this.buf, "i32")] : this.core.read(this.buf, "i32", n);
  }
}

export class QuoridorSearch {
  // engine.py's alpha-beta: a table of about TT_MEGABYTES, kept between runs of this search.
  constructor(core, ttMegabytes = 8) {
    this.core = core;
    this.ptr = core.fn.qr_search_new(ttMegabytes);
    if (!this.ptr) throw new Error("qr_search_new: out of memory");
    this.opts = core.alloc(core.sizeof("qr_search_opts"));
    this.res = core.alloc(core.sizeof("qr_search_result"));
    this.history = core.alloc(8 * SEARCH_HISTORY);
  }

  free() {
    this.core.fn.qr_search_free(this.ptr);
    for (const p of [this.opts, this.res, this.history]) this.core.free(p);
  }

  memory() { return this.core.fn.qr_search_memory(this.ptr); }

  // One search of GAME's position (a repetition of its recent positions is a draw); the first
  // limit reached ends it (0: none). Codes out, as the core gives them.
  run(game, { seconds = 0, nodes = 0, depth = 0 } = {}) {
    const c = this.core, O = "qr_search_opts", R = "qr_search_result";
    c.set(O, this.opts, "seconds", seconds);
    c.set(O, this.opts, "nodes", nodes);
    c.set(O, this.opts, "depth", depth);
    c.set(O, this.opts, "history", this.history);
    c.set(O, this.opts, "nhistory", c.fn.qr_game_recent_hashes(game.ptr, this.history, SEARCH_HISTORY));
    c.fn.qr_search_run(this.ptr, game.board, this.opts, this.res);
    const get = (f) => c.get(R, this.res, f);
    const npv = get("pv_len"), n = get("ncandidates");
    const list = (f, k) => (k ? c.array(R, this.res, f, k) : []);
    const candidates = list("candidates", n), scores = list("candidate_scores", n);
    return {
      move: get("move"), score: get("score"), depth: get("depth"), nodes: get("nodes"),
      seconds: get("seconds"), pv: list("pv", npv),
      candidates: candidates.map((m, i) => [m, scores[i]]),
      path: c.array(R, this.res, "path", 2),
    };
  }
}

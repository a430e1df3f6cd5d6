// gomoku_core.js - the Gomoku core (gomoku.h) from JavaScript, over its WebAssembly build: a
// board with its record and a search, the same calls the Python binding
// (engines/gomoku/engine.py) makes natively. Points are [x, y] from the top-left; the core's
// cells are y * MAX_SIZE + x.
export const MAX_SIZE = 20, BLACK = 1, WHITE = 2;
export const RULES = ["freestyle", "standard", "renju"];          // GM_FREESTYLE ...
export const RESULT = { NONE: 0, BLACK: 1, WHITE: 2, DRAW: 3 };
// Why gm_board_check refuses a move (gomoku.h's GM_ERR_*), as rules.py's exceptions name it.
export const REFUSALS = { 1: "occupied", 2: "forbidden", 3: "forbidden", 4: "forbidden",
                          5: "off board", 6: "game over" };
export const FORBIDDEN = { 2: "overline", 3: "double-four", 4: "double-three" };
// gm_board_threats' kinds (GM_THREAT_FIVE = 1 ...), as engine.py's THREAT_KINDS.
export const THREAT_KINDS = ["five", "open-four", "four-four", "four-three", "four", "three-three", "three"];
export const WIN_SCORE = 30000, MAX_DEPTH = 40;                  // GM_WIN_SCORE, GM_SEARCH_MAX_DEPTH

const point = (cell) => [cell % MAX_SIZE, Math.floor(cell / MAX_SIZE)];
const COLORS = [".", "b", "w"];

export class GomokuBoard {
  constructor(core, size, rule) {
    this.core = core;
    this.ptr = core.fn.gm_board_new(size, RULES.indexOf(rule));
    if (!this.ptr) throw new Error(`gm_board_new(${size}, ${rule}) failed: size 5..20, rule one of ${RULES}`);
    this.size = size;
    this.cells = core.alloc(4 * MAX_SIZE * MAX_SIZE);
    this.kinds = core.alloc(4 * MAX_SIZE * MAX_SIZE);
  }

  free() {
    this.core.fn.gm_board_free(this.ptr);
    this.core.free(this.cells);
    this.core.free(this.kinds);
    this.ptr = 0;
  }

  points(n) { return n ? [].concat(this.core.read(this.cells, "i32", n)).map(point) : []; }

  toMove() { return this.core.fn.gm_board_to_move(this.ptr) === BLACK ? "b" : "w"; }
  result() { return this.core.fn.gm_board_result(this.ptr); }
  isOver() { return this.result() !== RESULT.NONE; }
  // "b" or "w" once a side has won; null while playing and for a draw.
  winner() { return { 1: "b", 2: "w" }[this.result()] || null; }
  winningLine() { return this.points(this.core.fn.gm_board_win_line(this.ptr, this.cells)); }

  // Rows top to bottom of ".", "b", "w".
  rows() {
    const at = this.core.fn.gm_board_at, n = this.size, rows = [];
    for (let y = 0; y < n; y++) {
      let row = "";
      for (let x = 0; x < n; x++) row += COLORS[at(this.ptr, x, y)];
      rows.push(row);
    }
    return rows;
  }

  // GM_OK (0) or the code of why the side to move may not play there (REFUSALS, FORBIDDEN).
  check(x, y) { return this.core.fn.gm_board_check(this.ptr, x, y); }
  play(x, y) { return this.core.fn.gm_board_play(this.ptr, x, y); }
  colorAt(x, y) { return COLORS[this.core.fn.gm_board_at(this.ptr, x, y)]; }

  // Points forbidden for black (renju only), sorted by (y, x), with the rule each breaks.
  forbidden() {
    return this.points(this.core.fn.gm_board_forbidden_points(this.ptr, this.cells))
      .map(([x, y]) => ({ point: [x, y], reason: FORBIDDEN[this.core.fn.gm_board_forbidden(this.ptr, x, y)] }));
  }

  // [[x, y], kind] where a stone of COLOR ("b"/"w") makes a threat, strongest first.
  threats(color) {
    const n = this.core.fn.gm_board_threats(this.ptr, color === "b" ? BLACK : WHITE, this.cells, this.kinds);
    const kinds = n ? [].concat(this.core.read(this.kinds, "i32", n)) : [];
    return this.points(n).map((p, i) => [p, THREAT_KINDS[kinds[i] - 1]]);
  }
}

export class GomokuSearch {
  constructor(core, ttMegabytes = 16) {
    this.core = core;
    this.ptr = core.fn.gm_search_new(ttMegabytes);
    if (!this.ptr) throw new Error(`gm_search_new: no memory for a ${ttMegabytes} MB table`);
    this.opts = core.alloc(core.sizeof("gm_search_opts"));
    this.res = core.alloc(core.sizeof("gm_search_result"));
  }

  free() {
    this.core.fn.gm_search_free(this.ptr);
    this.core.free(this.opts);
    this.core.free(this.res);
  }

  // One search of BOARD for the side to move, as engine.py's GomokuEngine.search returns it.
  run(board, { seconds = 0, nodes = 0, depth = 0 } = {}) {
    const c = this.core, O = "gm_search_opts", R = "gm_search_result";
    c.set(O, this.opts, "seconds", seconds || 0);
    c.set(O, this.opts, "nodes", nodes || 0);
    c.set(O, this.opts, "depth", depth || 0);
    c.set(O, this.opts, "vcf_plies", 0);
    c.set(O, this.opts, "plain", 0);
    c.fn.gm_search_run(this.ptr, board.ptr, this.opts, this.res);
    const get = (f) => c.get(R, this.res, f);
    const list = (field, n) => (n ? c.array(R, this.res, field, n) : []);
    const npv = get("pv_len"), ncand = get("ncand"), move = get("move");
    const scores = list("cand_score", ncand);
    return {
      move: move >= 0 ? point(move) : null,
      score: get("score"), depth: get("depth"), nodes: get("nodes"), seconds: get("seconds"),
      pv: list("pv", npv).map(point),
      candidates: list("cand", ncand).map((cell, i) => [point(cell), scores[i]]),
      proven_win_in: get("proven_win_in"),
    };
  }
}

// go_core.js - the Go core (go.h) from JavaScript, over its WebAssembly build: a game record
// and a search, the same calls the Python binding (engines/go/engine.py) makes natively.
import { hex64 } from "./core.js";

export const BLACK = 1, WHITE = 2;
// Judging draws its playouts from a stream of its own, restarted at this seed for each verdict,
// as GoEngine.JUDGE_SEED: a verdict depends on the position alone, and the page and the server
// give the same one.
const JUDGE_SEED = 0n;
export const ERRORS = { 1: "occupied", 2: "suicide", 3: "ko", 4: "superko", 5: "off board",
                        6: "wrong colour", 7: "bad size", 8: "out of memory" };

export class GoGame {
  constructor(core, size, komi = 7, superko = true) {
    this.core = core;
    this.ptr = core.fn.go_game_new(size, komi, superko ? 1 : 0);
    if (!this.ptr) throw new Error(`go_game_new(${size}) failed: size 2..19`);
    this.size = size;
    const points = 2 * 19 * 19;
    this.buf = core.alloc(4 * points + 4);  // x,y pairs out, then a count
    this.judge = core.alloc(core.sizeof("go_rng"));
  }

  free() {
    this.core.fn.go_game_free(this.ptr);
    this.core.free(this.buf);
    this.core.free(this.judge);
    this.ptr = 0;
  }

  toMove() { return this.core.fn.go_game_to_move(this.ptr); }
  nmoves() { return this.core.fn.go_game_nmoves(this.ptr); }
  hash() { return hex64(this.core.fn.go_game_hash(this.ptr)); }
  captures(color) { return this.core.fn.go_game_captures(this.ptr, color); }
  trompTaylor() { return this.core.fn.go_game_tromp_taylor(this.ptr); }
  check(color, x, y) { return this.core.fn.go_game_check(this.ptr, color, x, y); }
  undo() { return this.core.fn.go_game_undo(this.ptr) !== 0; }

  // The ko point as [x, y], or null.
  ko() {
    const found = this.core.fn.go_game_ko_xy(this.ptr, this.buf, this.buf + 4);
    return found ? this.core.read(this.buf, "i32", 2) : null;
  }

  // The judging stream, restarted.
  judgeRng() {
    this.core.fn.go_rng_seed(this.judge, JUDGE_SEED);
    return this.judge;
  }

  // Area score with dead stones judged by PLAYOUTS playouts.
  finalScore(playouts) { return this.core.fn.go_game_final_score(this.ptr, playouts, this.judgeRng()); }

  deadStones(playouts) {
    const n = this.size * this.size;
    this.core.fn.go_game_dead_stones(this.ptr, playouts, this.judgeRng(), this.buf);
    const marks = new Uint8Array(this.core.fn.memory.buffer, this.buf, n).slice();
    const out = [];
    for (let i = 0; i < n; i++) if (marks[i]) out.push([i % this.size, Math.floor(i / this.size)]);
    return out;
  }

  // Plays COLOR at (x, y) ((-1, -1) passes); returns the captured points, or throws the reason.
  play(color, x, y) {
    const ncap = this.buf + 8 * 19 * 19;
    const code = this.core.fn.go_game_play(this.ptr, color, x, y, this.buf, ncap);
    if (code) throw new Error(`illegal move (${x}, ${y}): ${ERRORS[code] || code}`);
    return pairs(this.core.read(this.buf, "i32", 2 * this.core.read(ncap, "i32")));
  }

  legal(color) {
    const n = this.core.fn.go_game_legal_moves(this.ptr, color, this.buf);
    return pairs(this.core.read(this.buf, "i32", 2 * n));
  }

  board() {
    const n = this.size * this.size;
    this.core.fn.go_game_board_chars(this.ptr, this.buf);
    return this.core.string(this.buf, n);
  }
}

export class GoSearch {
  constructor(core, seed = 0) {
    this.core = core;
    this.ptr = core.fn.go_search_new(BigInt(seed));
    if (!this.ptr) throw new Error("go_search_new: out of memory");
    this.opts = core.alloc(core.sizeof("go_search_opts"));
    this.res = core.alloc(core.sizeof("go_search_result"));
  }

  free() {
    this.core.fn.go_search_free(this.ptr);
    this.core.free(this.opts);
    this.core.free(this.res);
  }

  // One search for COLOR in GAME (threads: always 1 here; the core has none in wasm).
  run(game, color, { playouts = 0, seconds = 0, reuse = true, value = false } = {}) {
    const c = this.core, O = "go_search_opts", R = "go_search_result";
    c.set(O, this.opts, "playouts", playouts);
    c.set(O, this.opts, "seconds", seconds);
    c.set(O, this.opts, "threads", 1);
    c.set(O, this.opts, "reuse", reuse ? 1 : 0);
    c.set(O, this.opts, "value", value ? 1 : 0);   // the learned network's priors (GoEngine's value)
    const code = c.fn.go_search_run(this.ptr, game.ptr, color, this.opts, this.res);
    if (code) throw new Error(`go_search_run: ${ERRORS[code] || code}`);
    const get = (f) => c.get(R, this.res, f);
    const n = get("ncandidates"), npv = get("npv");
    const cx = c.array(R, this.res, "cand_x", Math.max(n, 1)), cy = c.array(R, this.res, "cand_y", Math.max(n, 1));
    const visits = c.array(R, this.res, "cand_visits", Math.max(n, 1));
    const winrates = c.array(R, this.res, "cand_winrate", Math.max(n, 1));
    const priors = c.array(R, this.res, "cand_prior", Math.max(n, 1));
    const px = c.array(R, this.res, "pv_x", Math.max(npv, 1)), py = c.array(R, this.res, "pv_y", Math.max(npv, 1));
    const size = game.size;
    return {
      move: [get("move_x"), get("move_y")],
      winrate: get("winrate"),
      playouts: get("playouts"),
      treePlayouts: get("tree_playouts"),
      valued: get("valued"),
      seconds: get("seconds"),
      candidates: Array.from({ length: n }, (_, i) => ({ x: cx[i], y: cy[i], visits: visits[i], prior: priors[i], winrate: winrates[i] })),
      pv: Array.from({ length: npv }, (_, i) => [px[i], py[i]]),
      ownership: c.array(R, this.res, "ownership", size * size),
    };
  }
}

function pairs(flat) {
  const out = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}

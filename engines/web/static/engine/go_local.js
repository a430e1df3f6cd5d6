// go_local.js - the Go API answered in the page: the same requests and the same documents as
// the server's /api/go/* (engines/web/go/session.py and record.py), computed by the Go core's
// WebAssembly build. The rules are the compiled core's; this file only turns records into
// calls and answers into documents, as session.py does on the server. A parity test
// (tests/engines/wasm/test_go_local_api.py) compares the two documents field for field.
import { GoGame, GoSearch, ERRORS } from "./go_core.js";
import { SgfError, dumps as sgfDumps, loads as sgfLoads } from "./go_sgf.js";
import { LocalApiError, refuse } from "./local_api.js";

export { LocalApiError };  // worker.js tells refusals from failures by it

const COLUMNS = "ABCDEFGHJKLMNOPQRST";  // GTP skips I
const RESIGN = "resign";
const COLOR = { b: 1, w: 2 };
const NAMES = { b: "black", w: "white" };
export const CONFIG = { MAX_PLAYOUTS: 20000, MAX_SECONDS: 1.0, DEFAULT_PLAYOUTS: 5000,
                        MAX_MOVES: 1000, JUDGE_PLAYOUTS: 1000, MIN_SIZE: 5, MAX_SIZE: 19 };

// ---- records (record.py) ------------------------------------------------------------------

const isPass = (m) => m === null;
const colorOf = (ply) => (ply % 2 === 0 ? "b" : "w");

export function toGtp(point, size) {
  if (point === null) return "pass";
  const [x, y] = point;
  return `${COLUMNS[x]}${size - y}`;
}

function fromGtp(text, size) {
  const vertex = text.trim().toUpperCase();
  if (vertex === "PASS") return null;
  const digits = vertex.slice(1);
  if (vertex.length < 2 || !COLUMNS.includes(vertex[0]) || !/^[0-9]+$/.test(digits)) {
    throw new Error(`'${text}' is not a vertex (expected e.g. D4 or pass)`);
  }
  const x = COLUMNS.indexOf(vertex[0]), row = Number(digits);
  if (x >= size || row < 1 || row > size) throw new Error(`'${text}' is off a ${size}x${size} board`);
  return [x, size - row];
}

const moveText = (move, size) => (move === RESIGN ? RESIGN : toGtp(move, size));

function parseMove(raw, size, field) {
  if (raw === null) return null;
  if (Array.isArray(raw)) {
    const [x, y] = raw;
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || raw.length !== 2) {
      throw refuse(`${field}: a point is [x, y], two integers from 0`, field);
    }
    if (x >= size || y >= size) throw refuse(`${field}: point [${x}, ${y}] is off a ${size}x${size} board`, field);
    return [x, y];
  }
  if (typeof raw !== "string") throw refuse(`${field}: a move is a vertex, [x, y], null or resign`, field);
  if (raw.toLowerCase() === RESIGN) return RESIGN;
  try {
    return fromGtp(raw, size);
  } catch (error) {
    throw refuse(`${field}: ${error.message}`, field);
  }
}

export function parseGame(raw, field = "game") {
  if (!raw || typeof raw !== "object") throw refuse(`${field}: a game object is required`, field);
  const size = raw.size;
  if (!Number.isInteger(size) || size < CONFIG.MIN_SIZE || size > CONFIG.MAX_SIZE) {
    throw refuse(`${field}.size: ${size} is not a board size (${CONFIG.MIN_SIZE}..${CONFIG.MAX_SIZE})`, `${field}.size`);
  }
  if (!Array.isArray(raw.moves)) throw refuse(`${field}.moves: a list of moves is required`, `${field}.moves`);
  if (raw.moves.length > CONFIG.MAX_MOVES) {
    throw refuse(`${field}.moves: ${raw.moves.length} moves is above the server's cap of ${CONFIG.MAX_MOVES}`, `${field}.moves`);
  }
  const moves = raw.moves.map((m, i) => parseMove(m, size, `${field}.moves[${i}]`));
  moves.slice(0, -1).forEach((m, i) => {
    if (m === RESIGN) {
      throw refuse(`${field}.moves[${i}]: a resignation ends the game, so it must be the last move`, `${field}.moves[${i}]`);
    }
  });
  return { size, komi: raw.komi ?? 7.0, superko: Boolean(raw.superko ?? false), moves };
}

export function parseBudget(raw = {}) {
  let { playouts = null, seconds = null } = raw || {};
  if (playouts !== null && playouts > CONFIG.MAX_PLAYOUTS) {
    throw refuse(`budget.playouts: ${playouts} is above the server's cap of ${CONFIG.MAX_PLAYOUTS}`, "budget.playouts");
  }
  if (seconds !== null && seconds > CONFIG.MAX_SECONDS) {
    throw refuse(`budget.seconds: ${seconds} is above the server's cap of ${CONFIG.MAX_SECONDS}`, "budget.seconds");
  }
  if (playouts === null && seconds === null) playouts = CONFIG.DEFAULT_PLAYOUTS;
  return { playouts: playouts ?? CONFIG.MAX_PLAYOUTS, seconds: seconds ?? CONFIG.MAX_SECONDS };
}

export function gameOver(moves) {
  const n = moves.length;
  return n > 0 && (moves[n - 1] === RESIGN || (n >= 2 && isPass(moves[n - 1]) && isPass(moves[n - 2])));
}

const toJson = (game) => ({ size: game.size, komi: game.komi, superko: game.superko,
                            moves: game.moves.map((m) => moveText(m, game.size)) });
const toMove = (game) => colorOf(game.moves.length);

// ---- one request's work (session.py) -------------------------------------------------------

class Session {
  constructor(core, game, seed = 0) {
    this.game = game;
    this.board = new GoGame(core, game.size, game.komi, game.superko);
    this.search = new GoSearch(core, seed);
    this.core = core;
  }

  close() {
    this.board.free();
    this.search.free();
  }

  position(game, ply) {
    const move = ply ? game.moves[ply - 1] : null;
    const ko = this.board.ko();
    const chars = this.board.board(), n = game.size;
    return {
      ply,
      move: ply ? moveText(move, n) : null,
      color: ply ? colorOf(ply - 1) : null,
      board: Array.from({ length: n }, (_, y) => chars.slice(y * n, (y + 1) * n)),
      captures: { b: this.board.captures(1), w: this.board.captures(2) },
      ko: ko ? toGtp(ko, n) : null,
      to_move: colorOf(ply),
    };
  }

  playChecked(game, ply, move, field, status = 400) {
    if (move === RESIGN) return;
    const fail = (text, extra) => new LocalApiError(status, status === 422 ? text : `${field}: ${text}`, field, extra);
    if (gameOver(game.moves.slice(0, ply))) throw fail(`the game ended at move ${ply}; no move may follow`);
    const color = colorOf(ply), [x, y] = move === null ? [-1, -1] : move;
    const code = this.board.check(COLOR[color], x, y);
    if (code) {
      const rule = ERRORS[code] || "illegal";
      const point = move === null ? "None" : `(${x}, ${y})`;
      throw fail(`move ${ply + 1} (${moveText(move, game.size)}) by ${NAMES[color]} is illegal: ${rule}`,
                 { move_number: ply + 1, reason: `${rule}: ${color} at ${point}` });
    }
    this.board.play(COLOR[color], x, y);
  }

  replay(field = "game") {
    const positions = [this.position(this.game, 0)];
    this.game.moves.forEach((move, ply) => {
      this.playChecked(this.game, ply, move, `${field}.moves[${ply}]`);
      positions.push(this.position(this.game, ply + 1));
    });
    return positions;
  }

  result(game) {
    if (!gameOver(game.moves)) return null;
    if (game.moves[game.moves.length - 1] === RESIGN) {
      const winner = colorOf(game.moves.length - 1) === "b" ? "w" : "b";
      return { winner, margin: null, text: `${winner.toUpperCase()}+R`, by: "resignation", dead: [] };
    }
    const score = this.board.finalScore(CONFIG.JUDGE_PLAYOUTS);
    const winner = score > 0 ? "b" : score < 0 ? "w" : null;
    const text = winner ? `${winner.toUpperCase()}+${Math.abs(score)}` : "0";
    const dead = this.board.deadStones(CONFIG.JUDGE_PLAYOUTS).map((p) => toGtp(p, game.size));
    return { winner, margin: Math.abs(score), text, by: "score", dead };
  }

  state(game, positions) {
    const over = gameOver(game.moves);
    const legal = over ? [] : this.board.legal(COLOR[toMove(game)]).map((p) => toGtp(p, game.size));
    return { ...toJson(game), positions, to_move: toMove(game),
             legal: over ? legal : [...legal, "pass"], over, result: this.result(game) };
  }
}

function withSession(core, game, seed, work) {
  const session = new Session(core, game, seed);
  try {
    return work(session);
  } finally {
    session.close();
  }
}

// The analysis document of session.py's analysis_document: vertices, ownership as rows.
function analysisDocument(r, game, elapsed) {
  const vertex = (p) => (p[0] === -2 ? RESIGN : toGtp(p[0] < 0 ? null : p, game.size));
  const n = game.size;
  return {
    color: toMove(game),
    winrate: r.winrate,
    playouts: r.playouts,
    candidates: r.candidates.map((c) => ({ move: vertex([c.x, c.y]), visits: c.visits,
                                           prior: c.prior, winrate: c.winrate })),
    pv: r.pv.map(vertex),
    ownership: Array.from({ length: n }, (_, y) => r.ownership.slice(y * n, (y + 1) * n)),
    elapsed_ms: Math.round(elapsed * 10) / 10,
  };
}

// ---- SGF records (record.py's game_to_sgf and game_from_sgf) ----------------------------------

function gameToSgf(game, resultText) {
  const moves = game.moves.map((m, i) => [colorOf(i), m]).filter(([, m]) => m !== RESIGN);
  return sgfDumps({ size: game.size, komi: game.komi, rules: "Chinese", result: resultText || "", moves });
}

function gameFromSgf(text) {
  const fail = (message) => refuse(`sgf: ${message}`, "sgf");
  let record;
  try {
    record = sgfLoads(text);
  } catch (error) {
    if (error instanceof SgfError) throw fail(error.message);
    throw error;
  }
  if (record.size < CONFIG.MIN_SIZE || record.size > CONFIG.MAX_SIZE) {
    throw fail(`SZ[${record.size}] is outside the arcade's ${CONFIG.MIN_SIZE}..${CONFIG.MAX_SIZE}`);
  }
  if (record.setupBlack.length || record.setupWhite.length) {
    throw fail("setup stones (AB/AW) are not supported; the arcade plays from an empty board");
  }
  if (record.moves.length > CONFIG.MAX_MOVES) {
    throw fail(`${record.moves.length} moves is above the server's cap of ${CONFIG.MAX_MOVES}`);
  }
  const moves = record.moves.map(([color, point], ply) => {
    if (color !== colorOf(ply)) throw fail(`move ${ply + 1} is played by ${color.toUpperCase()} out of turn`);
    return point;
  });
  const result = record.result, winner = result.slice(0, 1).toUpperCase();
  if (result.toUpperCase().endsWith("+R") && (winner === "B" || winner === "W")) {
    const loser = winner === "B" ? "w" : "b";
    if (loser === colorOf(moves.length)) moves.push(RESIGN);
  }
  return { size: record.size, komi: record.komi, superko: false, moves };
}

function ensurePlaying(game) {
  if (gameOver(game.moves)) throw refuse("game.moves: the game is over; there is nothing to search", "game.moves");
}

// The API's endpoints, by the names the page's data-url attributes use.
// Every search uses the learned network (its policy and value as priors, on the board size it
// was trained on), as the server's engines do (session.new_engine).
const NETWORK = { value: true };

export function makeLocalApi(core) {
  return {
    state({ game: raw }) {
      const game = parseGame(raw);
      return withSession(core, game, 0, (s) => s.state(game, s.replay()));
    },

    play({ game: raw, move: rawMove }) {
      const game = parseGame(raw);
      const move = parseMove(rawMove === undefined ? null : rawMove, game.size, "move");
      return withSession(core, game, 0, (s) => {
        const positions = s.replay();
        const after = { ...game, moves: [...game.moves, move] };
        s.playChecked(after, game.moves.length, move, "move", 422);
        positions.push(s.position(after, after.moves.length));
        return s.state(after, positions);
      });
    },

    "sgf/export"({ game: raw }) {
      const game = parseGame(raw);
      const result = withSession(core, game, 0, (s) => s.state(game, s.replay())).result;
      return { sgf: gameToSgf(game, result ? result.text : null),
               filename: `go-${game.size}x${game.size}-${game.moves.length}-moves.sgf` };
    },

    "sgf/import"({ sgf }) {
      if (typeof sgf !== "string") throw refuse("sgf: SGF text is required", "sgf");
      const game = gameFromSgf(sgf);
      return { game: toJson(game), state: withSession(core, game, 0, (s) => s.state(game, s.replay("sgf"))) };
    },

    genmove({ game: raw, budget, seed = 0 }) {
      const game = parseGame(raw);
      const limits = parseBudget(budget);
      ensurePlaying(game);
      return withSession(core, game, seed, (s) => {
        const positions = s.replay();
        const started = performance.now();
        const color = COLOR[toMove(game)];
        const r = s.search.run(s.board, color, { ...limits, ...NETWORK });
        const resign = r.move[0] === -2;
        const move = resign ? RESIGN : r.move[0] < 0 ? null : r.move;
        if (!resign) s.board.play(color, ...(move === null ? [-1, -1] : move));
        const elapsed = performance.now() - started;
        const after = { ...game, moves: [...game.moves, move] };
        positions.push(s.position(after, after.moves.length));
        return { move: moveText(move, game.size), elapsed_ms: Math.round(elapsed * 10) / 10,
                 analysis: analysisDocument(r, game, elapsed), state: s.state(after, positions) };
      });
    },

    analyze({ game: raw, budget, seed = 0 }) {
      const game = parseGame(raw);
      const limits = parseBudget(budget);
      ensurePlaying(game);
      return withSession(core, game, seed, (s) => {
        s.replay();
        const started = performance.now();
        const r = s.search.run(s.board, COLOR[toMove(game)], { ...limits, ...NETWORK });
        return analysisDocument(r, game, performance.now() - started);
      });
    },
  };
}

// Streamed endpoints (stream.py's AnalysisStream): one search in STEPS parts, the tree kept
// between them, each part's document yielded as the server sends each NDJSON line. The worker
// runs one part per task, so a stop between parts ends the search within a part.
export const STEPS = 8;

export function makeLocalStreams(core) {
  return {
    *analyze({ game: raw, budget, seed = 0 }) {
      const game = parseGame(raw);
      const limits = parseBudget(budget);
      ensurePlaying(game);
      const s = new Session(core, game, seed);
      try {
        s.replay();
        const color = COLOR[toMove(game)], started = performance.now();
        let total = 0;
        for (let step = 0; step < STEPS; step++) {
          const part = { reuse: true, ...NETWORK };
          // Integer shares that add up to the whole budget, as the server splits it.
          if (limits.playouts) {
            part.playouts = Math.max(1, Math.floor(limits.playouts * (step + 1) / STEPS)
                                        - Math.floor(limits.playouts * step / STEPS));
          }
          if (limits.seconds) part.seconds = limits.seconds / STEPS;
          const r = s.search.run(s.board, color, part);
          total += r.playouts;
          yield { ...analysisDocument(r, game, performance.now() - started), playouts: total,
                  step: step + 1, steps: STEPS };
        }
      } finally {
        s.close();
      }
    },
  };
}

// gomoku_local.js - the Gomoku API answered in the page: the same requests and the same
// documents as the server's /api/gomoku/* (engines/web/gomoku/session.py, record.py and the
// text records of record_text.py), computed by the Gomoku core's WebAssembly build. Wins,
// refusals, forbidden points and threats are the compiled core's answers; this file only turns
// records into calls and answers into documents, as session.py does on the server. A parity
// test (tests/engines/wasm/test_gomoku_local_api.py) compares the two field for field.
import { GomokuBoard, GomokuSearch, RULES, REFUSALS, FORBIDDEN, WIN_SCORE, MAX_DEPTH } from "./gomoku_core.js";
import { LocalApiError, refuse, parseSearchBudget, winShare, round } from "./local_api.js";

export { LocalApiError };
export const CONFIG = { MAX_SECONDS: 1.0, MAX_NODES: 50_000_000, DEFAULT_SECONDS: 0.5, MAX_MOVES: 1000 };
const SIZES = [15, 20];
const LETTERS = "abcdefghijklmnopqrst";
const RESIGN = "resign";
const NAME_PATTERN = /^([A-Ta-t](1[0-9]|20|[1-9])|[Rr][Ee][Ss][Ii][Gg][Nn])$/;  // record.NAME_PATTERN
const COLOR_NAMES = { b: "black", w: "white" };
const EVAL_SCALE = 400;   // session.EVAL_SCALE
const TT_MEGABYTES = 16;  // session.new_engine's table

// ---- records (record.py) ------------------------------------------------------------------

const colorOf = (ply) => (ply % 2 === 0 ? "b" : "w");
const other = (color) => (color === "b" ? "w" : "b");
const pointName = ([x, y], size) => `${LETTERS[x]}${size - y}`;
const moveName = (move, size) => (move === RESIGN ? RESIGN : pointName(move, size));

// Python's repr() of a string, as the server's messages quote one.
function pyRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escapes = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", [quote]: `\\${quote}` };
  const body = Array.from(text, (ch) => {
    if (escapes[ch]) return escapes[ch];
    const code = ch.codePointAt(0);
    return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, "0")}` : ch;
  }).join("");
  return quote + body + quote;
}

function parsePoint(raw, size, field) {
  const text = raw.trim().toLowerCase();
  if (text.length < 2 || !LETTERS.includes(text[0]) || !/^[0-9]+$/.test(text.slice(1))) {
    throw refuse(`${field}: ${pyRepr(text)} is no point: write a column letter and a row number like h8`, field);
  }
  const x = LETTERS.indexOf(text[0]), row = Number(text.slice(1));
  if (x >= size || row < 1 || row > size) {
    throw refuse(`${field}: ${text} is off a ${size}x${size} board (a1 to ${LETTERS[size - 1]}${size})`, field);
  }
  return [x, size - row];
}

function parseMove(raw, size, field) {
  if (Array.isArray(raw)) {
    const [x, y] = raw;
    if (x >= size || y >= size) throw refuse(`${field}: point [${x}, ${y}] is off a ${size}x${size} board`, field);
    return [x, y];
  }
  if (raw.trim().toLowerCase() === RESIGN) return RESIGN;
  return parsePoint(raw, size, field);
}

// What the server's JSON schema (schemas.GomokuMove) lets through; its own wording differs.
function checkMoveShape(raw, field) {
  const point = Array.isArray(raw) && raw.length === 2 && raw.every((v) => Number.isInteger(v) && v >= 0);
  if (!point && !(typeof raw === "string" && NAME_PATTERN.test(raw))) {
    throw refuse(`${field}: ${JSON.stringify(raw)} is not valid. A move: a column letter from a at the left and ` +
                 "the row from 1 at the bottom (h8), an [x, y] point from the top-left (0-based), or resign " +
                 "as a game's last move.", field);
  }
}

// record_moves.parse_moves: the cap, each move for its board, a resignation only last.
function parseMoves(rawMoves, size, field) {
  if (rawMoves.length > CONFIG.MAX_MOVES) {
    throw refuse(`${field}.moves: ${rawMoves.length} moves is above the server's cap of ${CONFIG.MAX_MOVES}`, `${field}.moves`);
  }
  const moves = rawMoves.map((m, i) => parseMove(m, size, `${field}.moves[${i}]`));
  moves.slice(0, -1).forEach((m, i) => {
    if (m === RESIGN) {
      throw refuse(`${field}.moves[${i}]: a resignation ends the game, so it must be the last move`, `${field}.moves[${i}]`);
    }
  });
  return moves;
}

export function parseGame(raw, field = "game") {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw refuse(`${field}: a game object is required`, field);
  if (!SIZES.includes(raw.size)) throw refuse(`${field}.size: ${JSON.stringify(raw.size)} is not one of [15, 20]`, `${field}.size`);
  const rule = raw.rule ?? "freestyle";
  if (!RULES.includes(rule)) throw refuse(`${field}.rule: ${JSON.stringify(rule)} is not one of ${JSON.stringify(RULES)}`, `${field}.rule`);
  if (!Array.isArray(raw.moves)) throw refuse(`${field}.moves: a list of moves is required`, `${field}.moves`);
  raw.moves.forEach((m, i) => checkMoveShape(m, `${field}.moves[${i}]`));
  return { size: raw.size, rule, moves: parseMoves(raw.moves, raw.size, field) };
}

const resigned = (game) => game.moves.length > 0 && game.moves[game.moves.length - 1] === RESIGN;
const stones = (game) => game.moves.filter((m) => m !== RESIGN);
const withMove = (game, move) => ({ ...game, moves: [...game.moves, move] });
const toJson = (game) => ({ size: game.size, rule: game.rule, moves: game.moves.map((m) => moveName(m, game.size)) });

// ---- text records (record.py, record_text.py) ---------------------------------------------

function gameToText(game, result) {
  const names = toJson(game).moves;
  const lines = ["# soloshop gomoku record", "game gomoku", `size ${game.size}`, `rule ${game.rule}`];
  if (result !== null) lines.push(`result ${result}`);
  for (let start = 0; start < names.length; start += 20) lines.push(`moves ${names.slice(start, start + 20).join(" ")}`);
  if (!names.length) lines.push("moves");
  return lines.join("\n") + "\n";
}

const KEYS = ["size", "rule", "result"];
const LINE_BREAKS = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;  // str.splitlines()

function loadText(text, field) {
  const values = { moves: [] };
  text.split(LINE_BREAKS).forEach((raw, i) => {
    const line = raw.split("#", 1)[0].trim();
    if (!line) return;
    const space = line.indexOf(" ");
    const key = (space < 0 ? line : line.slice(0, space)).toLowerCase();
    const value = space < 0 ? "" : line.slice(space + 1).trim();
    if (key === "moves") values.moves.push(...value.split(/\s+/).filter(Boolean));
    else if (key === "game") {
      if (value.toLowerCase() !== "gomoku") throw refuse(`${field}: line ${i + 1}: this is a ${pyRepr(value)} record, not gomoku`, field);
    } else if (KEYS.includes(key)) values[key] = value;
    else throw refuse(`${field}: line ${i + 1}: unknown key ${pyRepr(key)}; the keys are game, ${KEYS.join(", ")}, moves`, field);
  });
  return values;
}

function gameFromText(text, field = "text") {
  const stripped = text.trim();
  if (stripped && !stripped.includes("\n") && !/^(game|#|size)/.test(stripped.toLowerCase())) {
    return gameFromGomocup(stripped, 15, "freestyle", field);
  }
  const values = loadText(text, field);
  const size = values.size ?? "15", rule = (values.rule ?? "freestyle").toLowerCase();
  if (!["15", "20"].includes(size)) throw refuse(`${field}: size ${pyRepr(size)}: the arcade plays 15 or 20`, field);
  if (!RULES.includes(rule)) throw refuse(`${field}: rule ${pyRepr(rule)}: one of ${RULES.join(", ")}`, field);
  return { size: Number(size), rule, moves: parseMoves(values.moves, Number(size), field) };
}

function gameFromGomocup(text, size, rule, field) {
  const compact = text.replaceAll(" ", "").toLowerCase();
  if (/^-?\d+,-?\d+(,-?\d+,-?\d+)*,?$/.test(compact)) {
    const numbers = compact.replace(/^,+|,+$/g, "").split(",").map(Number);
    const c = Math.floor(size / 2), moves = [];
    for (let i = 0; i < numbers.length; i += 2) {
      const x = numbers[i] + c, y = numbers[i + 1] + c;
      if (!(x >= 0 && x < size && y >= 0 && y < size)) {
        throw refuse(`${field}: offset ${numbers[i]},${numbers[i + 1]} is off a ${size}x${size} board`, field);
      }
      moves.push([x, y]);
    }
    return { size, rule, moves: parseMoves(moves, size, field) };
  }
  if (/^([a-t](1[0-9]|20|[1-9]))+$/.test(compact)) {
    const names = compact.match(/[a-t](1[0-9]|20|[1-9])/g);
    return { size, rule, moves: parseMoves(names, size, field) };
  }
  throw refuse(`${field}: not a record: expected the text format (lines \`size 15\`, \`rule renju\`, ` +
               "`moves h8 h9 ...`) or a Gomocup position (`0,0, 1,-1` or `h8i7`)", field);
}

const gomocupOffsets = (game) => {
  const c = Math.floor(game.size / 2);
  return stones(game).map(([x, y]) => `${x - c},${y - c}`).join(", ");
};
const gomocupPos = (game) => stones(game).map((p) => pointName(p, game.size)).join("");

// ---- one request's work (session.py) -------------------------------------------------------

class Session {
  constructor(core, game) {
    this.core = core;
    this.board = new GomokuBoard(core, game.size, game.rule);
    this.search = null;
  }

  close() {
    this.board.free();
    if (this.search) this.search.free();
  }

  forbidden(game) {
    if (game.rule !== "renju") return [];
    return this.board.forbidden().map((f) => ({ move: pointName(f.point, game.size), reason: f.reason }));
  }

  position(game, ply) {
    return {
      ply,
      move: ply ? moveName(game.moves[ply - 1], game.size) : null,
      color: ply ? colorOf(ply - 1) : null,
      board: this.board.rows(),
      to_move: colorOf(ply),
      forbidden: this.forbidden(game),
    };
  }

  // session.play_checked: STATUS 422 words the refusal without the field (IllegalMoveError).
  playChecked(game, ply, move, field, status = 400) {
    const fail = (text, extra) => new LocalApiError(status, status === 422 ? text : `${field}: ${text}`, field, extra);
    if (move === RESIGN) {
      if (this.board.isOver()) throw fail(`the game ended at move ${ply}; no move may follow`);
      return;
    }
    const [x, y] = move, color = colorOf(ply);
    const code = this.board.play(x, y);
    if (!code) return;
    const rule = FORBIDDEN[code], reason = REFUSALS[code] || "illegal";
    const why = rule ? `forbidden for black (${rule})` : reason;
    throw fail(`move ${ply + 1} (${pointName(move, game.size)}) by ${COLOR_NAMES[color]} is illegal: ${why}`,
               { move_number: ply + 1, reason, ...(rule ? { rule } : {}) });
  }

  replay(game, field = "game") {
    const positions = [this.position(game, 0)];
    game.moves.forEach((move, ply) => {
      this.playChecked(game, ply, move, `${field}.moves[${ply}]`);
      positions.push(this.position(game, ply + 1));
    });
    return positions;
  }

  result(game) {
    if (resigned(game)) {
      const winner = other(colorOf(game.moves.length - 1));
      return { winner, by: "resignation", text: `${winner.toUpperCase()}+R`, line: [] };
    }
    if (!this.board.isOver()) return null;
    const winner = this.board.winner();
    if (winner === null) return { winner: null, by: "draw", text: "draw", line: [] };
    const line = this.board.winningLine().map((p) => pointName(p, game.size));
    return { winner, by: "five", text: `${winner.toUpperCase()}+5`, line };
  }

  state(game, positions) {
    const outcome = this.result(game);
    return { ...toJson(game), positions, to_move: colorOf(game.moves.length), over: outcome !== null, result: outcome };
  }

  ensurePlaying(game) {
    if (resigned(game) || this.board.isOver()) {
      throw refuse("game.moves: the game is over; there is nothing to search", "game.moves");
    }
  }

  // The search and its analysis document (session.analysis_document), timed as the server does.
  searched(game, budget) {
    this.search = this.search || new GomokuSearch(this.core, TT_MEGABYTES);
    const started = performance.now();
    const raw = this.search.run(this.board, budget);
    const elapsed = performance.now() - started;
    return { raw, elapsed, analysis: analysisDocument(raw, game, elapsed) };
  }
}

function analysisDocument(raw, game, elapsedMs) {
  const size = game.size, color = colorOf(game.moves.length);
  const score = raw.score, blackView = color === "b" ? score : -score;
  let proven = null;
  if (Math.abs(score) >= WIN_SCORE - MAX_DEPTH || raw.proven_win_in) {
    const plies = raw.proven_win_in || WIN_SCORE - Math.abs(score);
    const winner = score > 0 ? color : other(color);
    const moves = Math.floor((plies + 1) / 2);
    proven = { winner, plies, moves, sequence: raw.pv.slice(0, plies).map((p) => pointName(p, size)),
               text: `${COLOR_NAMES[winner]} wins in ${moves}` };
  }
  return {
    color,
    score,
    black_share: proven ? (proven.winner === "b" ? 1.0 : 0.0) : round(winShare(blackView, EVAL_SCALE), 4),
    depth: raw.depth,
    nodes: raw.nodes,
    elapsed_ms: round(elapsedMs, 1),
    pv: raw.pv.map((p) => pointName(p, size)),
    candidates: raw.candidates.map(([p, s]) => ({ move: pointName(p, size), score: s })),
    proven,
  };
}

function withSession(core, game, work) {
  const session = new Session(core, game);
  try {
    return work(session);
  } finally {
    session.close();
  }
}

const replayState = (core, game, field = "game") => withSession(core, game, (s) => s.state(game, s.replay(game, field)));
const budgetOf = (body) => parseSearchBudget(body.budget, CONFIG, MAX_DEPTH);

// The API's endpoints, by the names the page's calls use (data-url-NAME on the server).
export function makeLocalApi(core) {
  return {
    state: ({ game: raw }) => replayState(core, parseGame(raw)),

    play({ game: raw, move: rawMove }) {
      const game = parseGame(raw);
      checkMoveShape(rawMove, "move");
      const move = parseMove(rawMove, game.size, "move");
      return withSession(core, game, (s) => {
        const positions = s.replay(game);
        if (resigned(game)) {
          throw new LocalApiError(422, `the game ended at move ${game.moves.length}; no move may follow`, "move",
                                  { reason: "game over" });
        }
        const after = withMove(game, move);
        s.playChecked(after, game.moves.length, move, "move", 422);
        positions.push(s.position(after, after.moves.length));
        return s.state(after, positions);
      });
    },

    genmove(body) {
      const game = parseGame(body.game), budget = budgetOf(body);
      return withSession(core, game, (s) => {
        const positions = s.replay(game);
        s.ensurePlaying(game);
        const { raw, elapsed, analysis } = s.searched(game, budget);
        if (raw.move === null) throw refuse("game.moves: the side to move has no legal move", "game.moves");
        const after = withMove(game, raw.move);
        s.playChecked(after, game.moves.length, raw.move, "move");
        positions.push(s.position(after, after.moves.length));
        return { move: pointName(raw.move, game.size), elapsed_ms: round(elapsed, 1), analysis,
                 state: s.state(after, positions) };
      });
    },

    analyze(body) {
      const game = parseGame(body.game), budget = budgetOf(body);
      return withSession(core, game, (s) => {
        s.replay(game);
        s.ensurePlaying(game);
        return s.searched(game, budget).analysis;
      });
    },

    threats({ game: raw }) {
      const game = parseGame(raw);
      return withSession(core, game, (s) => {
        s.replay(game);
        const doc = {};
        for (const color of ["b", "w"]) {
          doc[color] = s.board.threats(color).map(([p, kind]) => ({ move: pointName(p, game.size), kind }));
        }
        return { ply: game.moves.length, threats: doc };
      });
    },

    recordExport({ game: raw }) {
      const game = parseGame(raw);
      const result = replayState(core, game).result;
      return { text: gameToText(game, result ? result.text : null),
               filename: `gomoku-${game.size}x${game.size}-${game.rule}-${game.moves.length}-moves.txt`,
               gomocup: { offsets: gomocupOffsets(game), pos: gomocupPos(game) } };
    },

    recordImport({ text }) {
      if (typeof text !== "string") throw refuse("text: a string is required", "text");
      if (text.length > 200_000) throw refuse("text: longer than 200000 characters", "text");
      const game = gameFromText(text);
      return { game: toJson(game), state: replayState(core, game, "text") };
    },
  };
}

// quoridor_local.js - the Quoridor API answered in the page: the same requests and the same
// documents as the server's /api/quoridor/* (engines/web/quoridor/session.py, record.py and
// the shape checks of schemas.py), computed by the Quoridor core's WebAssembly build. Legal
// pawn squares, refused walls, shortest paths, the winner and the search are the compiled
// core's; this file only turns records into calls and answers into documents, as session.py
// does on the server. tests/engines/wasm/test_quoridor_local_api.py compares the two documents
// field for field.
import { QuoridorGame, QuoridorSearch, REFUSALS, SCORE_WIN, SEARCH_MAX_DEPTH } from "./quoridor_core.js";
import { LocalApiError, parseSearchBudget, refuse, round, winShare } from "./local_api.js";

export { LocalApiError };  // worker.js tells refusals from failures by it

const COLUMNS = "abcdefghi";
const RESIGN = "resign";
const SIZES = [5, 7, 9];
const MOVE_PATTERN = /^([a-iA-I][1-9][hvHV]?|[Rr][Ee][Ss][Ii][Gg][Nn])$/;  // record.py's MOVE_PATTERN
const MOVE_DESCRIPTION = "a square (`e2`), a wall named by the square it touches nearest a1 plus " +
  "h or v (`e3v`: the vertical wall between columns e and f beside rows 3 and 4), or " +
  "`resign` as a game's last move";  // schemas.py's QuoridorMove description
// The server's caps (engines/web/__init__.py's defaults) and session.py's constants.
export const CONFIG = { MAX_SECONDS: 1.0, DEFAULT_SECONDS: 0.5, MAX_NODES: 50000000, MAX_MOVES: 1000,
                        MAX_DEPTH: SEARCH_MAX_DEPTH, MAX_WALLS: 20, EVAL_SCALE: 150, TT_MEGABYTES: 8 };
// session.py's WALL_REASONS: what the page says about a wall the rules refuse (by QR_ERR_*).
const WALL_REASONS = { 1: "the game is over", 2: "off the board's grooves", 4: "no walls left",
                       5: "overlaps a wall", 6: "crosses a wall", 7: "blocks every path of a pawn to its goal row" };

// ---- request shapes (schemas.py, worded as jsonschema words the common mistakes) -------------

// A value as Python's repr() writes it in the server's messages (strings quoted as Python does).
function repr(v) {
  if (typeof v !== "string") return JSON.stringify(v);
  if (v.includes("'") && !v.includes('"')) return `"${v}"`;
  return `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

function object(raw, field, allowed, required) {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw refuse(`${field}: ${repr(raw)} is not of type 'object'`, field);
  for (const key of required) if (!(key in raw)) throw refuse(`${field}: '${key}' is a required property`, field);
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key)) throw refuse(`${field}: Additional properties are not allowed ('${key}' was unexpected)`, field);
  }
}

function integer(value, field, low, high) {
  if (!Number.isInteger(value)) throw refuse(`${field}: ${repr(value)} is not of type 'integer'`, field);
  if (value < low) throw refuse(`${field}: ${value} is less than the minimum of ${low}`, field);
  if (high !== undefined && value > high) throw refuse(`${field}: ${value} is greater than the maximum of ${high}`, field);
}

function moveShape(raw, field) {
  if (typeof raw !== "string") throw refuse(`${field}: ${repr(raw)} is not of type 'string'`, field);
  if (!MOVE_PATTERN.test(raw)) throw refuse(`${field}: ${repr(raw)} is not valid: ${MOVE_DESCRIPTION}`, field);
}

function gameShape(raw) {
  object(raw, "game", ["size", "walls", "edge_diagonal", "moves"], ["size", "moves"]);
  if (!SIZES.includes(raw.size)) throw refuse(`game.size: ${repr(raw.size)} is not one of [5, 7, 9]`, "game.size");
  if ("walls" in raw) integer(raw.walls, "game.walls", 0, CONFIG.MAX_WALLS);
  if ("edge_diagonal" in raw && typeof raw.edge_diagonal !== "boolean") {
    throw refuse(`game.edge_diagonal: ${repr(raw.edge_diagonal)} is not of type 'boolean'`, "game.edge_diagonal");
  }
  if (!Array.isArray(raw.moves)) throw refuse(`game.moves: ${repr(raw.moves)} is not of type 'array'`, "game.moves");
  raw.moves.forEach((m, i) => moveShape(m, `game.moves[${i}]`));
}

function budgetShape(raw) {
  if (raw === undefined) return;
  object(raw, "budget", ["seconds", "nodes", "depth"], []);
  if ("seconds" in raw) {
    if (typeof raw.seconds !== "number") throw refuse(`budget.seconds: ${repr(raw.seconds)} is not of type 'number'`, "budget.seconds");
    if (raw.seconds <= 0) throw refuse(`budget.seconds: ${raw.seconds} is less than or equal to the minimum of 0`, "budget.seconds");
  }
  if ("nodes" in raw) integer(raw.nodes, "budget.nodes", 1);
  if ("depth" in raw) integer(raw.depth, "budget.depth", 1);
}

// The body of a request: its keys (required first), each checked as the schema does.
function requestShape(body, required, optional = []) {
  object(body, "body", [...required, ...optional], required);
  gameShape(body.game);
  if ("move" in body) moveShape(body.move, "move");
  if ("budget" in body) budgetShape(body.budget);
}

// ---- records (record.py, record_moves.py, search_budget.py) ----------------------------------

const squareName = ([x, y]) => `${COLUMNS[x]}${y + 1}`;
const moveName = (m) => `${squareName(m)}${m[2] || ""}`;

// rules.parse_move: "e2" -> [4, 1], "e3v" -> [4, 2, "v"]; board bounds are checked later.
function parseMove(text) {
  const t = text.trim().toLowerCase(), last = t.slice(-1);
  const orient = last === "h" || last === "v" ? last : null, body = orient ? t.slice(0, -1) : t;
  if (body.length < 2 || !COLUMNS.includes(body[0]) || !/^[0-9]+$/.test(body.slice(1))) {
    throw new Error(`${repr(text)} is no move: expected a square like e2 or a wall like e3v`);
  }
  const x = COLUMNS.indexOf(body[0]), y = Number(body.slice(1)) - 1;
  return orient ? [x, y, orient] : [x, y];
}

// A schema-valid move as the notation's lower-case name, checked against the board.
function normaliseMove(raw, size, field) {
  const text = raw.trim().toLowerCase();
  if (text === RESIGN) return RESIGN;
  const move = parseMove(text), wall = move.length === 3, limit = wall ? size - 1 : size;
  if (!(move[0] < limit && move[1] < limit)) {
    const last = moveName(wall ? [limit - 1, limit - 1, "v"] : [limit - 1, limit - 1]);
    throw refuse(`${field}: ${wall ? "wall" : "square"} ${text} is off a ${size}x${size} board (up to ${last})`, field);
  }
  return moveName(move);
}

const defaultWalls = (size) => Math.round(10 * size * size / 81);

function parseGame(raw, field = "game") {
  const size = raw.size;
  if (raw.moves.length > CONFIG.MAX_MOVES) {
    throw refuse(`${field}.moves: ${raw.moves.length} moves is above the server's cap of ${CONFIG.MAX_MOVES}`, `${field}.moves`);
  }
  const moves = raw.moves.map((m, i) => normaliseMove(m, size, `${field}.moves[${i}]`));
  moves.slice(0, -1).forEach((m, i) => {
    if (m === RESIGN) {
      throw refuse(`${field}.moves[${i}]: a resignation ends the game, so it must be the last move`, `${field}.moves[${i}]`);
    }
  });
  return { size, walls: raw.walls ?? defaultWalls(size), edge_diagonal: raw.edge_diagonal ?? true, moves };
}

const player = (ply) => ply % 2;
const resigned = (game) => game.moves.length > 0 && game.moves[game.moves.length - 1] === RESIGN;
const withMove = (game, move) => ({ ...game, moves: [...game.moves, move] });
const toJson = (game) => ({ size: game.size, walls: game.walls, edge_diagonal: game.edge_diagonal,
                            moves: [...game.moves] });

// ---- the text record (record_text.py, record.py's game_to_text / game_from_text) --------------

function gameToText(game, result) {
  const lines = ["# soloshop quoridor record", "game quoridor", `size ${game.size}`, `walls ${game.walls}`,
                 `edge_diagonal ${game.edge_diagonal ? "yes" : "no"}`];
  if (result !== null) lines.push(`result ${result}`);
  for (let start = 0; start < game.moves.length; start += 20) {
    lines.push(`moves ${game.moves.slice(start, start + 20).join(" ")}`);
  }
  if (!game.moves.length) lines.push("moves");
  return `${lines.join("\n")}\n`;
}

const KEYS = ["size", "walls", "edge_diagonal", "result"];

// record_text.loads: the record's keys, moves as one list; the error names the line.
function loadText(text, field) {
  const values = { moves: [] };
  text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/).forEach((raw, i) => {
    const line = raw.split("#", 1)[0].trim();
    if (!line) return;
    const space = line.indexOf(" ");
    const key = (space < 0 ? line : line.slice(0, space)).toLowerCase();
    const value = space < 0 ? "" : line.slice(space + 1).trim();
    if (key === "moves") values.moves.push(...value.split(/\s+/).filter(Boolean));
    else if (key === "game") {
      if (value.toLowerCase() !== "quoridor") {
        throw refuse(`${field}: line ${i + 1}: this is a ${repr(value)} record, not quoridor`, field);
      }
    } else if (KEYS.includes(key)) values[key] = value;
    else {
      throw refuse(`${field}: line ${i + 1}: unknown key ${repr(key)}; the keys are ${["game", ...KEYS, "moves"].join(", ")}`, field);
    }
  });
  return values;
}

function gameFromText(text, field = "text") {
  const values = loadText(text, field);
  const size = values.size ?? "9";
  if (!["5", "7", "9"].includes(size)) throw refuse(`${field}: size ${repr(size)}: the arcade plays 5, 7 or 9`, field);
  const walls = values.walls ?? String(defaultWalls(Number(size)));
  if (!/^[0-9]+$/.test(walls) || Number(walls) > CONFIG.MAX_WALLS) {
    throw refuse(`${field}: walls ${repr(walls)}: a number 0..${CONFIG.MAX_WALLS}`, field);
  }
  const edge = (values.edge_diagonal ?? "yes").toLowerCase();
  if (edge !== "yes" && edge !== "no") throw refuse(`${field}: edge_diagonal ${repr(edge)}: yes or no`, field);
  values.moves.forEach((move, i) => {
    if (move.toLowerCase() === RESIGN) return;
    try {
      parseMove(move);
    } catch (error) {
      throw refuse(`${field}: move ${i + 1}: ${error.message}`, field);
    }
  });
  return parseGame({ size: Number(size), walls: Number(walls), edge_diagonal: edge === "yes", moves: values.moves }, field);
}

// ---- one request's work (session.py) ---------------------------------------------------------

class Session {
  constructor(core, game) {
    this.core = core;
    this.board = new QuoridorGame(core, game.size, game.walls, game.edge_diagonal);
    this.search = null;
  }

  close() {
    this.board.free();
    if (this.search) this.search.free();
  }

  position(game, ply) {
    const g = this.board, size = game.size;
    const over = g.winner() !== null || (resigned(game) && ply === game.moves.length);
    const toMove = player(ply), refused = {};
    let blanket = null;
    if (over) blanket = "the game is over";
    else if (g.wallsLeft()[toMove] === 0) blanket = "no walls left";
    else {
      for (const o of "hv") {
        for (let y = 0; y < size - 1; y++) {
          for (let x = 0; x < size - 1; x++) {
            const why = g.check(g.encode([x, y, o]));
            if (why) refused[moveName([x, y, o])] = WALL_REASONS[why] || "illegal";
          }
        }
      }
    }
    // session.py lists the walls as sorted (x, y, o) tuples.
    const walls = g.walls().sort((a, b) => a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
    return {
      ply,
      move: ply ? game.moves[ply - 1] : null,
      player: ply ? player(ply - 1) : null,
      pawns: g.pawns().map(squareName),
      walls: walls.map(moveName),
      walls_left: g.wallsLeft(),
      to_move: toMove,
      pawn_moves: over ? [] : g.pawnMoves().map(squareName),
      illegal_walls: refused,
      walls_refused: blanket,
      paths: [0, 1].map((p) => g.shortestPath(p).map(squareName)),
    };
  }

  // Play move number PLY; the refusal names the move and the rule (status 400 or 422).
  playChecked(game, ply, move, field, status = 400) {
    const fail = (text, extra) => new LocalApiError(status, status === 422 ? text : `${field}: ${text}`, field, extra);
    if (move === RESIGN) {
      if (this.board.winner() !== null) {
        throw fail(`the game ended at move ${ply}; no move may follow`, { reason: "the game is over" });
      }
      return;
    }
    const code = this.board.play(this.board.encode(parseMove(move)));
    if (code) {
      const why = REFUSALS[code] || "illegal";
      throw fail(`move ${ply + 1} (${move}) by player ${player(ply) + 1} is illegal: ${why}`,
                 { move_number: ply + 1, reason: why });
    }
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
      const winner = 1 - player(game.moves.length - 1);
      return { winner, by: "resignation", text: `player ${winner + 1} wins by resignation` };
    }
    const winner = this.board.winner();
    return winner === null ? null : { winner, by: "goal", text: `player ${winner + 1} reached the goal row` };
  }

  state(game, positions) {
    const outcome = this.result(game);
    return { ...toJson(game), positions, to_move: player(game.moves.length), over: outcome !== null,
             result: outcome };
  }

  ensurePlaying(game) {
    if (resigned(game) || this.board.winner() !== null) {
      throw refuse("game.moves: the game is over; there is nothing to search", "game.moves");
    }
  }

  // engine.py's search dict, with the moves named.
  run(budget) {
    this.search = this.search || new QuoridorSearch(this.core, CONFIG.TT_MEGABYTES);
    const r = this.search.run(this.board, budget);
    const name = (code) => moveName(this.board.decode(code));
    return { move: r.move >= 0 ? name(r.move) : null, score: r.score, depth: r.depth, nodes: r.nodes,
             pv: r.pv.map(name), candidates: r.candidates.map(([m, s]) => [name(m), s]),
             path: r.path, memory: this.search.memory() };
  }
}

function withSession(core, game, work) {
  const session = new Session(core, game);
  try {
    return work(session);
  } finally {
    session.close();
  }
}

function analysisDocument(raw, game, elapsedMs) {
  const p = player(game.moves.length), score = raw.score, threshold = SCORE_WIN - SEARCH_MAX_DEPTH;
  let proven = null;
  if (Math.abs(score) > threshold) {
    // A forced result scores QR_SCORE_WIN - plies.
    const plies = threshold + SEARCH_MAX_DEPTH - Math.abs(score), winner = score > 0 ? p : 1 - p;
    proven = { winner, plies, sequence: raw.pv.slice(0, plies), text: `player ${winner + 1} wins in ${Math.floor((plies + 1) / 2)}` };
  }
  return {
    player: p,
    score,
    first_share: proven ? (proven.winner === 0 ? 1.0 : 0.0) : round(winShare(p === 0 ? score : -score, CONFIG.EVAL_SCALE), 4),
    depth: raw.depth,
    nodes: raw.nodes,
    elapsed_ms: round(elapsedMs, 1),
    memory: raw.memory,
    pv: raw.pv,
    candidates: raw.candidates.map(([move, s]) => ({ move, score: s })),
    path_lengths: raw.path,
    proven,
  };
}

// The API's endpoints, by the names the page's data-url attributes use.
export function makeLocalApi(core) {
  return {
    state(body) {
      requestShape(body, ["game"]);
      const game = parseGame(body.game);
      return withSession(core, game, (s) => s.state(game, s.replay(game)));
    },

    play(body) {
      requestShape(body, ["game", "move"]);
      const game = parseGame(body.game);
      const move = normaliseMove(body.move, game.size, "move");
      return withSession(core, game, (s) => {
        const positions = s.replay(game);
        if (resigned(game)) {
          throw new LocalApiError(422, `the game ended at move ${game.moves.length}; no move may follow`,
                                  "move", { reason: "the game is over" });
        }
        const after = withMove(game, move);
        s.playChecked(after, game.moves.length, move, "move", 422);
        positions.push(s.position(after, after.moves.length));
        return s.state(after, positions);
      });
    },

    genmove(body) {
      requestShape(body, ["game"], ["budget"]);
      const game = parseGame(body.game), budget = parseSearchBudget(body.budget, CONFIG, CONFIG.MAX_DEPTH);
      return withSession(core, game, (s) => {
        const positions = s.replay(game);
        s.ensurePlaying(game);
        const started = performance.now();
        const raw = s.run(budget);
        const elapsed = performance.now() - started;
        if (raw.move === null) throw refuse("game.moves: the engine found no move", "game.moves");
        const analysis = analysisDocument(raw, game, elapsed);
        const after = withMove(game, raw.move);
        s.playChecked(after, game.moves.length, raw.move, "move");
        positions.push(s.position(after, after.moves.length));
        return { move: raw.move, elapsed_ms: round(elapsed, 1), analysis, state: s.state(after, positions) };
      });
    },

    recordExport(body) {
      requestShape(body, ["game"]);
      const game = parseGame(body.game);
      const result = withSession(core, game, (s) => s.state(game, s.replay(game))).result;
      return { text: gameToText(game, result ? result.text : null),
               filename: `quoridor-${game.size}x${game.size}-${game.moves.length}-moves.txt` };
    },

    recordImport(body) {
      object(body, "body", ["text"], ["text"]);
      if (typeof body.text !== "string") throw refuse(`text: ${repr(body.text)} is not of type 'string'`, "text");
      if (body.text.length > 200000) throw refuse("text: the record is longer than 200000 characters", "text");
      const game = gameFromText(body.text);
      return { game: toJson(game),
               state: withSession(core, game, (s) => s.state(game, s.replay(game, "text"))) };
    },

    analyze(body) {
      requestShape(body, ["game"], ["budget"]);
      const game = parseGame(body.game), budget = parseSearchBudget(body.budget, CONFIG, CONFIG.MAX_DEPTH);
      return withSession(core, game, (s) => {
        s.replay(game);
        s.ensurePlaying(game);
        const started = performance.now();
        const raw = s.run(budget);
        return analysisDocument(raw, game, performance.now() - started);
      });
    },
  };
}

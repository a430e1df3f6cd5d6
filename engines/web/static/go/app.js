// The Go page's controller: holds the record, the timeline cursor (and the tree of every line
// played, ../shared/timeline.js) and the players, asks the server for every rule decision, and
// re-renders the pure views after each change.
import { makeApi, ApiError } from "./api.js";
import { renderBoard, onVertexClick, emptyBoard } from "./board.js";
import { renderAnalysis, clearAnalysis } from "./analysis.js";
import { bindKeys } from "../shared/keys.js";
import { saveText } from "../shared/download.js";
import { Timeline } from "../shared/timeline.js";
import { renderBranches, onBranchClick } from "../shared/branches.js";

const root = document.getElementById("go-app");
const api = makeApi(root.dataset);
const $ = (id) => document.getElementById(id);
const svg = $("board");

const ui = {
  game: { size: 9, komi: 7, superko: false, moves: [] },
  tree: new Timeline(), // every line played: the current one is ui.game.moves
  state: null,        // the server's GoState for ui.game
  cursor: 0,          // the ply shown
  analysis: null,     // {ply, data}
  running: false,     // auto-advance (AI vs AI, replay)
  busy: false,
  busyKind: null,     // "move" or "analysis": a human move may interrupt an analysis
  hoverMove: null,    // the candidate row under the pointer, ringed on the board
  generation: 0,      // bumps on every record change; stale answers are dropped
  controller: null,   // aborts the request in flight when the record changes
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const atEnd = () => ui.cursor === ui.game.moves.length;
const position = () => (ui.state ? ui.state.positions[ui.cursor] : null);
const toMove = () => (position() ? position().to_move : "b");
const overHere = () => ui.state && ui.state.over && atEnd();
const player = (color) => $(`player-${color}`).value;
const budgetFor = (color) => {
  const max = Number(root.dataset.maxPlayouts);
  const n = Math.max(1, Math.min(max, Math.round(Number($(`playouts-${color}`).value) || 1)));
  return { playouts: n };
};

function message(text, kind = "info") {
  const el = $("message");
  el.textContent = text || "";
  el.dataset.kind = kind;
}

function render() {
  const size = ui.game.size;
  const pos = position();
  const board = pos ? pos.board : emptyBoard(size);
  const over = overHere();
  const analysis = ui.analysis && ui.analysis.ply === ui.cursor ? ui.analysis.data : null;
  renderBoard(svg, {
    size, board,
    toMove: over ? null : toMove(),
    lastMove: pos ? pos.move : null,
    dead: over && ui.state.result ? ui.state.result.dead : [],
    ownership: analysis && $("ownership").checked ? analysis.ownership : null,
    candidates: analysis ? analysis.candidates.slice(0, 5).map((c) => c.move) : [],
    highlight: analysis ? ui.hoverMove : null,
  });
  const n = ui.game.moves.length;
  $("scrub").max = n;
  $("scrub").value = ui.cursor;
  $("ply").textContent = `${ui.cursor} / ${n}`;
  $("cap-b").textContent = pos ? pos.captures.b : 0;
  $("cap-w").textContent = pos ? pos.captures.w : 0;
  $("play-pause").textContent = ui.running ? "⏸ Pause" : "▶ Play";
  root.dataset.busy = ui.busy ? "1" : "0";
  root.dataset.running = ui.running ? "1" : "0"; // auto-advance on (AI vs AI, replay)
  root.dataset.over = over ? "1" : "0";
  root.dataset.moves = ui.game.moves.join(" "); // the record, for demo scripts and tests
  root.dataset.ready = ui.state ? "1" : "0";
  root.dataset.ply = ui.cursor;
  root.dataset.toMove = pos ? pos.to_move : "b";
  $("status").textContent = statusText(pos, over);
  root.dataset.branches = String(renderBranches($("branches"), ui.tree, ui.cursor));
  if (analysis) renderAnalysis(analysis); else clearAnalysis();
  scheduleLiveAnalysis();
}

function statusText(pos, over) {
  if (!pos) return "Loading…";
  if (over) {
    const r = ui.state.result;
    const dead = r.dead.length;
    const how = r.by === "resignation" ? "by resignation"
      : `area score${dead ? `, ${dead} dead stone${dead > 1 ? "s" : ""} marked ×` : ""}`;
    return `Game over: ${r.text} (${how})`;
  }
  const name = pos.to_move === "b" ? "Black" : "White";
  const engine = player(pos.to_move) === "engine";
  if (engine && ui.busy && ui.busyKind === "move") return `${name} (engine) is thinking…`;
  return `${name}${engine ? " (engine)" : ""} to play${atEnd() ? "" : " — moving here branches the game"}`;
}

async function switchVariation(index) {
  ui.running = false;
  const ply = ui.cursor;
  const game = { ...ui.game, moves: ui.tree.variationLine(ply, index) };
  const { gen, signal } = newRequest();
  await guarded(gen, async () => {
    const state = await api.state(game, signal);
    if (gen === ui.generation) adopt(game, state, ply + 1);
  });
}

// Apply a new record and its server state; `cursorAt` defaults to the end.
function adopt(game, state, cursorAt = null) {
  ui.tree.follow(game.moves);
  ui.game = game;
  ui.state = state;
  ui.cursor = cursorAt === null ? game.moves.length : cursorAt;
  render();
}

function newRequest() {
  if (ui.controller) ui.controller.abort();
  ui.generation += 1;
  ui.controller = new AbortController();
  return { gen: ui.generation, signal: ui.controller.signal };
}

// Run one request's work with the busy flag set; only the latest request (`gen`) clears it,
// so an aborted request finishing late cannot unlock the page while a newer one runs.
async function guarded(gen, work, kind = "move") {
  ui.busy = true; ui.busyKind = kind; render();
  try { await work(); } catch (err) {
    if (err.name !== "AbortError") message(err instanceof ApiError ? err.message : String(err), "error");
    if (!(err instanceof ApiError) || err.status >= 500) ui.running = false;
  } finally {
    if (gen === ui.generation) { ui.busy = false; ui.busyKind = null; }
    render();
  }
}

const gameUpToCursor = () => ({ ...ui.game, moves: ui.game.moves.slice(0, ui.cursor) });

async function playMove(move) {
  if (ui.busy && ui.busyKind !== "analysis") return message("Wait for the engine's move.");
  if (overHere()) return message("The game is over. Scrub back to branch, or start a new game.");
  ui.running = false;
  const base = gameUpToCursor();
  const { gen, signal } = newRequest();
  await guarded(gen, async () => {
    const state = await api.play(base, move, signal);
    if (gen !== ui.generation) return;
    message("");
    adopt({ ...base, moves: state.moves }, state);
  });
  engineTurn();
}

async function engineMove() {
  const color = toMove();
  const { gen, signal } = newRequest();
  const started = performance.now();
  await guarded(gen, async () => {
    const answer = await api.genmove(ui.game, budgetFor(color), signal);
    if (gen !== ui.generation) return;
    const bothEngines = player("b") === "engine" && player("w") === "engine";
    const wait = bothEngines ? Number($("delay").value) * 1000 - (performance.now() - started) : 0;
    if (wait > 0) await sleep(wait);
    if (gen !== ui.generation) return;
    const name = color === "b" ? "Black" : "White";
    message(`${name} (engine) played ${answer.move} in ${Math.round(answer.elapsed_ms)} ms`);
    adopt({ ...ui.game, moves: answer.state.moves }, answer.state);
  });
}

// The engine replies to a human at once; with engines on both sides it plays while running.
async function engineTurn() {
  while (ui.state && atEnd() && !ui.state.over && player(toMove()) === "engine") {
    const bothEngines = player("b") === "engine" && player("w") === "engine";
    if (bothEngines && !ui.running) return;
    const before = ui.generation;
    await engineMove();
    if (ui.generation !== before + 1 || ui.busy) return; // interrupted by the user
  }
  if (ui.state && ui.state.over) ui.running = false;
  render();
}

async function replayForward() {
  const delay = () => Number($("delay").value) * 1000;
  while (ui.running && !atEnd()) {
    await sleep(delay());
    if (!ui.running) return;
    ui.cursor += 1;
    render();
  }
  if (ui.running) engineTurn();
}

function togglePlay() {
  ui.running = !ui.running;
  render();
  if (!ui.running) return;
  if (!atEnd()) replayForward();
  else if (player(toMove()) === "engine") engineTurn();
  else ui.running = false;
  render();
}

function seek(ply) {
  ui.running = false; // a step or a scrub by hand stops playback
  ui.cursor = Math.max(0, Math.min(ui.game.moves.length, ply));
  render();
}

async function undo() {
  ui.running = false;
  let n = Math.max(0, ui.cursor - 1);
  const human = (c) => player(c) === "human";
  // Against the engine, undo takes back the engine's reply too, so it is the human's turn again.
  while (n > 0 && !human(n % 2 === 0 ? "b" : "w") && (human("b") || human("w"))) n -= 1;
  const game = { ...ui.game, moves: ui.game.moves.slice(0, n) };
  const { gen, signal } = newRequest();
  await guarded(gen, async () => {
    const state = await api.state(game, signal);
    if (gen === ui.generation) adopt(game, state);
  });
}

async function newGame() {
  ui.running = false;
  const game = { size: Number($("size").value), komi: Number($("komi").value),
                 superko: $("superko").checked, moves: [] };
  const { gen, signal } = newRequest();
  ui.analysis = null;
  ui.tree = new Timeline();
  await guarded(gen, async () => {
    const state = await api.state(game, signal);
    if (gen === ui.generation) { message(""); adopt(game, state); }
  });
  engineTurn();
}

async function analyze() {
  if (ui.busy || overHere()) return;
  const ply = ui.cursor;
  const { gen, signal } = newRequest();
  await guarded(gen, async () => {
    // The search streams its analysis: the panel follows it step by step.
    await api.analyzeStream(gameUpToCursor(), budgetFor(toMove()), signal, (data) => {
      if (gen !== ui.generation) return;
      ui.analysis = { ply, data };
      render();
    });
  }, "analysis");
}

// Live analysis: every position the game reaches or the timeline shows is analysed when idle.
let liveTimer = null;
function scheduleLiveAnalysis() {
  clearTimeout(liveTimer);
  if (!$("live").checked) return;
  liveTimer = setTimeout(() => {
    const fresh = !ui.analysis || ui.analysis.ply !== ui.cursor;
    if (!ui.busy && !ui.running && fresh && !overHere()) analyze();
  }, 150);
}

async function downloadSgf() {
  const { sgf, filename } = await api.sgfExport(ui.game);
  saveText(sgf, filename, "application/x-go-sgf");
}

async function uploadSgf(file) {
  ui.running = false;
  const text = await file.text();
  const { gen } = newRequest();
  await guarded(gen, async () => {
    const { game, state } = await api.sgfImport(text);
    $("size").value = game.size;
    $("komi").value = game.komi;
    $("superko").checked = game.superko;
    message(`Loaded ${file.name}: ${game.moves.length} moves`);
    ui.tree = new Timeline();
    adopt(game, state);
  });
}

function bind() {
  onVertexClick(svg, (vertex) => {
    if (player(toMove()) === "engine" && atEnd()) return message("It is the engine's turn.");
    playMove(vertex);
  });
  $("pass").addEventListener("click", () => playMove("pass"));
  $("resign").addEventListener("click", () => playMove("resign"));
  $("undo").addEventListener("click", undo);
  $("new-game").addEventListener("click", newGame);
  $("analyze").addEventListener("click", analyze);
  $("ownership").addEventListener("change", render);
  $("live").addEventListener("change", render);
  // Hovering a candidate row rings its point; clicking plays it (the server still judges it).
  $("candidates").addEventListener("mouseover", (e) => {
    const row = e.target.closest("tr[data-move]");
    const move = row ? row.dataset.move : null;
    if (move !== ui.hoverMove) { ui.hoverMove = move; render(); }
  });
  $("candidates").addEventListener("mouseleave", () => { ui.hoverMove = null; render(); });
  $("candidates").addEventListener("click", (e) => {
    const row = e.target.closest("tr[data-move]");
    if (row) playMove(row.dataset.move);
  });
  onBranchClick($("branches"), switchVariation, seek);
  $("play-pause").addEventListener("click", togglePlay);
  $("first").addEventListener("click", () => seek(0));
  $("back").addEventListener("click", () => seek(ui.cursor - 1));
  $("forward").addEventListener("click", () => seek(ui.cursor + 1));
  $("last").addEventListener("click", () => seek(ui.game.moves.length));
  $("scrub").addEventListener("input", (e) => seek(Number(e.target.value)));
  $("sgf-download").addEventListener("click", () => downloadSgf().catch((e) => message(e.message, "error")));
  $("sgf-upload").addEventListener("change", (e) => e.target.files[0] && uploadSgf(e.target.files[0]));
  for (const c of ["b", "w"]) $(`player-${c}`).addEventListener("change", () => { render(); engineTurn(); });
  bindKeys(document, KEYS);
}

const toggle = (id) => () => { $(id).checked = !$(id).checked; render(); };
const KEYS = {
  ArrowLeft: () => seek(ui.cursor - 1),
  ArrowRight: () => seek(ui.cursor + 1),
  Home: () => seek(0),
  End: () => seek(ui.game.moves.length),
  " ": togglePlay,
  p: () => playMove("pass"),
  u: undo,
  a: analyze,
  o: toggle("ownership"),
  l: toggle("live"),
};

bind();
render(); // first paint: the empty board, before the server answers
newGame();

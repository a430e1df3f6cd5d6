// The controller every game page runs on (Go, Gomoku, Quoridor): it holds the game tree
// (timeline with branches), the cursor and the players, asks the server for every rule decision,
// and re-renders after each change. A game brings an adapter:
//
//   sides: ["b", "w"]                the two sides' keys, first to move first (player-KEY selects)
//   sideName(side)                   "Black", "Player 1"
//   newGame()                        the record's settings from the page's controls (no moves)
//   applySettings(game)              show an uploaded record's settings in the controls
//   renderBoard(view)                draw the position: view = {state, pos, ply, over, analysis,
//                                    highlight, extra}; extra is what the adapter keeps itself
//   analysisView(data)               {share, text, pv} for the panel
//   resultText(result)               the status line of a finished game
//   onBoardClick(handler)            call handler(move) when the user picks a move on the board
//   exportText(answer)               optional: the message after a download
// and, where it differs from the alpha-beta games' defaults (optional):
//   budgetInput                      the per-side budget field's prefix ("seconds": seconds-b)
//   budget(side, value)              the budget sent for that side (default {seconds})
//   api(dataset)                     the API client (default makeGameApi)
//   analyze(api, game, budget, signal, onData)   a streamed search; onData(answer) per step
//   renderAnalysis(data), clearAnalysis()        the panel, when it is not the shared one
//   exportRecord(api, game), importRecord(api, text)   {text, filename, type} / {game, state}
//   bind(handle)                     extra controls (a pass button)
//   ids                              {download, upload}: the record buttons' ids, if not record-*
//   keys                             extra shortcuts {key: (game) => ...}
import { makeGameApi, ApiError } from "./api.js";
import { Timeline } from "./timeline.js";
import { renderBranches, onBranchClick } from "./branches.js";
import { renderEval, renderCandidates, renderPv, clearAnalysis } from "./analysis.js";
import { bindKeys } from "./keys.js";
import { saveText } from "./download.js";

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function startGame(root, adapter) {
  const api = adapter.api ? adapter.api(root.dataset) : makeGameApi(root.dataset);
  const budgetInput = adapter.budgetInput || "seconds";
  const ui = {
    settings: adapter.newGame(),
    tree: new Timeline(),
    state: null,          // the server's state for the current line
    analyses: new Map(),  // record prefix -> analysis of that position
    running: false,       // auto-advance (AI vs AI, replay)
    busy: false,
    busyKind: null,       // "move" or "analysis": a human move may interrupt an analysis
    highlight: null,      // the candidate under the pointer
    generation: 0,        // bumps on every request; stale answers are dropped
    controller: null,
    extra: {},
  };

  const cursor = () => ui.tree.cursor;
  const atEnd = () => ui.tree.cursor === ui.tree.length;
  const side = (ply) => adapter.sides[ply % 2];
  const position = () => (ui.state ? ui.state.positions[cursor()] : null);
  const overHere = () => Boolean(ui.state && ui.state.over && atEnd());
  const player = (s) => $(`player-${s}`).value;
  const game = (upTo = ui.tree.length) => ({ ...ui.settings, moves: ui.tree.moves(upTo) });
  const analysisKey = (ply) => ui.tree.moves(ply).join(" ");
  const analysisHere = () => ui.analyses.get(analysisKey(cursor())) || null;

  function budgetFor(s) {
    if (adapter.budget) return adapter.budget(s, $(`${budgetInput}-${s}`).value);
    const max = Number(root.dataset.maxSeconds);
    const seconds = Math.max(0.01, Math.min(max, Number($(`seconds-${s}`).value) || 0.1));
    const nodes = Number(root.dataset.nodes || 0);
    return nodes > 0 ? { seconds, nodes } : { seconds };
  }

  function message(text, kind = "info") {
    const el = $("message");
    el.textContent = text || "";
    el.dataset.kind = kind;
  }

  function render() {
    const pos = position();
    const over = overHere();
    const analysis = analysisHere();
    adapter.renderBoard({ state: ui.state, pos, ply: cursor(), over, analysis,
                          highlight: analysis ? ui.highlight : null, extra: ui.extra,
                          settings: ui.settings });
    const n = ui.tree.length;
    $("scrub").max = n;
    $("scrub").value = cursor();
    $("ply").textContent = `${cursor()} / ${n}`;
    $("play-pause").textContent = ui.running ? "⏸ Pause" : "▶ Play";
    $("stop").disabled = !ui.busy && !ui.running;
    Object.assign(root.dataset, {
      busy: ui.busy ? "1" : "0", running: ui.running ? "1" : "0", over: over ? "1" : "0",
      moves: ui.tree.moves().join(" "), ready: ui.state ? "1" : "0", ply: String(cursor()),
      toMove: side(cursor()), analysed: analysis ? "1" : "0",
    });
    $("status").textContent = statusText(pos, over);
    renderBranchList();
    if (adapter.renderAnalysis) {
      if (analysis) adapter.renderAnalysis(analysis); else adapter.clearAnalysis();
    } else if (analysis) {
      const view = adapter.analysisView(analysis);
      renderEval(view.share, view.text);
      renderCandidates(analysis.candidates);
      renderPv(view.pv);
    } else clearAnalysis();
    scheduleLiveAnalysis();
  }

  function statusText(pos, over) {
    if (!pos) return "Loading…";
    if (over) return adapter.resultText(ui.state.result);
    const s = side(cursor());
    const engine = player(s) === "engine";
    const name = adapter.sideName(s);
    if (engine && ui.busy && ui.busyKind === "move") return `${name} (engine) is thinking…`;
    return `${name}${engine ? " (engine)" : ""} to play${atEnd() ? "" : " — moving here starts a branch"}`;
  }

  function renderBranchList() {
    const count = renderBranches($("branches"), ui.tree, cursor(), "<span>No other variation here.</span>");
    root.dataset.branches = String(count);
  }

  function adopt(moves, state, cursorAt = null) {
    ui.tree.follow(moves);
    ui.state = state;
    ui.tree.seek(cursorAt === null ? moves.length : cursorAt);
    render();
  }

  function newRequest() {
    if (ui.controller) ui.controller.abort();
    ui.generation += 1;
    ui.controller = new AbortController();
    return { gen: ui.generation, signal: ui.controller.signal };
  }

  // Run one request's work with the busy flag set; only the latest request clears it.
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

  async function playMove(move) {
    if (ui.busy && ui.busyKind !== "analysis") return message("Wait for the engine's move.");
    if (overHere()) return message("The game is over. Scrub back to branch, or start a new game.");
    if (player(side(cursor())) === "engine" && atEnd() && move !== "resign") return message("It is the engine's turn.");
    ui.running = false;
    const base = game(cursor());
    const { gen, signal } = newRequest();
    await guarded(gen, async () => {
      const state = await api.play(base, move, signal);
      if (gen !== ui.generation) return;
      message("");
      adopt(state.moves, state);
    });
    engineTurn();
  }

  async function engineMove() {
    const s = side(cursor());
    const { gen, signal } = newRequest();
    const started = performance.now();
    const base = game();
    await guarded(gen, async () => {
      const answer = await api.genmove(base, budgetFor(s), signal);
      if (gen !== ui.generation) return;
      const both = adapter.sides.every((x) => player(x) === "engine");
      const wait = both ? Number($("delay").value) * 1000 - (performance.now() - started) : 0;
      if (wait > 0) await sleep(wait);
      if (gen !== ui.generation) return;
      if (answer.analysis) ui.analyses.set(base.moves.join(" "), answer.analysis);
      message(`${adapter.sideName(s)} (engine) played ${answer.move} in ${Math.round(answer.elapsed_ms)} ms`);
      adopt(answer.state.moves, answer.state);
    });
  }

  // The engine replies to a human at once; with engines on both sides it plays while running.
  async function engineTurn() {
    while (ui.state && atEnd() && !ui.state.over && player(side(cursor())) === "engine") {
      const both = adapter.sides.every((x) => player(x) === "engine");
      if (both && !ui.running) return;
      const before = ui.generation;
      await engineMove();
      if (ui.generation !== before + 1 || ui.busy) return; // interrupted by the user
    }
    if (ui.state && ui.state.over) ui.running = false;
    render();
  }

  async function replayForward() {
    while (ui.running && !atEnd()) {
      await sleep(Number($("delay").value) * 1000);
      if (!ui.running) return;
      ui.tree.seek(cursor() + 1);
      render();
    }
    if (ui.running) engineTurn();
  }

  // Stop: the search in flight ends (a streamed analysis after its current step, keeping what
  // it found; a move's answer is dropped, so the engine plays nothing) and AI vs AI pauses.
  function stop() {
    if (!ui.busy && !ui.running) return;
    const kind = ui.busyKind;
    ui.running = false;
    newRequest();
    const shown = analysisHere();  // a streamed analysis keeps the steps it made
    if (kind === "analysis" && shown && shown.step < shown.steps) {
      ui.analyses.set(analysisKey(cursor()), { ...shown, stopped: true });
    }
    ui.busy = false; ui.busyKind = null;
    message(kind === "move" ? "Stopped: the engine's move was abandoned (▶ Play or a move of yours goes on)."
                            : "Stopped.");
    render();
  }

  function togglePlay() {
    ui.running = !ui.running;
    render();
    if (!ui.running) return;
    if (!atEnd()) replayForward();
    else if (player(side(cursor())) === "engine") engineTurn();
    else ui.running = false;
    render();
  }

  function seek(ply) {
    ui.running = false;
    ui.tree.seek(ply);
    render();
  }

  async function load(moves, cursorAt = null) {
    const record = { ...ui.settings, moves };
    const { gen, signal } = newRequest();
    await guarded(gen, async () => {
      const state = await api.state(record, signal);
      if (gen === ui.generation) adopt(state.moves, state, cursorAt);
    });
  }

  async function undo() {
    ui.running = false;
    let n = Math.max(0, cursor() - 1);
    const human = (s) => player(s) === "human";
    // Against the engine, undo takes back the engine's reply too, so it is the human's turn again.
    while (n > 0 && !human(side(n)) && adapter.sides.some(human)) n -= 1;
    await load(ui.tree.moves(n));
  }

  async function switchVariation(index) {
    ui.running = false;
    const ply = cursor();
    await load(ui.tree.variationLine(ply, index), ply + 1);
  }

  async function newGame(moves = []) {
    ui.running = false;
    ui.settings = adapter.newGame();
    ui.tree = new Timeline();
    ui.analyses.clear();
    ui.extra = {};
    message("");
    await load(moves);
    if (!ui.state && moves.length) await load([]); // a bad shared record: the refusal stays shown
    engineTurn();
  }

  async function analyze() {
    if (ui.busy || overHere()) return;
    const ply = cursor();
    const base = game(ply);
    const { gen, signal } = newRequest();
    const key = base.moves.join(" ");
    await guarded(gen, async () => {
      if (adapter.analyze) {
        // A streamed search: the panel follows it step by step.
        await adapter.analyze(api, base, budgetFor(side(ply)), signal, (data) => {
          if (gen !== ui.generation) return;
          ui.analyses.set(key, data);
          render();
        });
        return;
      }
      const data = await api.analyze(base, budgetFor(side(ply)), signal);
      if (gen !== ui.generation) return;
      ui.analyses.set(key, data);
    }, "analysis");
  }

  let liveTimer = null;
  function scheduleLiveAnalysis() {
    clearTimeout(liveTimer);
    if (!$("live").checked) return;
    liveTimer = setTimeout(() => {
      if (!ui.busy && !ui.running && !analysisHere() && !overHere()) analyze();
    }, 150);
  }

  function swapSides() {
    const [a, b] = adapter.sides;
    const first = player(a);
    $(`player-${a}`).value = player(b);
    $(`player-${b}`).value = first;
    const budget = $(`${budgetInput}-${a}`).value;
    $(`${budgetInput}-${a}`).value = $(`${budgetInput}-${b}`).value;
    $(`${budgetInput}-${b}`).value = budget;
    message(`Swapped: ${adapter.sideName(a)} is now ${player(a)}, ${adapter.sideName(b)} ${player(b)}.`);
    render();
    engineTurn();
  }

  async function download() {
    const answer = adapter.exportRecord ? await adapter.exportRecord(api, game())
      : await api.exportRecord(game());
    saveText(answer.text, answer.filename, answer.type);
    message(adapter.exportText ? adapter.exportText(answer) : `Saved ${answer.filename}`);
    return answer;
  }

  async function upload(file) {
    ui.running = false;
    const text = await file.text();
    const { gen } = newRequest();
    await guarded(gen, async () => {
      const answer = adapter.importRecord ? await adapter.importRecord(api, text)
        : await api.importRecord(text);
      adapter.applySettings(answer.game);
      ui.settings = adapter.newGame();
      ui.tree = new Timeline();
      ui.analyses.clear();
      message(`Loaded ${file.name}: ${answer.game.moves.length} moves`);
      adopt(answer.state.moves, answer.state);
    });
  }

  const toggle = (id) => () => { $(id).checked = !$(id).checked; render(); };
  const handle = {
    ui, api, render, message, playMove, seek, undo, newGame, analyze, stop, togglePlay, swapSides,
    game, cursor, position, guarded, newRequest, download,
  };

  function bind() {
    adapter.onBoardClick((move) => playMove(move));
    $("resign").addEventListener("click", () => playMove("resign"));
    $("undo").addEventListener("click", undo);
    $("new-game").addEventListener("click", () => newGame());
    $("swap").addEventListener("click", swapSides);
    $("analyze").addEventListener("click", analyze);
    $("stop").addEventListener("click", stop);
    $("live").addEventListener("change", render);
    $("candidates").addEventListener("mouseover", (e) => {
      const row = e.target.closest("tr[data-move]");
      const move = row ? row.dataset.move : null;
      if (move !== ui.highlight) { ui.highlight = move; render(); }
    });
    $("candidates").addEventListener("mouseleave", () => { ui.highlight = null; render(); });
    $("candidates").addEventListener("click", (e) => {
      const row = e.target.closest("tr[data-move]");
      if (row) playMove(row.dataset.move);
    });
    onBranchClick($("branches"), switchVariation, seek);
    $("play-pause").addEventListener("click", togglePlay);
    $("first").addEventListener("click", () => seek(0));
    $("back").addEventListener("click", () => seek(cursor() - 1));
    $("forward").addEventListener("click", () => seek(cursor() + 1));
    $("last").addEventListener("click", () => seek(ui.tree.length));
    $("scrub").addEventListener("input", (e) => seek(Number(e.target.value)));
    const ids = { download: "record-download", upload: "record-upload", ...(adapter.ids || {}) };
    $(ids.download).addEventListener("click", () => download().catch((e) => message(e.message, "error")));
    $(ids.upload).addEventListener("change", (e) => e.target.files[0] && upload(e.target.files[0]));
    for (const s of adapter.sides) $(`player-${s}`).addEventListener("change", () => { render(); engineTurn(); });
    if (adapter.bind) adapter.bind(handle);
    const keys = {
      ArrowLeft: () => seek(cursor() - 1),
      ArrowRight: () => seek(cursor() + 1),
      Home: () => seek(0),
      End: () => seek(ui.tree.length),
      " ": togglePlay,
      Escape: stop,
      u: undo,
      a: analyze,
      s: swapSides,
      l: toggle("live"),
    };
    for (const [key, action] of Object.entries(adapter.keys || {})) keys[key] = () => action(handle);
    bindKeys(document, keys);
  }

  bind();
  render(); // first paint: the empty board, before the server answers
  // A shared link or demo may start from a record (`?moves=h8,i9`); the server judges it.
  newGame((root.dataset.startMoves || "").split(/[\s,]+/).filter(Boolean));
  return handle;
}

// The Go page: the shared controller (../shared/controller.js) with Go's board, playout
// budgets, pass, the streamed analysis with its ownership map, and SGF records.
import { startGame } from "../shared/controller.js";
import { engineSwitch, inPageEngine, routeCalls } from "../shared/engine_switch.js";
import { makeApi } from "./api.js";
import { renderBoard, onVertexClick, emptyBoard } from "./board.js";
import { renderAnalysis, clearAnalysis } from "./analysis.js";

const root = document.getElementById("go-app");
const svg = document.getElementById("board");
const $ = (id) => document.getElementById(id);
const NAMES = { b: "Black", w: "White" };

// The in-page engine answers the same calls, SGF records included.
const local = inPageEngine("go");
const inPage = {
  state: (game, signal) => local.call("state", { game }, signal),
  play: (game, move, signal) => local.call("play", { game, move }, signal),
  genmove: (game, budget, signal) => local.call("genmove", { game, budget }, signal),
  analyze: (game, budget, signal) => local.call("analyze", { game, budget }, signal),
  analyzeStream: (game, budget, signal, onLine) => local.call("analyze", { game, budget }, signal, onLine),
  sgfExport: (game) => local.call("sgf/export", { game }),
  sgfImport: (sgf) => local.call("sgf/import", { sgf }),
};
const engine = engineSwitch(root);

const adapter = {
  sides: ["b", "w"],
  sideName: (s) => NAMES[s],
  api: (dataset) => routeCalls(makeApi(dataset), inPage, engine),
  budgetInput: "playouts",
  budget: (side, value) => {
    const max = Number(root.dataset.maxPlayouts);
    return { playouts: Math.max(1, Math.min(max, Math.round(Number(value) || 1))) };
  },
  newGame: () => ({ size: Number($("size").value), komi: Number($("komi").value),
                    superko: $("superko").checked }),
  applySettings: (game) => {
    $("size").value = game.size;
    $("komi").value = game.komi;
    $("superko").checked = game.superko;
  },
  renderBoard(view) {
    const size = view.settings.size;
    const pos = view.pos;
    const a = view.analysis;
    renderBoard(svg, {
      size,
      board: pos ? pos.board : emptyBoard(size),
      toMove: view.over || !pos ? null : pos.to_move,
      lastMove: pos ? pos.move : null,
      dead: view.over && view.state.result ? view.state.result.dead : [],
      ownership: a && $("ownership").checked ? a.ownership : null,
      candidates: a ? a.candidates.slice(0, 5).map((c) => c.move) : [],
      highlight: view.highlight,
    });
    $("cap-b").textContent = pos ? pos.captures.b : 0;
    $("cap-w").textContent = pos ? pos.captures.w : 0;
  },
  // The search streams its analysis: the panel follows it step by step.
  analyze: (api, game, budget, signal, onData) => api.analyzeStream(game, budget, signal, onData),
  renderAnalysis,
  clearAnalysis,
  resultText(r) {
    const dead = r.dead.length;
    const how = r.by === "resignation" ? "by resignation"
      : `area score${dead ? `, ${dead} dead stone${dead > 1 ? "s" : ""} marked ×` : ""}`;
    return `Game over: ${r.text} (${how})`;
  },
  onBoardClick: (handler) => onVertexClick(svg, handler),
  exportRecord: async (api, game) => {
    const { sgf, filename } = await api.sgfExport(game);
    return { text: sgf, filename, type: "application/x-go-sgf" };
  },
  importRecord: (api, text) => api.sgfImport(text),
  bind: (h) => {
    $("pass").addEventListener("click", () => h.playMove("pass"));
    $("ownership").addEventListener("change", h.render);
  },
  keys: {
    p: (h) => h.playMove("pass"),
    o: (h) => { $("ownership").checked = !$("ownership").checked; h.render(); },
  },
  ids: { download: "sgf-download", upload: "sgf-upload" },
};

startGame(root, adapter);

// The Gomoku page: the shared controller with Gomoku's board, settings and threat view; the
// engine on the server or in the page (the core compiled to WebAssembly, in a Web Worker).
import { startGame } from "../shared/controller.js";
import { makeGameApi } from "../shared/api.js";
import { engineSwitch, inPageGameApi, routeCalls } from "../shared/engine_switch.js";
import { renderBoard, onPointClick, emptyBoard } from "./board.js";

const root = document.getElementById("gomoku-app");
const svg = document.getElementById("board");
const $ = (id) => document.getElementById(id);
const NAMES = { b: "Black", w: "White" };
const threatCache = new Map(); // record prefix -> {b, w}
let handle = null;

// The in-page engine answers every call the page makes, threats and records included.
const inPage = inPageGameApi("gomoku");
const engine = engineSwitch(root);

function requestThreats(game) {
  const key = `${game.size} ${game.rule} ${game.moves.join(" ")}`;
  if (threatCache.has(key)) return threatCache.get(key);
  threatCache.set(key, null);
  handle.api.call("threats", { game }).then((answer) => {
    threatCache.set(key, answer.threats);
    handle.render();
  }).catch((err) => { threatCache.delete(key); handle.message(err.message, "error"); });
  return null;
}

const adapter = {
  sides: ["b", "w"],
  sideName: (s) => NAMES[s],
  api: (dataset) => routeCalls(makeGameApi(dataset), inPage, engine),
  newGame: () => ({ size: Number($("size").value), rule: $("rule").value }),
  applySettings: (game) => { $("size").value = String(game.size); $("rule").value = game.rule; },
  renderBoard(view) {
    const size = view.settings.size;
    const pos = view.pos;
    const a = view.analysis;
    const game = handle ? handle.game(view.ply) : null;
    const threats = $("threats").checked && pos && handle ? requestThreats(game) : null;
    root.dataset.threats = threats ? String(threats.b.length + threats.w.length) : "";
    renderBoard(svg, {
      size,
      board: pos ? pos.board : emptyBoard(size),
      toMove: view.over || !pos ? null : pos.to_move,
      lastMove: pos ? pos.move : null,
      forbidden: pos ? pos.forbidden : [],
      winLine: view.over && view.state.result ? view.state.result.line : [],
      threats,
      pv: a && $("show-pv").checked ? a.pv : [],
      pvFirst: a ? a.color : "b",
      proven: Boolean(a && a.proven),
      highlight: view.highlight,
    });
    const proven = a && a.proven;
    $("proven").textContent = proven ? `${proven.text}: ${proven.sequence.join(" ")}` : "";
    root.dataset.proven = proven ? proven.text : "";
  },
  analysisView: (a) => ({
    share: a.black_share,
    text: `Black ${(100 * a.black_share).toFixed(0)}% · score ${a.score} for ${NAMES[a.color]} · depth ${a.depth} · ` +
          `${a.nodes.toLocaleString("en")} nodes · ${Math.round(a.elapsed_ms)} ms`,
    pv: a.pv.length ? `PV (numbered on the board): ${a.pv.join(" ")}` : "",
  }),
  resultText(r) {
    if (r.by === "resignation") return `Game over: ${NAMES[r.winner]} wins by resignation`;
    if (r.by === "draw") return "Game over: a draw";
    return `Game over: ${NAMES[r.winner]} wins with five (${r.line.join(" ")})`;
  },
  onBoardClick: (handler) => onPointClick(svg, handler),
  exportText: (answer) => `Saved ${answer.filename}. Gomocup position: ${answer.gomocup.pos || "(empty)"}` +
    (answer.gomocup.offsets ? ` · offsets ${answer.gomocup.offsets}` : ""),
  keys: {
    t: (h) => { $("threats").checked = !$("threats").checked; h.render(); },
    v: (h) => { $("show-pv").checked = !$("show-pv").checked; h.render(); },
  },
};

handle = startGame(root, adapter);
$("threats").addEventListener("change", () => handle.render());
$("show-pv").addEventListener("change", () => handle.render());

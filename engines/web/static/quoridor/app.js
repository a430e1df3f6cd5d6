// The Quoridor page: the shared controller with Quoridor's board, walls and paths; the engine
// on the server or in the page (the core compiled to WebAssembly, ../engine/quoridor_local.js).
import { startGame } from "../shared/controller.js";
import { makeGameApi } from "../shared/api.js";
import { engineSwitch, inPageGameApi, routeCalls } from "../shared/engine_switch.js";
import { renderBoard, onMoveClick } from "./board.js";

const root = document.getElementById("quoridor-app");
const svg = document.getElementById("board");
const $ = (id) => document.getElementById(id);
const NAMES = { p1: "Player 1", p2: "Player 2" };

// The in-page engine answers the same calls with the same documents.
const inPage = inPageGameApi("quoridor");
const engine = engineSwitch(root);

const adapter = {
  sides: ["p1", "p2"],
  api: (dataset) => routeCalls(makeGameApi(dataset), inPage, engine),
  sideName: (s) => NAMES[s],
  newGame: () => ({ size: Number($("size").value), edge_diagonal: $("edge-diagonal").checked, moves: [] }),
  applySettings: (game) => {
    $("size").value = String(game.size);
    $("edge-diagonal").checked = game.edge_diagonal;
  },
  renderBoard(view) {
    const pos = view.pos;
    const a = view.analysis;
    const size = view.settings.size;
    renderBoard(svg, {
      size,
      pawns: pos ? pos.pawns : [],
      walls: pos ? pos.walls : [],
      lastMove: pos ? pos.move : null,
      pawnMoves: pos && !view.over ? pos.pawn_moves : [],
      illegalWalls: pos ? pos.illegal_walls : {},
      wallsRefused: pos ? pos.walls_refused : "loading",
      paths: pos && $("paths").checked ? pos.paths : null,
      pv: a && $("show-pv").checked ? a.pv : [],
      highlight: view.highlight,
    });
    $("walls-left").textContent = pos
      ? `Walls left — Player 1: ${pos.walls_left[0]} · Player 2: ${pos.walls_left[1]}` +
        ` · shortest paths ${pos.paths[0].length} and ${pos.paths[1].length}`
      : "";
    root.dataset.wallsLeft = pos ? pos.walls_left.join(" ") : "";
    const proven = a && a.proven;
    $("proven").textContent = proven ? `${proven.text}: ${proven.sequence.join(" ")}` : "";
  },
  analysisView: (a) => ({
    share: a.first_share,
    text: `Player 1 ${(100 * a.first_share).toFixed(0)}% · score ${a.score} for Player ${a.player + 1} · depth ${a.depth} · ` +
          `${a.nodes.toLocaleString("en")} nodes · ${Math.round(a.elapsed_ms)} ms`,
    pv: a.pv.length ? `PV (numbered on the board): ${a.pv.join(" ")}` : "",
  }),
  resultText: (r) => `Game over: ${r.text}`,
  onBoardClick: (handler) => onMoveClick(svg, handler),
  keys: {
    p: (h) => { $("paths").checked = !$("paths").checked; h.render(); },
    v: (h) => { $("show-pv").checked = !$("show-pv").checked; h.render(); },
  },
};

const handle = startGame(root, adapter);
$("paths").addEventListener("change", () => handle.render());
$("show-pv").addEventListener("change", () => handle.render());

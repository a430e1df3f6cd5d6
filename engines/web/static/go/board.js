// The board is a pure view (after Shudan): a view object in, an SVG out, clicks out as vertices.
// No rules here: legality, captures and scoring all come from the server.
import { COLUMNS, toVertex, fromVertex } from "./coords.js";

const STAR_POINTS = { 9: [2, 4, 6], 13: [3, 6, 9], 19: [3, 9, 15] };
const SVG_NS = "http://www.w3.org/2000/svg";

function starPoints(size) {
  const lines = STAR_POINTS[size];
  if (!lines) return [];
  // 19x19 has nine star points; smaller boards the four corners and the centre.
  const mid = lines[1];
  return lines.flatMap((x) => lines.map((y) => [x, y]))
    .filter(([x, y]) => size >= 19 || (x !== mid && y !== mid) || (x === mid && y === mid));
}

function grid(size) {
  const last = size - 1;
  let out = "";
  for (let i = 0; i < size; i++) {
    out += `<line x1="0" y1="${i}" x2="${last}" y2="${i}"/><line x1="${i}" y1="0" x2="${i}" y2="${last}"/>`;
  }
  return `<g class="grid">${out}</g>` +
    starPoints(size).map(([x, y]) => `<circle class="star" cx="${x}" cy="${y}" r="0.09"/>`).join("");
}

function labels(size) {
  let out = "";
  for (let i = 0; i < size; i++) {
    out += `<text x="${i}" y="-0.75">${COLUMNS[i]}</text><text x="${i}" y="${size - 0.25}">${COLUMNS[i]}</text>`;
    out += `<text x="-0.8" y="${i}">${size - i}</text><text x="${size - 0.2}" y="${i}">${size - i}</text>`;
  }
  return `<g class="labels">${out}</g>`;
}

function heat(ownership, board) {
  // +1: Black owns the point, -1: White does; a square whose size and opacity are the certainty.
  // Drawn over empty points, and over stones only where the other colour is expected to own them.
  let out = "";
  ownership.forEach((row, y) => row.forEach((v, x) => {
    const stone = board[y][x];
    if (Math.abs(v) < 0.1 || (stone === "b" && v > -0.3) || (stone === "w" && v < 0.3)) return;
    const side = (stone === "." ? 0.62 : 0.4) * Math.min(1, Math.abs(v));
    out += `<rect class="heat ${v > 0 ? "b" : "w"}" x="${x - side / 2}" y="${y - side / 2}" ` +
      `width="${side}" height="${side}" opacity="${(0.35 + 0.5 * Math.abs(v)).toFixed(2)}"/>`;
  }));
  return `<g class="heat-map">${out}</g>`;
}

function stones(rows, dead) {
  let out = "";
  rows.forEach((row, y) => [...row].forEach((c, x) => {
    if (c === ".") return;
    const cls = `stone ${c}${dead.has(`${x},${y}`) ? " dead" : ""}`;
    out += `<circle class="${cls}" cx="${x}" cy="${y}" r="0.47" data-stone="${c}"/>`;
  }));
  return out;
}

function markers(view) {
  let out = "";
  const size = view.size;
  const last = fromVertex(view.lastMove, size);
  if (last) {
    const c = view.board[last[1]][last[0]];
    out += `<circle class="last-move on-${c}" cx="${last[0]}" cy="${last[1]}" r="0.2"/>`;
  }
  for (const v of view.dead || []) {
    const [x, y] = fromVertex(v, size);
    out += `<path class="dead-mark" d="M${x - 0.2} ${y - 0.2}L${x + 0.2} ${y + 0.2}M${x + 0.2} ${y - 0.2}L${x - 0.2} ${y + 0.2}" data-dead="${v}"/>`;
  }
  const hl = fromVertex(view.highlight, size);
  if (hl) out += `<circle class="highlight" cx="${hl[0]}" cy="${hl[1]}" r="0.5"/>`;
  (view.candidates || []).forEach((v, i) => {
    const p = fromVertex(v, size);
    if (!p) return;
    out += `<g class="candidate${i === 0 ? " best" : ""}"><circle cx="${p[0]}" cy="${p[1]}" r="0.3"/>` +
      `<text x="${p[0]}" y="${p[1]}">${i + 1}</text></g>`;
  });
  return out;
}

function hitAreas(size, board) {
  // One click target per point; empty points also hold a ghost stone shown on hover.
  let out = "";
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const ghost = board[y][x] === "." ? `<circle class="ghost" cx="${x}" cy="${y}" r="0.46"/>` : "";
      out += `<g class="hit" data-vertex="${toVertex([x, y], size)}">` +
        `<rect x="${x - 0.5}" y="${y - 0.5}" width="1" height="1"/>${ghost}</g>`;
    }
  }
  return `<g class="hits">${out}</g>`;
}

// view: {size, board: rows of ".bw", toMove, lastMove, dead: [vertex], ownership: rows|null,
//        candidates: [vertex], highlight: vertex|null}
export function renderBoard(svg, view) {
  const size = view.size;
  const dead = new Set((view.dead || []).map((v) => fromVertex(v, size).join(",")));
  svg.setAttribute("viewBox", `-1.3 -1.3 ${size + 1.6} ${size + 1.6}`);
  svg.dataset.size = size;
  svg.innerHTML = `<rect class="wood" x="-1.3" y="-1.3" width="${size + 1.6}" height="${size + 1.6}" rx="0.3"/>` +
    grid(size) + labels(size) + stones(view.board, dead) +
    (view.ownership ? heat(view.ownership, view.board) : "") + markers(view) + hitAreas(size, view.board);
  svg.dataset.turn = view.toMove || "none";
}

// Clicks leave the view as vertex text ("D4"); the caller decides what they mean.
export function onVertexClick(svg, handler) {
  svg.addEventListener("click", (event) => {
    const hit = event.target.closest("[data-vertex]");
    if (hit) handler(hit.dataset.vertex);
  });
}

export function emptyBoard(size) {
  return Array.from({ length: size }, () => ".".repeat(size));
}

export { SVG_NS };

// The Gomoku board: a pure view (after Shudan). A view object in, an SVG out, clicks out as
// point names ("h8"). No rules here: forbidden points, wins and threats come from the server.
const LETTERS = "abcdefghijklmnopqrst";

// Point names <-> [x, y] for drawing only: columns from a at the left, rows from 1 at the bottom.
export const pointName = ([x, y], size) => `${LETTERS[x]}${size - y}`;
export function pointOf(name, size) {
  if (!name || name === "resign") return null;
  return [LETTERS.indexOf(name[0]), size - Number(name.slice(1))];
}

const THREAT_LABELS = { five: "5", "open-four": "4+", "four-four": "44", "four-three": "43",
                        four: "4", "three-three": "33", three: "3" };

function grid(size) {
  let out = "";
  for (let i = 0; i < size; i++) {
    out += `<line x1="0" y1="${i}" x2="${size - 1}" y2="${i}"/><line x1="${i}" y1="0" x2="${i}" y2="${size - 1}"/>`;
  }
  const c = Math.floor(size / 2), q = size === 15 ? 3 : 4;
  const stars = [[c, c], [q, q], [size - 1 - q, q], [q, size - 1 - q], [size - 1 - q, size - 1 - q]];
  return `<g class="grid">${out}</g>` + stars.map(([x, y]) => `<circle class="star" cx="${x}" cy="${y}" r="0.09"/>`).join("");
}

function labels(size) {
  let out = "";
  for (let i = 0; i < size; i++) {
    out += `<text x="${i}" y="-0.75">${LETTERS[i]}</text><text x="${i}" y="${size - 0.25}">${LETTERS[i]}</text>`;
    out += `<text x="-0.8" y="${i}">${size - i}</text><text x="${size - 0.2}" y="${i}">${size - i}</text>`;
  }
  return `<g class="labels">${out}</g>`;
}

function stones(rows, size) {
  let out = "";
  rows.forEach((row, y) => [...row].forEach((c, x) => {
    if (c !== ".") out += `<circle class="stone ${c}" cx="${x}" cy="${y}" r="0.46" data-stone="${c}" data-at="${pointName([x, y], size)}"/>`;
  }));
  return out;
}

function marks(view) {
  const size = view.size;
  let out = "";
  for (const f of view.forbidden || []) {
    const [x, y] = pointOf(f.move, size);
    out += `<g class="forbidden" data-forbidden="${f.move}" data-reason="${f.reason}"><title>forbidden for black: ${f.reason}</title>` +
      `<path d="M${x - 0.22} ${y - 0.22}L${x + 0.22} ${y + 0.22}M${x + 0.22} ${y - 0.22}L${x - 0.22} ${y + 0.22}"/></g>`;
  }
  const last = pointOf(view.lastMove, size);
  if (last) out += `<circle class="last-move on-${view.board[last[1]][last[0]]}" cx="${last[0]}" cy="${last[1]}" r="0.16"/>`;
  if (view.winLine && view.winLine.length) {
    const [a, b] = [pointOf(view.winLine[0], size), pointOf(view.winLine[view.winLine.length - 1], size)];
    out += `<line class="win-line" x1="${a[0]}" y1="${a[1]}" x2="${b[0]}" y2="${b[1]}" data-win="${view.winLine.join(" ")}"/>`;
  }
  for (const [color, list] of Object.entries(view.threats || {})) {
    for (const t of list) {
      const [x, y] = pointOf(t.move, size);
      const dx = color === "b" ? -0.22 : 0.22;
      out += `<g class="threat ${color} ${t.kind}" data-threat="${color}:${t.move}:${t.kind}"><title>${color === "b" ? "black" : "white"}: ${t.kind}</title>` +
        `<rect x="${x + dx - 0.2}" y="${y - 0.42}" width="0.4" height="0.3" rx="0.06"/>` +
        `<text x="${x + dx}" y="${y - 0.27}">${THREAT_LABELS[t.kind]}</text></g>`;
    }
  }
  (view.pv || []).forEach((name, i) => {
    const p = pointOf(name, size);
    if (!p || view.board[p[1]][p[0]] !== ".") return;
    const color = (i % 2 === 0) === (view.pvFirst === "b") ? "b" : "w";
    out += `<g class="pv-stone ${color}${view.proven ? " proven" : ""}" data-pv="${i + 1}"><circle cx="${p[0]}" cy="${p[1]}" r="0.42"/>` +
      `<text x="${p[0]}" y="${p[1]}">${i + 1}</text></g>`;
  });
  const hl = pointOf(view.highlight, size);
  if (hl) out += `<circle class="highlight" cx="${hl[0]}" cy="${hl[1]}" r="0.5"/>`;
  return out;
}

function hitAreas(size, board) {
  let out = "";
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const ghost = board[y][x] === "." ? `<circle class="ghost" cx="${x}" cy="${y}" r="0.44"/>` : "";
      out += `<g class="hit" data-point="${pointName([x, y], size)}"><rect x="${x - 0.5}" y="${y - 0.5}" width="1" height="1"/>${ghost}</g>`;
    }
  }
  return `<g class="hits">${out}</g>`;
}

// view: {size, board: rows of ".bw", toMove, lastMove, forbidden: [{move, reason}],
//        winLine: [name], threats: {b: [{move, kind}], w: [...]}, pv: [name], pvFirst, proven,
//        highlight}
export function renderBoard(svg, view) {
  const size = view.size;
  svg.setAttribute("viewBox", `-1.3 -1.3 ${size + 1.6} ${size + 1.6}`);
  svg.dataset.size = size;
  svg.innerHTML = `<rect class="wood" x="-1.3" y="-1.3" width="${size + 1.6}" height="${size + 1.6}" rx="0.3"/>` +
    grid(size) + labels(size) + stones(view.board, size) + marks(view) + hitAreas(size, view.board);
  svg.dataset.turn = view.toMove || "none";
}

export function onPointClick(svg, handler) {
  svg.addEventListener("click", (event) => {
    const hit = event.target.closest("[data-point]");
    if (hit) handler(hit.dataset.point);
  });
}

export const emptyBoard = (size) => Array.from({ length: size }, () => ".".repeat(size));

// The Quoridor board: a pure view. Squares, walls, pawns and grooves in, an SVG out; clicks out
// as move names ("e2", "e3v"). No rules here: legal squares and refused walls (with their
// reasons) come from the server's position.
const COLUMNS = "abcdefghi";
const GAP = 0.18;                      // the groove between two squares
const HALF = (1 - GAP) / 2;

// Names <-> drawing coordinates only: a square's centre, a wall slot's corner.
function squareOf(name, size) {
  const x = COLUMNS.indexOf(name[0]);
  const row = Number(name.slice(1, name.length - (/[hv]$/.test(name) ? 1 : 0)));
  return [x, size - row];              // display row from the top
}
const isWall = (name) => /[hv]$/.test(name);

// The rectangle of a wall (slot x, y from a1; orientation o) in display coordinates.
function wallRect(name, size, thickness = GAP) {
  const [x, dy] = squareOf(name, size);  // dy: display row of the slot's a1-nearest square
  if (name.endsWith("h")) {
    // between rows y and y + 1: above the display row dy, along columns x and x + 1
    return { x: x - HALF, y: dy - 0.5 - thickness / 2, w: 2 - GAP, h: thickness };
  }
  // between columns x and x + 1, beside rows y and y + 1 (display rows dy and dy - 1)
  return { x: x + 0.5 - thickness / 2, y: dy - 1 - HALF, w: thickness, h: 2 - GAP };
}

const rect = (r, cls, extra = "") =>
  `<rect class="${cls}" x="${r.x.toFixed(3)}" y="${r.y.toFixed(3)}" width="${r.w.toFixed(3)}" height="${r.h.toFixed(3)}" ${extra}/>`;

function squares(view) {
  const n = view.size;
  const legal = new Set(view.pawnMoves || []);
  let out = "";
  for (let dy = 0; dy < n; dy++) {
    for (let x = 0; x < n; x++) {
      const name = `${COLUMNS[x]}${n - dy}`;
      const cls = `square${legal.has(name) ? " legal" : ""}`;
      out += `<rect class="${cls}" x="${x - HALF}" y="${dy - HALF}" width="${1 - GAP}" height="${1 - GAP}" rx="0.06" data-square="${name}"${legal.has(name) ? ' data-legal="1"' : ""}/>`;
    }
  }
  return out;
}

function labels(n) {
  let out = "";
  for (let i = 0; i < n; i++) {
    out += `<text x="${i}" y="${n - 0.05}">${COLUMNS[i]}</text><text x="-0.85" y="${i}">${n - i}</text>`;
  }
  return `<g class="labels">${out}</g>`;
}

function grooves(view) {
  // One target per wall slot and orientation, on the groove's first half-length (the last
  // slot of a groove also takes its far end), so each point of a groove names one wall.
  const n = view.size;
  let out = "";
  for (const o of ["h", "v"]) {
    for (let y = 0; y < n - 1; y++) {
      for (let x = 0; x < n - 1; x++) {
        const name = `${COLUMNS[x]}${y + 1}${o}`;
        const reason = view.wallsRefused || (view.illegalWalls || {})[name] || "";
        const dy = n - 1 - y;
        const far = (o === "h" ? x : y) === n - 2 ? 1 : 0;
        const t = 0.34;
        const hit = o === "h"
          ? { x: x - 0.5, y: dy - 0.5 - t / 2, w: 1 + far, h: t }
          : { x: x + 0.5 - t / 2, y: dy - 0.5 - far, w: t, h: 1 + far };
        const preview = wallRect(name, n);
        // The target itself carries the name, so a pointer at its centre is on this wall.
        const data = `data-wall="${name}" data-legal="${reason ? 0 : 1}"${reason ? ` data-reason="${reason}"` : ""}`;
        out += `<g class="groove ${reason ? "illegal" : "legal"}">` +
          `<title>${name}${reason ? `: ${reason}` : ""}</title>${rect(preview, "preview")}${rect(hit, "hit-area", data)}</g>`;
      }
    }
  }
  return `<g class="grooves">${out}</g>`;
}

function paths(view) {
  if (!view.paths) return "";
  return view.paths.map((path, p) => {
    const pts = [view.pawns[p], ...path].map((s) => squareOf(s, view.size));
    const d = pts.map(([x, y], i) => `${i ? "L" : "M"}${x + (p ? 0.08 : -0.08)} ${y + (p ? 0.08 : -0.08)}`).join("");
    return `<path class="path p${p}" d="${d}" data-path="${p}" data-length="${path.length}"/>`;
  }).join("");
}

function pv(view) {
  let out = "";
  (view.pv || []).forEach((name, i) => {
    if (isWall(name)) {
      const r = wallRect(name, view.size, GAP * 0.8);
      out += rect(r, "pv-wall", `data-pv="${i + 1}"`) +
        `<text class="pv-label" x="${r.x + r.w / 2}" y="${r.y + r.h / 2}">${i + 1}</text>`;
    } else {
      const [x, y] = squareOf(name, view.size);
      out += `<g class="pv-step" data-pv="${i + 1}"><circle cx="${x}" cy="${y}" r="0.2"/>` +
        `<text class="pv-label" x="${x}" y="${y}">${i + 1}</text></g>`;
    }
  });
  return out;
}

// view: {size, pawns: [name, name], walls: [name], lastMove, pawnMoves: [name],
//        illegalWalls: {name: reason}, wallsRefused, paths: [[name], [name]] | null, pv: [name],
//        highlight}
export function renderBoard(svg, view) {
  const n = view.size;
  svg.setAttribute("viewBox", `-1.3 -0.8 ${n + 1.1} ${n + 1.1}`);
  svg.dataset.size = n;
  const walls = (view.walls || []).map((w) =>
    rect(wallRect(w, n), `wall${w === view.lastMove ? " last" : ""}`, `data-placed="${w}"`)).join("");
  const pawns = (view.pawns || []).map((s, p) => {
    const [x, y] = squareOf(s, n);
    return `<circle class="pawn p${p}" cx="${x}" cy="${y}" r="0.32" data-pawn="${p}" data-at="${s}"/>`;
  }).join("");
  let hl = "";
  if (view.highlight) {
    hl = isWall(view.highlight) ? rect(wallRect(view.highlight, n, 0.3), "highlight")
      : (([x, y]) => `<circle class="highlight" cx="${x}" cy="${y}" r="0.42"/>`)(squareOf(view.highlight, n));
  }
  svg.innerHTML = `<rect class="wood" x="-1.3" y="-0.8" width="${n + 1.1}" height="${n + 1.1}" rx="0.3"/>` +
    squares(view) + labels(n) + walls + paths(view) + pawns + pv(view) + hl + grooves(view);
}

// A click on a highlighted square or on a groove leaves as that move's name; the server judges it.
export function onMoveClick(svg, handler) {
  svg.addEventListener("click", (event) => {
    const wall = event.target.closest("[data-wall]");
    if (wall) return handler(wall.dataset.wall);
    const square = event.target.closest("[data-square]");
    if (square) handler(square.dataset.square);
  });
}

// go_sgf.js - SGF FF[4] Go records for the in-page engine: the same text engines/go/sgf.py
// writes and the same main line (or the same refusal) it reads, so a static export downloads
// and uploads records with no server. A file format, not game rules: legality still comes from
// the core when the moves are replayed. tests/engines/wasm/test_go_local_api.py compares both
// on random games and on malformed files.

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

export class SgfError extends Error {}

const escapeText = (text) => text.replace(/\\/g, "\\\\").replace(/]/g, "\\]");

function formatPoint(point, size) {
  if (point === null) return "";
  const [x, y] = point;
  if (!(x >= 0 && x < size && y >= 0 && y < size)) throw new SgfError(`point (${x}, ${y}) is off a ${size}x${size} board`);
  return LETTERS[x] + LETTERS[y];
}

// Python's repr of a float, without a trailing ".0" (KM[7], KM[6.5]).
const formatReal = (value) => String(Number(value));

// RECORD: {size, komi, rules, result, moves: [[color, point|null], ...]} -> SGF text.
export function dumps({ size, komi, rules = "", black = "", white = "", result = "", comment = "", moves }) {
  if (!(size >= 1 && size <= LETTERS.length)) throw new SgfError(`board size ${size} cannot be written in SGF (1..52)`);
  const root = ["FF[4]GM[1]CA[UTF-8]AP[soloshop:1]", `SZ[${size}]KM[${formatReal(komi)}]`];
  for (const [key, value] of [["RU", rules], ["PB", black], ["PW", white], ["RE", result], ["GC", comment]]) {
    if (value) root.push(`${key}[${escapeText(value)}]`);
  }
  const lines = ["(;" + root.join("")];
  for (const [color, point] of moves) lines.push(`;${color.toUpperCase()}[${formatPoint(point, size)}]`);
  return lines.join("\n") + ")\n";
}

// ---- reading ---------------------------------------------------------------------------------

const isSpace = (ch) => /\s/.test(ch);
const isAlpha = (ch) => /\p{L}/u.test(ch);
const isUpper = (ch) => ch !== ch.toLowerCase() && ch === ch.toUpperCase();

function parseValue(text, i) {
  const out = [];
  while (i < text.length) {
    const ch = text[i];
    if (ch === "\\") {
      if (i + 1 >= text.length) break;
      const next = text[i + 1];
      if (next === "\r") { i += text[i + 2] === "\n" ? 3 : 2; continue; }  // soft line break
      if (next === "\n") { i += text[i + 2] === "\r" ? 3 : 2; continue; }
      out.push(next);
      i += 2;
    } else if (ch === "]") {
      return [out.join(""), i + 1];
    } else {
      out.push(ch);
      i += 1;
    }
  }
  throw new SgfError("unterminated property value (missing ']')");
}

// A GameTree from after '(': the main line's nodes (the first child of each variation).
function parseTree(text, i, depth = 0) {
  if (depth > 10000) throw new SgfError("variations nested too deeply");
  const nodes = [];
  let mainChildTaken = false;
  while (i < text.length) {
    const ch = text[i];
    if (isSpace(ch)) {
      i += 1;
    } else if (ch === ";") {
      if (mainChildTaken) throw new SgfError(`node after a variation at offset ${i}`);
      const node = new Map();
      i += 1;
      for (;;) {
        while (i < text.length && isSpace(text[i])) i += 1;
        const start = i;
        while (i < text.length && isAlpha(text[i])) i += 1;
        if (start === i) break;
        // FF[3] allowed lowercase letters inside identifiers ("AddBlack"); they are ignored.
        const ident = [...text.slice(start, i)].filter(isUpper).join("");
        const values = [];
        for (;;) {
          while (i < text.length && isSpace(text[i])) i += 1;
          if (text[i] !== "[") break;
          let value;
          [value, i] = parseValue(text, i + 1);
          values.push(value);
        }
        if (!values.length) throw new SgfError(`property ${ident || text.slice(start, i)} has no value at offset ${start}`);
        node.set(ident, [...(node.get(ident) || []), ...values]);
      }
      nodes.push(node);
    } else if (ch === "(") {
      const [child, after] = parseTree(text, i + 1, depth + 1);
      i = after;
      if (!mainChildTaken) {
        nodes.push(...child);
        mainChildTaken = true;
      }
    } else if (ch === ")") {
      if (!nodes.length) throw new SgfError(`empty game tree at offset ${i}`);
      return [nodes, i + 1];
    } else {
      throw new SgfError(`unexpected '${ch}' at offset ${i}`);
    }
  }
  throw new SgfError("unterminated game tree (missing ')')");
}

function parsePoint(value, size) {
  if (value === "" || (value === "tt" && size <= 19)) return null;
  if (value.length !== 2 || !LETTERS.includes(value[0]) || !LETTERS.includes(value[1])) {
    throw new SgfError(`'${value}' is not an SGF point`);
  }
  const x = LETTERS.indexOf(value[0]), y = LETTERS.indexOf(value[1]);
  if (x >= size || y >= size) throw new SgfError(`point '${value}' is off a ${size}x${size} board`);
  return [x, y];
}

function parsePoints(values, size) {
  const points = [];
  for (const value of values) {
    if (value.includes(":")) {
      const cut = value.indexOf(":");
      const [a, b] = [value.slice(0, cut), value.slice(cut + 1)].map((p) => parsePoint(p, size));
      if (a === null || b === null) throw new SgfError(`'${value}' is not a rectangle of points`);
      for (let y = Math.min(a[1], b[1]); y <= Math.max(a[1], b[1]); y++) {
        for (let x = Math.min(a[0], b[0]); x <= Math.max(a[0], b[0]); x++) points.push([x, y]);
      }
    } else {
      const point = parsePoint(value, size);
      if (point === null) throw new SgfError("a setup stone cannot be a pass");
      points.push(point);
    }
  }
  return points;
}

// Python's int() and float() of a property value, with the same refusal.
function number(value, name, integer) {
  const text = value.trim();
  const ok = integer ? /^[+-]?\d+$/.test(text.replace(/_/g, ""))
                     : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(inf|infinity|nan)$/i.test(text);
  if (!ok) throw new SgfError(`${name}[${value}] is not a number`);
  return integer ? parseInt(text.replace(/_/g, ""), 10) : Number(text.replace(/^([+-]?)inf(inity)?$/i, "$1Infinity"));
}

// The first game of an SGF collection: {size, komi, rules, result, setupBlack, setupWhite,
// moves: [[color, point|null], ...]}; throws SgfError naming what is wrong.
export function loads(text) {
  const start = text.indexOf("(");
  if (start < 0) throw new SgfError("no game tree found (SGF starts with '(;')");
  const [nodes] = parseTree(text, start + 1);
  const root = nodes[0];
  const first = (key, fallback = "") => (root.get(key) || [fallback])[0];
  if (first("GM", "1").trim() !== "1") throw new SgfError(`GM[${first("GM")}] is not a Go game (GM[1])`);
  let sizeText = first("SZ", "19");
  if (sizeText.includes(":")) {
    const [cols, rows] = [sizeText.slice(0, sizeText.indexOf(":")), sizeText.slice(sizeText.indexOf(":") + 1)];
    if (cols.trim() !== rows.trim()) throw new SgfError(`SZ[${sizeText}] is not a square board`);
    sizeText = cols;
  }
  const size = number(sizeText, "SZ", true);
  if (!(size >= 1 && size <= LETTERS.length)) throw new SgfError(`SZ[${size}] is outside 1..52`);
  const record = {
    size,
    komi: number(first("KM", "0"), "KM", false),
    rules: first("RU"),
    result: first("RE"),
    setupBlack: parsePoints(root.get("AB") || [], size),
    setupWhite: parsePoints(root.get("AW") || [], size),
    moves: [],
  };
  nodes.forEach((node, index) => {
    if (index && ["AB", "AW", "AE"].some((key) => node.has(key))) {
      throw new SgfError(`setup stones in node ${index} (only the root may hold AB/AW)`);
    }
    for (const key of ["B", "W"]) {
      for (const value of node.get(key) || []) record.moves.push([key.toLowerCase(), parsePoint(value, size)]);
    }
  });
  return record;
}

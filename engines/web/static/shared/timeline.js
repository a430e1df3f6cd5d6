// The game tree behind the timeline: every line ever played is kept as a branch. The current
// line is a path from the root; `cursor` is the ply shown. Moves are opaque names: the server
// judges them, this only remembers them.
function node(move, parent) {
  return { move, parent, children: [], last: 0 };
}

export class Timeline {
  constructor(moves = []) { this.reset(moves); }

  reset(moves = []) {
    this.root = node(null, null);
    this.line = [];
    this.follow(moves);
    this.cursor = this.line.length;
  }

  get length() { return this.line.length; }
  moves(upTo = this.line.length) { return this.line.slice(0, upTo).map((n) => n.move); }
  nodeAt(ply) { return ply === 0 ? this.root : this.line[ply - 1]; }
  seek(ply) { this.cursor = Math.max(0, Math.min(this.line.length, ply)); }

  // The current line becomes exactly `moves` (a record the server accepted): shared moves are
  // followed, new ones start a branch; the old continuation stays in the tree.
  follow(moves) {
    let at = this.root;
    this.line = [];
    for (const move of moves) {
      let i = at.children.findIndex((c) => c.move === move);
      if (i < 0) { at.children.push(node(move, at)); i = at.children.length - 1; }
      at.last = i;
      at = at.children[i];
      this.line.push(at);
    }
  }

  // The moves of the line through child `index` of the node at `ply`, continued along the
  // branch last visited there (what "switch to this variation" shows).
  variationLine(ply, index) {
    const moves = this.moves(ply);
    let at = this.nodeAt(ply).children[index];
    while (at) {
      moves.push(at.move);
      at = at.children[at.last];
    }
    return moves;
  }

  // The alternatives at `ply`: [{move, index, current}], more than one only at a branch point.
  variations(ply) {
    if (ply > this.line.length) return []; // a cursor from before a reset
    const here = this.nodeAt(ply);
    const next = this.line[ply];
    return here.children.map((c, index) => ({ move: c.move, index, current: c === next }));
  }

  // Plies of the current line where another branch leaves it.
  branchPoints() {
    const out = [];
    for (let ply = 0; ply <= this.line.length; ply++) {
      if (this.nodeAt(ply).children.length > 1) out.push(ply);
    }
    return out;
  }
}

// Replays Gomoku games and searches through the core's WebAssembly build, call by call (the
// raw gomoku.h API), for test_gomoku_parity.py to compare with the native core.
import { readFileSync } from "fs";
import { pathToFileURL } from "url";

const request = JSON.parse(readFileSync(process.argv[2]));
const { loadCore, hex64 } = await import(pathToFileURL(`${request.static}/engine/core.js`));
const core = await loadCore(readFileSync(`${request.wasm}/gomoku.wasm`),
                            JSON.parse(readFileSync(`${request.wasm}/gomoku.layout.json`)));
const f = core.fn, cells = core.alloc(4 * 400), kinds = core.alloc(4 * 400);
const list = (n, at = cells) => (n ? [].concat(core.read(at, "i32", n)) : []);
const listOf = (n) => list(n);
const threats = (b, color) => {
  const n = f.gm_board_threats(b, color, cells, kinds);
  return [list(n), list(n, kinds)];
};

const games = request.games.map(({ size, rule, moves, probes }) => {
  const b = f.gm_board_new(size, rule);
  const plies = moves.map(([x, y], i) => {
    const seen = { hash: hex64(f.gm_board_hash(b)), toMove: f.gm_board_to_move(b),
                   legal: listOf(f.gm_board_legal_moves(b, cells)),
                   forbidden: listOf(f.gm_board_forbidden_points(b, cells)),
                   threats1: threats(b, 1), threats2: threats(b, 2),
                   probe: f.gm_board_check(b, probes[i][0], probes[i][1]) };
    seen.played = x === -9 ? f.gm_board_undo(b) : f.gm_board_play(b, x, y);
    seen.result = f.gm_board_result(b);
    return seen;
  });
  const line = listOf(f.gm_board_win_line(b, cells));
  const end = { hash: hex64(f.gm_board_hash(b)), result: f.gm_board_result(b), line, plies };
  f.gm_board_free(b);
  return end;
});

const O = "gm_search_opts", R = "gm_search_result";
const searches = request.searches.map(({ size, rule, moves, nodes }) => {
  const b = f.gm_board_new(size, rule);
  for (const [x, y] of moves) f.gm_board_play(b, x, y);
  const s = f.gm_search_new(16);
  const opts = core.alloc(core.sizeof(O)), res = core.alloc(core.sizeof(R));
  core.set(O, opts, "nodes", nodes);
  const code = f.gm_search_run(s, b, opts, res);
  const get = (k) => core.get(R, res, k);
  const out = { code, move: get("move"), score: get("score"), depth: get("depth"), nodes: get("nodes"),
                pv: core.array(R, res, "pv", Math.max(1, get("pv_len"))).slice(0, get("pv_len")),
                cand: core.array(R, res, "cand", Math.max(1, get("ncand"))).slice(0, get("ncand")),
                proven: get("proven_win_in") };
  core.free(opts); core.free(res); f.gm_search_free(s); f.gm_board_free(b);
  return out;
});
console.log(JSON.stringify({ games, searches }));

// Replays Quoridor games and searches through the core's WebAssembly build, call by call (the
// raw quoridor.h API), for test_quoridor_parity.py to compare with the native core.
import { readFileSync } from "fs";
import { pathToFileURL } from "url";

const request = JSON.parse(readFileSync(process.argv[2]));
const { loadCore, hex64 } = await import(pathToFileURL(`${request.static}/engine/core.js`));
const core = await loadCore(readFileSync(`${request.wasm}/quoridor.wasm`),
                            JSON.parse(readFileSync(`${request.wasm}/quoridor.layout.json`)));
const f = core.fn, buf = core.alloc(4 * 1024);
const list = (n) => (n === 0 ? [] : n === 1 ? [core.read(buf, "i32", 1)] : core.read(buf, "i32", n));
const B = "qr_board";

const games = request.games.map(({ size, edge, moves, probes }) => {
  const g = f.qr_game_new(size, -1, edge);
  const plies = moves.map((move, i) => {
    const b = f.qr_game_board(g);
    const seen = { hash: hex64(core.get(B, b, "hash")), toMove: core.get(B, b, "to_move"),
                   legal: list(f.qr_board_legal_moves(b, buf)),
                   paths: [f.qr_board_path_length(b, 0), f.qr_board_path_length(b, 1)],
                   probe: f.qr_board_check(b, probes[i]) };
    seen.played = move === -9 ? f.qr_game_undo(g) : f.qr_game_play(g, move);
    seen.winner = f.qr_board_winner(f.qr_game_board(g));
    return seen;
  });
  const end = { hash: hex64(core.get(B, f.qr_game_board(g), "hash")), nmoves: f.qr_game_nmoves(g), plies };
  f.qr_game_free(g);
  return end;
});

const searches = request.searches.map(({ size, moves, kind, budget, seed }) => {
  const g = f.qr_game_new(size, -1, 0);
  for (const m of moves) f.qr_game_play(g, m);
  const b = f.qr_game_board(g);
  let out;
  if (kind === "alphabeta") {
    const s = f.qr_search_new(8), O = "qr_search_opts", R = "qr_search_result";
    const opts = core.alloc(core.sizeof(O)), res = core.alloc(core.sizeof(R));
    core.set(O, opts, "nodes", budget);
    const code = f.qr_search_run(s, b, opts, res);
    const get = (k) => core.get(R, res, k);
    out = { code, move: get("move"), score: get("score"), depth: get("depth"), nodes: get("nodes"),
            pv: core.array(R, res, "pv", 48).slice(0, get("pv_len")) };
    core.free(opts); core.free(res); f.qr_search_free(s);
  } else {
    const t = f.qr_mcts_new(16), O = "qr_mcts_opts", R = "qr_mcts_result";
    const opts = core.alloc(core.sizeof(O)), res = core.alloc(core.sizeof(R));
    core.set(O, opts, "playouts", budget);
    core.set(O, opts, "style", kind === "reference" ? 1 : 0);
    core.set(O, opts, "seed", BigInt(seed));
    const code = f.qr_mcts_run(t, b, opts, res);
    const get = (k) => core.get(R, res, k);
    out = { code, move: get("move"), winrate: get("winrate"), playouts: get("playouts"), nodes: get("nodes"),
            pv: core.array(R, res, "pv", 48).slice(0, get("pv_len")) };
    core.free(opts); core.free(res); f.qr_mcts_free(t);
  }
  f.qr_game_free(g);
  return out;
});
console.log(JSON.stringify({ games, searches }));

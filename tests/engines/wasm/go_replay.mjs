// Replays games and searches through the Go core's WebAssembly build and prints what it saw,
// for test_go_parity.py to compare with the native core, call for call.
import { readFileSync } from "fs";
import { pathToFileURL } from "url";

const request = JSON.parse(readFileSync(process.argv[2]));
const { loadCore } = await import(pathToFileURL(`${request.static}/engine/core.js`));
const { GoGame, GoSearch } = await import(pathToFileURL(`${request.static}/engine/go_core.js`));
const core = await loadCore(readFileSync(`${request.wasm}/go.wasm`),
                            JSON.parse(readFileSync(`${request.wasm}/go.layout.json`)));

function legalMask(game, color) {
  const mask = new Array(game.size * game.size).fill("0");
  for (const [x, y] of game.legal(color)) mask[y * game.size + x] = "1";
  return mask.join("");
}

const games = request.games.map(({ size, komi, superko, moves, probes }) => {
  const game = new GoGame(core, size, komi, superko);
  const plies = [];
  moves.forEach(([color, x, y], i) => {
    const [px, py] = probes[i];
    const seen = { hash: game.hash(), toMove: game.toMove(), legal: legalMask(game, color),
                   probe: game.check(color, px, py) };
    if (x === -9) seen.undo = game.undo();  // -9: take back the last move
    else seen.captured = game.play(color, x, y).length;
    seen.captures = [game.captures(1), game.captures(2)];
    plies.push(seen);
  });
  const n = game.size * game.size + 1, policy = core.alloc(4 * n);
  const end = { hash: game.hash(), board: game.board(), score: game.trompTaylor(),
                value: core.fn.go_game_value(game.ptr, 0),
                policy_value: core.fn.go_game_value_policy(game.ptr, 0, policy),
                policy: core.read(policy, "f32", n), plies };
  core.free(policy);
  game.free();
  return end;
});

const searches = request.searches.map(({ size, komi, moves, color, seed, playouts, value }) => {
  const game = new GoGame(core, size, komi, true);
  for (const [c, x, y] of moves) game.play(c, x, y);
  const search = new GoSearch(core, seed);
  const r = search.run(game, color, { playouts, value });
  search.free();
  game.free();
  return { move: r.move, winrate: r.winrate, playouts: r.playouts, valued: r.valued,
           candidates: r.candidates.map((c) => [c.x, c.y, c.visits]), pv: r.pv };
});

console.log(JSON.stringify({ games, searches }));

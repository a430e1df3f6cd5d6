// Go search speed of the WebAssembly build in Node: N searches of P playouts from the 9x9
// opening and a middle-game position, one thread (with the learned network when the last
// argument is 1); prints JSON. Driven by bench/wasm_bench.py.
import { readFileSync } from "fs";
import { pathToFileURL } from "url";

const [wasmDir, staticDir, playouts, rounds] = process.argv.slice(2);
const { loadCore } = await import(pathToFileURL(`${staticDir}/engine/core.js`));
const { GoGame, GoSearch } = await import(pathToFileURL(`${staticDir}/engine/go_core.js`));
const t0 = performance.now();
const core = await loadCore(readFileSync(`${wasmDir}/go.wasm`),
                            JSON.parse(readFileSync(`${wasmDir}/go.layout.json`)));
const loadMs = performance.now() - t0;
const MIDDLE = JSON.parse(process.argv[6]);
const value = process.argv[7] === "1";
const out = { loadMs, runs: [] };
for (let r = 0; r < Number(rounds); r++) {
  for (const [name, moves] of [["opening", []], ["middle", MIDDLE]]) {
    const game = new GoGame(core, 9, 7);
    for (const [c, x, y] of moves) game.play(c, x, y);
    const search = new GoSearch(core, 1 + r);
    const t = performance.now();
    const res = search.run(game, game.toMove(), { playouts: Number(playouts), reuse: false, value });
    out.runs.push({ position: name, playouts: res.playouts, seconds: (performance.now() - t) / 1000 });
    search.free();
    game.free();
  }
}
console.log(JSON.stringify(out));

// Quoridor search speed of the WebAssembly build in Node: the in-page API
// (engine/quoridor_local.js) answers analyze requests; prints JSON. Driven by
// bench/wasm_quoridor_bench.py.
import { readFileSync } from "fs";
import { pathToFileURL } from "url";

const [wasmDir, staticDir, bodies] = process.argv.slice(2);
const { loadCore } = await import(pathToFileURL(`${staticDir}/engine/core.js`));
const { makeLocalApi } = await import(pathToFileURL(`${staticDir}/engine/quoridor_local.js`));
const t0 = performance.now();
const core = await loadCore(readFileSync(`${wasmDir}/quoridor.wasm`),
                            JSON.parse(readFileSync(`${wasmDir}/quoridor.layout.json`)));
const loadMs = performance.now() - t0;
const api = makeLocalApi(core);
const answers = JSON.parse(readFileSync(bodies)).map((body) => api.analyze(body));
console.log(JSON.stringify({ loadMs, answers }));

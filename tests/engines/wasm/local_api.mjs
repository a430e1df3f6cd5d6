// Answers API requests with a game's in-page API (engines/web/static/engine/GAME_local.js) over
// its WebAssembly core, for test_GAME_local_api.py to compare with the server's answers.
import { readFileSync } from "fs";
import { pathToFileURL } from "url";

const request = JSON.parse(readFileSync(process.argv[2]));
const game = request.game;
const { loadCore } = await import(pathToFileURL(`${request.static}/engine/core.js`));
const { makeLocalApi, makeLocalStreams, LocalApiError } = await import(pathToFileURL(`${request.static}/engine/${game}_local.js`));
const core = await loadCore(readFileSync(`${request.wasm}/${game}.wasm`),
                            JSON.parse(readFileSync(`${request.wasm}/${game}.layout.json`)));
const api = makeLocalApi(core), streams = makeLocalStreams ? makeLocalStreams(core) : {};

// A streamed call ({stream: true}) answers the list of its steps' documents, as the server's
// NDJSON lines.
const answers = request.calls.map(({ endpoint, body, stream }) => {
  try {
    return { status: 200, body: stream ? [...streams[endpoint](body)] : api[endpoint](body) };
  } catch (error) {
    if (error instanceof LocalApiError) return { status: error.status, body: error.body };
    throw error;
  }
});
console.log(JSON.stringify({ answers }));

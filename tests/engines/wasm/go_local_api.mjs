// Answers API requests with the in-page Go API (engines/web/static/engine/go_local.js) over the
// WebAssembly core, for test_go_local_api.py to compare with the server's answers.
import { readFileSync } from "fs";
import { pathToFileURL } from "url";

const request = JSON.parse(readFileSync(process.argv[2]));
const { loadCore } = await import(pathToFileURL(`${request.static}/engine/core.js`));
const { makeLocalApi, makeLocalStreams, LocalApiError } = await import(pathToFileURL(`${request.static}/engine/go_local.js`));
const core = await loadCore(readFileSync(`${request.wasm}/go.wasm`),
                            JSON.parse(readFileSync(`${request.wasm}/go.layout.json`)));
const api = makeLocalApi(core), streams = makeLocalStreams(core);

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

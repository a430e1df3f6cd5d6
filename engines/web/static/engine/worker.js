// worker.js - a game's in-page engine in a Web Worker, so the page never freezes while it
// searches. Started as `new Worker(".../engine/worker.js?game=go", { type: "module" })`; the
// page posts {id, endpoint, body} and gets {id, status, body} back: the same documents, status
// codes and errors as the server's /api/GAME/ENDPOINT. With `stream: true` (the server's
// /api/GAME/ENDPOINT/stream) every step's document comes first as {id, status, body,
// partial: true}, then {id, status, body: null} ends it; {stop: id} ends a stream after the
// step it is in. The module and its layout are fetched from ../wasm/ beside this file, so
// the worker works under any sub-path and from a static export.
import { loadCore } from "./core.js";

// game -> its in-page API module
const GAMES = { go: "./go_local.js", gomoku: "./gomoku_local.js", quoridor: "./quoridor_local.js" };
const game = new URL(self.location.href).searchParams.get("game");

async function start() {
  if (!GAMES[game]) throw new Error(`no in-page engine for ${game}`);
  const base = new URL("../wasm/", self.location.href);
  const layout = await (await fetch(new URL(`${game}.layout.json`, base))).json();
  const core = await loadCore(new URL(`${game}.wasm`, base).href, layout);
  const module = await import(GAMES[game]);
  return { api: module.makeLocalApi(core), LocalApiError: module.LocalApiError,
           streams: module.makeLocalStreams ? module.makeLocalStreams(core) : {} };
}

const ready = start();
ready.then(() => self.postMessage({ ready: true, game }),
           (error) => self.postMessage({ ready: false, error: String(error.message || error) }));

const stopped = new Set();
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// Each step of a stream is a task of its own, so messages (a stop, another request) are
// handled between steps.
async function stream(id, steps) {
  for (let step = steps.next(); !step.done; step = steps.next()) {
    self.postMessage({ id, status: 200, body: step.value, partial: true });
    await nextTask();
    if (stopped.delete(id)) {
      steps.return();
      break;
    }
  }
  stopped.delete(id);  // a stop that came after the last step
  self.postMessage({ id, status: 200, body: null });
}

self.onmessage = async ({ data }) => {
  if ("stop" in data) return void stopped.add(data.stop);
  const { id, endpoint, body } = data;
  try {
    const { api, LocalApiError, streams } = await ready;
    const table = data.stream ? streams : api;
    if (!Object.hasOwn(table, endpoint)) {
      const what = data.stream ? `${endpoint}/stream` : endpoint;
      self.postMessage({ id, status: 404, body: { error: `the in-page ${game} engine has no ${what}` } });
      return;
    }
    try {
      if (data.stream) await stream(id, table[endpoint](body));
      else self.postMessage({ id, status: 200, body: table[endpoint](body) });
    } catch (error) {
      if (!(error instanceof LocalApiError)) throw error;
      self.postMessage({ id, status: error.status, body: error.body });
    }
  } catch (error) {
    self.postMessage({ id, status: 500, body: { error: `in-page engine: ${error.message || error}` } });
  }
};

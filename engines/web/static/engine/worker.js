// worker.js - a game's in-page engine in a Web Worker, so the page never freezes while it
// searches. Started as `new Worker(".../engine/worker.js?game=go", { type: "module" })`; the
// page posts {id, endpoint, body} and gets {id, status, body} back: the same documents, status
// codes and errors as the server's /api/GAME/ENDPOINT. The module and its layout are fetched
// from ../wasm/ beside this file, so the worker works under any sub-path and from a static
// export.
import { loadCore } from "./core.js";

const GAMES = { go: "./go_local.js", gomoku: "./gomoku_local.js" };  // game -> its in-page API module
const game = new URL(self.location.href).searchParams.get("game");

async function start() {
  if (!GAMES[game]) throw new Error(`no in-page engine for ${game}`);
  const base = new URL("../wasm/", self.location.href);
  const layout = await (await fetch(new URL(`${game}.layout.json`, base))).json();
  const core = await loadCore(new URL(`${game}.wasm`, base).href, layout);
  const module = await import(GAMES[game]);
  return { api: module.makeLocalApi(core), LocalApiError: module.LocalApiError };
}

const ready = start();
ready.then(() => self.postMessage({ ready: true, game }),
           (error) => self.postMessage({ ready: false, error: String(error.message || error) }));

self.onmessage = async ({ data: { id, endpoint, body } }) => {
  try {
    const { api, LocalApiError } = await ready;
    if (!api[endpoint]) {
      self.postMessage({ id, status: 404, body: { error: `the in-page ${game} engine has no ${endpoint}` } });
      return;
    }
    try {
      self.postMessage({ id, status: 200, body: api[endpoint](body) });
    } catch (error) {
      if (!(error instanceof LocalApiError)) throw error;
      self.postMessage({ id, status: error.status, body: error.body });
    }
  } catch (error) {
    self.postMessage({ id, status: 500, body: { error: `in-page engine: ${error.message || error}` } });
  }
};

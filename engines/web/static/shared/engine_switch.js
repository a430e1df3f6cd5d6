// engine_switch.js - where a game page's engine runs: on the server (its /api/GAME/*) or in the
// page (the game's C core compiled to WebAssembly, in a Web Worker: ../engine/worker.js). Both
// answer the same requests with the same documents, so the controller never knows which one it
// talks to; the board stays a pure view either way.
import { ApiError } from "./api.js";

// The in-page engine of GAME: call(endpoint, body, signal, onLine) -> the document, or throws
// ApiError.
export function inPageEngine(game) {
  // Started with the page, so the engine (scripts and module) is loaded before the server
  // could go away: the page plays on without it.
  const worker = new Worker(new URL(`../engine/worker.js?game=${game}`, import.meta.url), { type: "module" });
  const waiting = new Map();
  let next = 0;
  const ready = new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      if ("ready" in data) return data.ready ? resolve() : reject(new Error(data.error));
      const pending = waiting.get(data.id);
      if (!pending) return;
      if (data.partial) return void pending.onLine(data.body);
      waiting.delete(data.id);
      pending.done(data);
    };
    worker.onerror = (event) => reject(new Error(`the in-page engine failed to start: ${event.message || "no WebAssembly build (make wasm)"}`));
  });
  ready.catch(() => {});  // reported by the first call
  // ONLINE given: the streamed endpoint (the server's ENDPOINT/stream), each step's document
  // passed to onLine as it comes. Aborting a stream stops the search after its current step;
  // an aborted plain call (a search runs to its budget, at most the server's 1 s cap) just
  // drops its answer.
  async function call(endpoint, body, signal, onLine) {
    await ready;
    const id = ++next;
    const answer = await new Promise((resolve, reject) => {
      waiting.set(id, { done: resolve, onLine });
      worker.postMessage({ id, endpoint, body, stream: Boolean(onLine) });
      if (signal) signal.addEventListener("abort", () => {
        waiting.delete(id);
        if (onLine) worker.postMessage({ stop: id });
        reject(new DOMException("aborted", "AbortError"));
      }, { once: true });
    });
    if (answer.status !== 200) throw new ApiError(answer.status, answer.body);
    return answer.body;
  }
  return { call };
}

// The in-page engine of an alpha-beta game (Gomoku, Quoridor) with the calls of
// api.js's makeGameApi, endpoint for endpoint (its records' too).
export function inPageGameApi(game) {
  const local = inPageEngine(game);
  return {
    call: (name, body, signal) => local.call(name, body, signal),
    state: (g, signal) => local.call("state", { game: g }, signal),
    play: (g, move, signal) => local.call("play", { game: g, move }, signal),
    genmove: (g, budget, signal) => local.call("genmove", { game: g, budget }, signal),
    analyze: (g, budget, signal) => local.call("analyze", { game: g, budget }, signal),
    exportRecord: (g) => local.call("recordExport", { game: g }),
    importRecord: (text) => local.call("recordImport", { text }),
  };
}

// A fetch that never reached the server (down, offline) rather than an answer it refused.
export const unreachable = (error) => error instanceof TypeError;

// The page's engine control (#engine-where) and the server-down banner (#engine-offline):
// returns where() ("server" or "page") and a wrapper that reports an unreachable server.
export function engineSwitch(root) {
  const select = document.getElementById("engine-where");
  const banner = document.getElementById("engine-offline");
  const only = root.dataset.engineOnly;  // a static export has no server: "page"
  if (only && select) {
    select.value = only;
    select.disabled = true;
  }
  const where = () => only || (select ? select.value : "server");
  function offline() {
    if (banner) banner.hidden = false;
  }
  if (banner) {
    banner.querySelector("button").addEventListener("click", () => {
      select.value = "page";
      banner.hidden = true;
      select.dispatchEvent(new Event("change"));
    });
  }
  if (select) select.addEventListener("change", () => { if (banner) banner.hidden = true; root.dataset.engine = where(); });
  root.dataset.engine = where();
  // Wraps a server call so that an unreachable server shows the banner (and still fails).
  const guarded = (fn) => async (...args) => {
    try {
      return await fn(...args);
    } catch (error) {
      if (unreachable(error)) {
        offline();
        throw new Error("The server is unreachable; switch the engine to \u201cin this page\u201d to play on.");
      }
      throw error;
    }
  };
  return { where, guarded };
}

// The page's API: each call goes to the in-page engine or to the server, as the switch says.
export function routeCalls(server, inPage, engine) {
  const api = {};
  for (const name of Object.keys(server)) {
    const guarded = engine.guarded(server[name]);
    api[name] = (...args) => (engine.where() === "page" ? inPage[name] : guarded)(...args);
  }
  return api;
}

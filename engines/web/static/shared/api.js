// A game's JSON API. Every URL comes from a data attribute rendered with url_for (data-url-NAME),
// so a page works under any proxy prefix; nothing here builds an absolute path.
export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

async function send(url, body, signal) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    let data = null;
    try { data = await response.json(); } catch (_) { data = null; }
    throw new ApiError(response.status, data);
  }
  return response;
}

export async function post(url, body, signal) {
  return (await send(url, body, signal)).json();
}

// A streamed answer: one JSON document per line, handed to onLine as each arrives.
export async function postStream(url, body, signal, onLine) {
  const response = await send(url, body, signal);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += value;
    const lines = pending.split("\n");
    pending = lines.pop();
    for (const line of lines) if (line.trim()) onLine(JSON.parse(line));
  }
}

// The URL of endpoint `name` ("recordExport" reads data-url-record-export).
export function endpoint(dataset, name) {
  const key = `url${name[0].toUpperCase()}${name.slice(1)}`;
  if (!dataset[key]) throw new Error(`the page has no data-url for ${name}`);
  return dataset[key];
}

// The calls every alpha-beta game page makes (Gomoku, Quoridor): record in, documents out.
export function makeGameApi(dataset) {
  const call = (name, body, signal) => post(endpoint(dataset, name), body, signal);
  return {
    call,
    state: (game, signal) => call("state", { game }, signal),
    play: (game, move, signal) => call("play", { game, move }, signal),
    genmove: (game, budget, signal) => call("genmove", { game, budget }, signal),
    analyze: (game, budget, signal) => call("analyze", { game, budget }, signal),
    exportRecord: (game) => call("recordExport", { game }),
    importRecord: (text) => call("recordImport", { text }),
  };
}

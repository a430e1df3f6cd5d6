// The Go JSON API. Every URL comes from data attributes rendered with url_for, so the page works
// under any proxy prefix; nothing here builds an absolute path.
export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

async function post(url, body, signal) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  let data = null;
  try { data = await response.json(); } catch (_) { data = null; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// A streamed answer: one JSON document per line, handed to onLine as each arrives.
async function postStream(url, body, signal, onLine) {
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

export function makeApi(dataset) {
  return {
    state: (game, signal) => post(dataset.urlState, { game }, signal),
    play: (game, move, signal) => post(dataset.urlPlay, { game, move }, signal),
    genmove: (game, budget, signal) => post(dataset.urlGenmove, { game, budget }, signal),
    analyze: (game, budget, signal) => post(dataset.urlAnalyze, { game, budget }, signal),
    analyzeStream: (game, budget, signal, onLine) =>
      postStream(dataset.urlAnalyzeStream, { game, budget }, signal, onLine),
    sgfExport: (game) => post(dataset.urlSgfExport, { game }),
    sgfImport: (sgf) => post(dataset.urlSgfImport, { sgf }),
  };
}

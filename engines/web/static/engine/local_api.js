// local_api.js - what every in-page API module (GAME_local.js) shares: the refusal the
// worker turns into a status and an error document (as the server's ApiError), and the
// alpha-beta games' search budget (engines/web/search_budget.py).

// An answer the API refuses, as the server's ApiError: status and the JSON document.
export class LocalApiError extends Error {
  constructor(status, message, field, extra = {}) {
    super(message);
    this.status = status;
    this.body = { error: message, ...(field ? { field } : {}), ...extra };
  }
}
export const refuse = (message, field, extra) => new LocalApiError(400, message, field, extra);

// A number as Python's str() writes it where the server puts one in a message: a float that
// is whole keeps its ".0" (the caps are floats; a request's numbers are what JSON gave).
export const pyFloat = (value) => (Number.isInteger(value) ? value.toFixed(1) : String(value));

// search_budget.parse_search_budget: the requested budget within the caps; CONFIG holds
// MAX_SECONDS, MAX_NODES and DEFAULT_SECONDS.
export function parseSearchBudget(raw, config, maxDepth) {
  raw = raw || {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw refuse("budget: an object is required", "budget");
  const caps = { seconds: [config.MAX_SECONDS, pyFloat], nodes: [config.MAX_NODES, String],
                 depth: [maxDepth, String] };
  for (const [name, [cap, show]] of Object.entries(caps)) {
    const value = raw[name];
    if (value === undefined || value === null) continue;
    const integer = name !== "seconds";
    if (typeof value !== "number" || (integer ? !Number.isInteger(value) || value < 1 : !(value > 0))) {
      throw refuse(`budget.${name}: ${JSON.stringify(value)} is not ${integer ? "an integer from 1" : "a number above 0"}`,
                   `budget.${name}`);
    }
    if (value > cap) throw refuse(`budget.${name}: ${value} is above the server's cap of ${show(cap)}`, `budget.${name}`);
  }
  const nodes = raw.nodes ?? null, depth = raw.depth ?? null;
  let seconds = raw.seconds ?? null;
  if (seconds === null) seconds = nodes || depth ? config.MAX_SECONDS : config.DEFAULT_SECONDS;
  return { seconds, nodes, depth };
}

// search_budget.win_share: a score (side to move's view) as an expected share 0..1.
export const winShare = (score, scale) => 1 / (1 + Math.exp(-Math.max(-50, Math.min(50, score / scale))));

// Python's round(value, digits) for the documents' rounded numbers.
export const round = (value, digits) => Number(value.toFixed(digits));

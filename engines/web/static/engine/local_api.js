// local_api.js - what the games' in-page APIs (GAME_local.js) share: a refused request as the
// server's ApiError answers it, a status and the JSON document ({error, field, ...extra}).
export class LocalApiError extends Error {
  constructor(status, message, field, extra = {}) {
    super(message);
    this.status = status;
    this.body = { error: message, ...(field ? { field } : {}), ...extra };
  }
}

// A request the API refuses as malformed or out of bounds (HTTP 400).
export const refuse = (message, field, extra) => new LocalApiError(400, message, field, extra);

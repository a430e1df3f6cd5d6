// The Go JSON API on the shared client (../shared/api.js): every URL comes from data attributes
// rendered with url_for, so the page works under any proxy prefix.
import { ApiError, post, postStream } from "../shared/api.js";

export { ApiError };

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

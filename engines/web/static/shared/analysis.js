// The analysis panel shared by the alpha-beta games: an evaluation bar, a candidate table and
// the PV line. Pure views of what the server answered.
const $ = (id) => document.getElementById(id);

// share: the first side's expected share 0..1 (null: no analysis); text: the label.
export function renderEval(share, text) {
  $("eval-bar").style.width = `${(100 * (share === null ? 0.5 : share)).toFixed(1)}%`;
  $("eval-text").textContent = text;
}

// rows: [{move, score}] best first; the table's rows carry data-move for hover and click.
export function renderCandidates(rows, limit = 8) {
  const best = rows.length ? rows[0].score : 0;
  $("candidates").innerHTML = rows.slice(0, limit).map((c, i) => `
    <tr data-move="${c.move}"><td>${i + 1}</td><td>${c.move}</td><td>${c.score}</td>
      <td>${i === 0 ? "best" : c.score === best ? "=" : `${c.score - best}`}</td></tr>`).join("");
}

export function renderPv(text) {
  $("pv").textContent = text;
}

export function clearAnalysis(hint = "Analysis: press a") {
  renderEval(null, hint);
  renderCandidates([]);
  renderPv("");
}

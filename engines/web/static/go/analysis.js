// The analysis panel: a pure view of one analysis answer (win-rate bar, candidates, PV).
const $ = (id) => document.getElementById(id);
const pct = (v) => `${(100 * v).toFixed(1)}%`;

export function renderAnalysis(a) {
  // The engine reports the win rate for the side to move; the bar always shows Black's share.
  const black = a.color === "b" ? a.winrate : 1 - a.winrate;
  $("winrate-bar").style.width = pct(black);
  $("winrate-text").textContent =
    `Black ${pct(black)} · White ${pct(1 - black)} · ${a.playouts} playouts · ${Math.round(a.elapsed_ms)} ms` +
    (a.step && a.step < a.steps ? (a.stopped ? " · stopped" : " · searching…") : "");
  // Visits as a share of the search and priors share one scale: search against intuition.
  const total = a.candidates.reduce((s, c) => s + c.visits, 0) || 1;
  $("candidates").innerHTML = a.candidates.slice(0, 6).map((c, i) => `
    <tr data-move="${c.move}"><td>${i + 1}</td><td>${c.move}</td>
      <td><span class="bar visits" style="width:${(80 * c.visits / total).toFixed(1)}px"></span>${c.visits}</td>
      <td><span class="bar prior" style="width:${(80 * c.prior).toFixed(1)}px"></span>${pct(c.prior)}</td>
      <td>${pct(c.winrate)}</td></tr>`).join("");
  $("pv").textContent = a.pv.length ? `PV: ${a.pv.join(" ")}` : "";
}

export function clearAnalysis() {
  $("winrate-bar").style.width = "50%";
  $("winrate-text").textContent = "Analysis: press a";
  $("candidates").innerHTML = "";
  $("pv").textContent = "";
}

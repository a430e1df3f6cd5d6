// The branch list under a timeline: the variations at the shown move (a branch point) and the
// other branch points of the current line, as buttons. A pure view of a Timeline.
export function renderBranches(el, tree, cursor, empty = "") {
  const here = tree.variations(cursor);
  const points = tree.branchPoints().filter((p) => p !== cursor);
  const buttons = here.length > 1 ? here.map((v) =>
    `<button type="button" class="variation${v.current ? " current" : ""}" data-variation="${v.index}">${v.move}</button>`).join("") : "";
  const jumps = points.map((p) => `<button type="button" class="branch-point" data-branch-ply="${p}">move ${p}</button>`).join("");
  el.innerHTML = (buttons ? `<span>Variations here:</span> ${buttons}` : empty) +
    (jumps ? ` <span>Branches at:</span> ${jumps}` : "");
  return tree.branchPoints().length;
}

// Clicks leave as onVariation(index) (switch the line) or onSeek(ply) (show a branch point).
export function onBranchClick(el, onVariation, onSeek) {
  el.addEventListener("click", (e) => {
    const v = e.target.closest("[data-variation]");
    if (v) return onVariation(Number(v.dataset.variation));
    const p = e.target.closest("[data-branch-ply]");
    if (p) onSeek(Number(p.dataset.branchPly));
  });
}

// pm web UI: drag a board card to another status column. The drop posts the same form the
// task page's status form posts (CSRF token, the card's version, the column it came from);
// the server refuses a stale card with what changed, and this script only shows the answer.
(function () {
  "use strict";
  const board = document.querySelector(".board");
  const token = document.querySelector('meta[name="pm-csrf"]');
  if (!board || !token) return;
  const message = document.getElementById("board-message");
  const statuses = new Set(["open", "in-progress", "review", "done", "wontfix"]);
  let dragged = null;

  function say(text, failed) {
    if (!message) return;
    message.textContent = text;
    message.hidden = false;
    message.classList.toggle("refused", Boolean(failed));
  }

  board.addEventListener("dragstart", (event) => {
    dragged = event.target.closest(".card[data-version]");
    if (!dragged) return;
    event.dataTransfer.setData("text/plain", dragged.dataset.task);
    event.dataTransfer.effectAllowed = "move";
  });

  for (const column of board.querySelectorAll(".column[data-status]")) {
    if (!statuses.has(column.dataset.status)) continue; // "blocked" is not a status
    column.addEventListener("dragover", (event) => {
      if (dragged) { event.preventDefault(); column.classList.add("drop-target"); }
    });
    column.addEventListener("dragleave", () => column.classList.remove("drop-target"));
    column.addEventListener("drop", (event) => {
      event.preventDefault();
      column.classList.remove("drop-target");
      if (dragged && dragged.dataset.status !== column.dataset.status) move(dragged, column);
      dragged = null;
    });
  }

  async function move(card, column) {
    const form = new FormData();
    form.set("csrf", token.content);
    form.set("version", card.dataset.version);
    form.set("from", card.dataset.status);
    form.set("status", column.dataset.status);
    let answer;
    try {
      const response = await fetch(card.dataset.action, {
        method: "POST", body: form, credentials: "same-origin",
        headers: { "Accept": "application/json" },
      });
      answer = response.headers.get("Content-Type", "").includes("json")
        ? await response.json() : { ok: false, error: response.status + " " + response.statusText };
    } catch (error) {
      answer = { ok: false, error: String(error) };
    }
    if (!answer.ok) {
      const changes = (answer.changes || []).join("; ");
      say("Not moved: " + answer.error + (changes && !answer.error.includes(changes) ? " (" + changes + ")" : ""), true);
      return;
    }
    card.dataset.version = answer.version;
    card.dataset.status = answer.status;
    const empty = column.querySelector(".empty");
    if (empty) empty.remove();
    column.insertBefore(card, column.querySelector(".more"));
    say(answer.message, false);
  }
})();

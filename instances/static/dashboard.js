// The dashboard's view: fetch api/overview, draw it, again every supervisor interval.
// Everything from the server goes in as text (textContent), never as HTML.
"use strict";

const api = document.body.dataset.api;
const every = Math.max(1, Number(document.body.dataset.every) || 2) * 1000;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function bytes(n) {
  if (n === null || n === undefined) return "-";
  const units = ["B", "KiB", "MiB", "GiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return i === 0 ? `${n} B` : `${n.toFixed(1)} ${units[i]}`;
}

function age(seconds) {
  if (seconds === null || seconds === undefined) return "-";
  const s = Math.floor(seconds);
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor(s % 3600 / 60)).padStart(2, "0")}m`
                   : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

function bar(value, total, label) {
  const fraction = total ? Math.min(1, (value || 0) / total) : 0;
  const fill = el("span", {class: "fill"});
  fill.style.width = `${(fraction * 100).toFixed(1)}%`;
  return el("div", {class: "bar", role: "meter", "aria-valuenow": value || 0, "aria-valuemax": total || 0,
                    "aria-label": label}, fill);
}

function summary(data) {
  const box = document.getElementById("summary");
  const parts = [];
  if (data.budget) {
    parts.push(bar(data.used, data.budget, "memory in use"),
               el("p", {id: "budget"}, `${bytes(data.used)} of ${bytes(data.budget)} in use; ` +
                  `${data.more_fit} more fit at about ${bytes(data.estimate)} each`));
  } else {
    parts.push(el("p", {id: "budget"}, `${bytes(data.used)} in use; no memory_budget set`));
  }
  parts.push(el("p", {id: "supervisor"}, data.supervisor
    ? `supervisor: pid ${data.supervisor.pid}, every ${data.supervisor.interval} s`
    : "supervisor: not running (instances doctor starts it)"));
  box.replaceChildren(...parts);
}

function card(it, data) {
  const total = data.budget || data.memory_limit;
  const task = it.task === null ? "no task" :
    `task ${it.task}${it.title ? ": " + it.title : ""}${it.task_status ? " (" + it.task_status + ")" : ""}`;
  const facts = el("dl", {},
    el("dt", {}, "branch"), el("dd", {class: "branch"}, it.branch),
    el("dt", {}, "uptime"), el("dd", {class: "uptime"}, age(it.uptime_seconds)),
    el("dt", {}, "memory"), el("dd", {class: "memory"}, bytes(it.memory_bytes) +
      (it.over_memory_limit ? " (over memory_limit)" : "")),
    el("dt", {}, "ahead"), el("dd", {class: "ahead"}, it.ahead === null ? "-" : `${it.ahead} commit(s)`),
    el("dt", {}, "last request"), el("dd", {class: "last-request"}, it.last_request || "none yet"));
  const node = el("article", {class: `instance ${it.state}`, "data-name": it.name},
    el("h2", {}, el("a", {class: "review", href: it.review_path}, it.name), " ",
       el("span", {class: "state"}, it.state)),
    el("p", {class: "task"}, task), facts,
    bar(it.memory_bytes, total, `memory of ${it.name}`));
  if (it.commits.length) {
    node.append(el("ul", {class: "commits"}, ...it.commits.map(c =>
      el("li", {}, el("code", {}, c.sha), ` ${c.subject} (${c.author}, ${c.date})`))));
  }
  if (it.last_action) {
    node.append(el("p", {class: "action"}, `${it.last_action.by} at ${it.last_action.at}: ${it.last_action.text}`));
  }
  for (const video of it.videos) {
    node.append(el("figure", {class: "video"}, el("video", {src: video.url, controls: "", preload: "metadata"}),
                   el("figcaption", {}, video.file)));
  }
  node.append(el("details", {}, el("summary", {}, "log"), el("pre", {class: "log"}, it.log_tail || "(empty)")));
  return node;
}

function draw(data) {
  summary(data);
  const list = document.getElementById("instances");
  const open = new Set([...list.querySelectorAll("details[open]")].map(d => d.closest("article").dataset.name));
  const cards = data.instances.map(it => card(it, data));
  for (const c of cards) if (open.has(c.dataset.name)) c.querySelector("details").open = true;
  list.replaceChildren(...(cards.length ? cards : [el("p", {id: "empty"}, "No instances: `instances up TASK-ID` starts one.")]));
  document.getElementById("updated").textContent = `updated ${data.generated}`;
}

async function refresh() {
  try {
    const response = await fetch(api, {cache: "no-store"});
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    draw(await response.json());
  } catch (err) {
    document.getElementById("updated").textContent = `cannot reach the dashboard (${err.message}); retrying`;
  }
  setTimeout(refresh, every);
}

refresh();

// A seat's page (a player's phone): what this seat alone may see, its
// station's buttons, its decisions and settings. The daemon sends this seat's
// view and nothing of anyone else's; the page only shows it.
"use strict";
import { act, el, getJSON, notify, wsURL } from "./api.js";
import { renderLearning, setupLearning } from "./seat-learning.js";

const seat = Number(/\/seat\/(\d+)/.exec(location.pathname)?.[1] ?? 0);
const base = `../api/seat/${seat}`;
const HIDDEN_FACTS = new Set(["hand", "take", "registers", "robot", "seat_name"]);

function render(data) {
  const view = data.view;
  document.body.dataset.phase = view?.phase ?? "none";
  if (!view) {
    document.getElementById("seat-name").textContent = `seat ${seat + 1}`;
    document.getElementById("your-message").textContent = data.error ?? "no game yet: wait for the host to start one";
    return;
  }
  document.getElementById("seat-name").textContent = view.name;
  document.title = `${view.name} · botboard`;
  const state = view.confirmed ? "confirmed: waiting for the others" : view.acting ? "your move" : view.phase;
  document.getElementById("seat-state").textContent = state;
  document.getElementById("your-message").textContent = view.message || (view.acting ? "lay your program, then confirm" : "");
  document.getElementById("table-message").textContent = view.table_message ?? "";
  renderDecision(view.pending);
  renderHand(view.private ?? {});
  renderStation(view);
  renderControls(view.controls ?? []);
  renderFacts(view.private ?? {});
  renderLearning(data);
}

function renderDecision(pending) {
  const box = document.getElementById("decision-box");
  box.hidden = !pending;
  if (!pending) return;
  document.getElementById("decision-prompt").textContent = pending.prompt;
  document.getElementById("decision-choices").replaceChildren(...pending.choices.map((choice) =>
    el("button", { type: "button", class: choice === pending.selected ? "selected" : "",
      onclick: () => act(`${base}/decide`, { choice }, render) },
    pending.words?.[choice] ?? choice)));
}

function tileName(tile) {
  return typeof tile === "object" && tile !== null ? tile.name ?? tile.code ?? JSON.stringify(tile) : String(tile);
}

function renderHand(mine) {
  // games without a hand (VOLT: dice lie at the station) have no hand section
  document.getElementById("hand-title").closest("section").hidden = !("hand" in mine) && !mine.take;
  document.getElementById("take").textContent = mine.take ?? "";
  const hand = Array.isArray(mine.hand) ? mine.hand : [];
  document.getElementById("hand").replaceChildren(...(hand.length ? hand.map((t) => el("li", {}, tileName(t)))
    : [el("li", { class: "muted" }, "nothing in hand")]));
}

function renderStation(view) {
  const registers = view.private?.registers ?? [];
  document.getElementById("station").replaceChildren(...(view.station ?? []).map((words, pos) => {
    const fused = registers[pos]?.fused;
    return el("li", {}, el("span", { class: "slot-name" }, view.slot_names?.[pos] ?? `slot ${pos + 1}`),
      el("span", { class: fused ? "fused" : "" }, (words ?? "empty") + (fused ? " (fused)" : "")));
  }));
}

function renderControls(controls) {
  document.getElementById("controls").replaceChildren(...controls.map((control) => {
    const select = el("select", { "data-control": control.name,
      onchange: (event) => act(`${base}/control`, { name: control.name,
        value: control.choices[event.target.selectedIndex] }, render) },
    control.choices.map((choice) => el("option", { selected: choice === control.value },
      typeof choice === "boolean" ? (choice ? "yes" : "no") : String(choice))));
    return el("label", {}, control.label, select);
  }));
}

function show(value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) return value.map(show).join(", ") || "none";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}: ${show(v)}`).join("; ") || "none";
  return String(value);
}

function renderFacts(mine) {
  const facts = Object.entries(mine).filter(([key]) => !HIDDEN_FACTS.has(key));
  document.getElementById("private-facts").replaceChildren(...facts.flatMap(([key, value]) =>
    [el("dt", {}, key.replaceAll("_", " ")), el("dd", { "data-key": key }, show(value))]));
}

function connect() {
  const ws = new WebSocket(wsURL(`../ws/seat/${seat}`));
  ws.onopen = () => { document.body.dataset.live = "yes"; };
  ws.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.kind === "seat") render(event);
    else if (event.kind === "message") notify(event.text);
  };
  ws.onclose = () => {
    document.body.dataset.live = "no";
    document.getElementById("seat-state").textContent = "offline: retrying";
    setTimeout(connect, 1000);
  };
}

for (const button of document.querySelectorAll("#station-buttons button")) {
  button.addEventListener("click", () => act(`${base}/press`, { role: button.dataset.role }, render));
}
setupLearning(base, render);
getJSON(base).then((data) => { render(data); connect(); },
  (err) => notify(`this seat's page could not start: ${err.message}`, true));

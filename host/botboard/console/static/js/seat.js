// A seat's page (a player's phone): what this seat alone may see, its
// station's buttons, its decisions and settings. The daemon sends this seat's
// view and nothing of anyone else's; the page only shows it.
"use strict";
import { act, el, getJSON, notify, wsURL } from "./api.js";
import { colouredWords, endScreen, showNow } from "./now.js";
import { renderLearning, setupLearning } from "./seat-learning.js";

const seat = Number(/\/seat\/(\d+)/.exec(location.pathname)?.[1] ?? 0);
const base = `../api/seat/${seat}`;

let shownAt = 0;  // when the view shown was made: a reply that comes late is older than a push
function render(data) {
  if (data.at !== undefined) {
    if (data.at < shownAt) return;
    shownAt = data.at;
  }
  const view = data.view;
  document.body.dataset.phase = view?.phase ?? "none";
  if (!view) {
    document.getElementById("seat-name").textContent = `seat ${seat + 1}`;
    document.getElementById("your-message").textContent = data.error ?? "no game yet: wait for the host to start one";
    return;
  }
  document.getElementById("seat-name").textContent = view.name;
  document.title = `${view.name} · botboard`;
  const over = view.phase === "over";
  const state = over ? "game over" : view.confirmed ? "confirmed" : view.acting ? "your move" : view.phase;
  document.getElementById("seat-state").textContent = state;
  const colours = view.seat_colours ?? {};
  showNow(document.getElementById("your-message"), view.now, colours);
  const notice = document.getElementById("your-notice");
  notice.hidden = !view.notice;  // a refusal or prompt that still applies; gone once resolved
  notice.className = view.notice_kind === "refusal" ? "notice refusal" : "notice";
  notice.setAttribute("role", view.notice_kind === "refusal" ? "alert" : "status");
  notice.replaceChildren(...colouredWords(view.notice ?? "", colours));
  document.getElementById("table-message").textContent = over ? "" : view.table_message ?? "";
  renderEnd(view, colours);
  renderDecision(over ? null : view.pending);
  renderHand(over ? { ...view.private, take: "" } : view.private ?? {});  // nothing left to take
  renderStation(view);
  renderControls(over ? [] : view.controls ?? []);
  renderFacts(view.words ?? []);
  renderLearning(data);
}

// The game is over: this seat's result, the standings, and no buttons left to press.
function renderEnd(view, colours) {
  const box = document.getElementById("end-box");
  box.hidden = !view.end;
  document.getElementById("station-buttons").hidden = Boolean(view.end);
  if (!view.end) return;
  document.getElementById("your-result").replaceChildren(...colouredWords(view.result ?? "", colours));
  document.getElementById("end-banner").replaceChildren(...endScreen(view.end, colours));
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

// The seat's own facts, as the game words them (label, words) for its player.
function renderFacts(rows) {
  document.getElementById("private-facts").replaceChildren(...rows.flatMap(([label, words]) =>
    [el("dt", {}, label), el("dd", { "data-label": label }, words)]));
}

function connect() {
  const ws = new WebSocket(wsURL(`../ws/seat/${seat}`));
  ws.onopen = () => { document.body.dataset.live = "yes"; shownAt = 0; };  // (a restarted daemon's clock)
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

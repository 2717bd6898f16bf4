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
  const words = (choice) => pending.words?.[choice] ?? choice;
  const decide = (choice) => act(`${base}/decide`, { choice }, render);
  if (pending.choices.length > MANY_CHOICES) {  // a list to pick from, not a wall of buttons
    const select = el("select", { id: "decision-select", "aria-label": "your choice" },
      pending.choices.map((choice) => el("option", { value: choice, selected: choice === pending.selected }, words(choice))));
    document.getElementById("decision-choices").replaceChildren(el("div", { class: "row" }, select,
      el("button", { type: "button", id: "decision-choose", onclick: () => decide(select.value) }, "choose")));
    return;
  }
  document.getElementById("decision-choices").replaceChildren(...pending.choices.map((choice) =>
    el("button", { type: "button", class: choice === pending.selected ? "selected" : "",
      onclick: () => decide(choice) }, words(choice))));
}
const MANY_CHOICES = 8;

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

// The station's slots as a list; a station whose slots lie in rows and columns (a Goblins yard)
// as that grid, north up, as the player sees it on the table.
function renderStation(view) {
  const registers = view.private?.registers ?? [];
  const station = document.getElementById("station");
  const items = (view.station ?? []).map((words, pos) => {
    const fused = registers[pos]?.fused;
    return el("li", { "data-pos": pos, class: words ? "held" : "" },
      el("span", { class: "slot-name" }, view.slot_names?.[pos] ?? `slot ${pos + 1}`),
      el("span", { class: fused ? "fused" : "" }, (words ?? "empty") + (fused ? " (fused)" : "")));
  });
  const grid = gridOf(view.slot_places, items.length);
  station.classList.toggle("yard", Boolean(grid));
  if (grid) {
    station.style.gridTemplateColumns = `repeat(${grid.columns}, minmax(0, 1fr))`;
    items.forEach((item, pos) => {
      item.style.gridColumn = String(grid.at[pos][0] + 1);
      item.style.gridRow = String(grid.at[pos][1] + 1);
    });
  } else {
    station.style.gridTemplateColumns = "";
  }
  station.replaceChildren(...items);
}

// [column, row] of each slot when the places form a full grid of at least 3x3; else null.
function gridOf(places, count) {
  if (!Array.isArray(places) || places.length !== count || count < 9) return null;
  const xs = [...new Set(places.map((p) => p[0]))].sort((a, b) => a - b);
  const ys = [...new Set(places.map((p) => p[1]))].sort((a, b) => b - a);  // north first
  if (xs.length < 3 || ys.length < 3 || xs.length * ys.length !== count) return null;
  return { columns: xs.length, at: places.map(([x, y]) => [xs.indexOf(x), ys.indexOf(y)]) };
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

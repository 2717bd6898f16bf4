// The game panel: new game, undo (confirmed), the pending decision with one
// button per choice, and the session's view: scores, delivered crystals,
// hand sizes, countdown, the event log in words.
"use strict";
import { act, confirmDialog, el, notify } from "./api.js";

const state = { session: false, view: null, onView: () => {} };

export function setupGame(onView) {
  state.onView = onView;
  document.getElementById("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame();
  });
  document.getElementById("undo-button").addEventListener("click", undo);
}

function newGame() {
  const players = Number(document.getElementById("ng-players").value);
  const seedText = document.getElementById("ng-seed").value.trim();
  const optionsText = document.getElementById("ng-options").value.trim();
  let options = {};
  if (optionsText) {
    try { options = JSON.parse(optionsText); } catch (err) {
      notify(`options must be JSON, e.g. {"teleporters": 1}: ${err.message}`, true);
      return;
    }
  }
  act("api/game/new", { players, options, seed: seedText === "" ? null : Number(seedText) },
    (data) => { showGame(data); notify("new game started"); });
}

export async function undo() {
  if (!state.session) { notify("no game session: nothing to undo", true); return; }
  if (!await confirmDialog("Undo the last action? The undo is journaled with the game.")) return;
  act("api/game/undo", { confirm: true }, (data) => { showGame(data); notify("last action undone"); });
}

export function showGame(data) {
  state.session = Boolean(data.session);
  state.view = data.view ?? null;
  if (data.game) document.getElementById("game-name").textContent = data.game;
  document.getElementById("undo-button").disabled = !state.session;
  renderDecision(state.view?.pending ?? null);
  renderView(state.view);
  state.onView(state.view);
}

function choiceLabel(choice) {
  if (choice === null || typeof choice !== "object") return [String(choice), choice];
  return [choice.text ?? choice.label ?? choice.action ?? JSON.stringify(choice),
          choice.action ?? choice.value ?? choice.id ?? choice];
}

function renderDecision(pending) {
  const root = document.getElementById("decision");
  if (!pending) { root.replaceChildren(); return; }
  const who = pending.player_name ?? (pending.player !== undefined ? `player ${pending.player}` : "someone");
  const choices = pending.choices ?? pending.options ?? [];
  root.replaceChildren(el("fieldset", { class: "decision" },
    el("legend", {}, `${who} must decide: ${pending.prompt ?? pending.text ?? pending.kind ?? ""}`),
    el("div", { class: "row" }, choices.map((choice) => {
      const [label, value] = choiceLabel(choice);
      return el("button", { type: "button", class: "choice",
        onclick: () => act("api/game/decide", { choice: value }, showGame) }, label);
    }))));
}

function table(rows, head) {
  return el("table", {}, head ? el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))) : null,
    el("tbody", {}, rows.map((row) => el("tr", {}, row.map((cell) => el("td", {}, cell))))));
}

function entries(value) {
  if (Array.isArray(value)) return value.map((v, i) => [`player ${i}`, v]);
  if (value && typeof value === "object") return Object.entries(value);
  return [["", value]];
}

function show(value) {
  if (value === null || value === undefined) return "–";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const SHOWN = { scores: "Scores", delivered: "Delivered crystals", crystals: "Delivered crystals",
                hands: "Hand sizes", hand_sizes: "Hand sizes" };
const SKIP = new Set(["pending", "log", "events", "tile_kinds", ...Object.keys(SHOWN)]);

function renderView(view) {
  const root = document.getElementById("game-view");
  if (!state.session) { root.replaceChildren(el("p", { class: "muted" }, "no game session")); return; }
  if (!view) { root.replaceChildren(el("p", { class: "muted" }, "no game yet: start one above")); return; }
  const parts = [];
  const facts = Object.entries(view).filter(([k, v]) => !SKIP.has(k) && (v === null || typeof v !== "object"));
  if (facts.length) parts.push(el("dl", { class: "facts" }, facts.flatMap(([k, v]) => [el("dt", {}, k.replaceAll("_", " ")), el("dd", {}, show(v))])));
  for (const [key, title] of Object.entries(SHOWN)) {
    if (view[key] !== undefined) parts.push(el("h3", {}, title), table(entries(view[key]).map(([k, v]) => [k, show(v)])));
  }
  const log = view.log ?? view.events ?? [];
  if (log.length) {
    parts.push(el("h3", {}, "Events"), el("ol", { id: "game-log", class: "log" },
      log.slice(-60).map((line) => el("li", {}, typeof line === "string" ? line : line.text ?? JSON.stringify(line)))));
  }
  const rest = Object.entries(view).filter(([k, v]) => !SKIP.has(k) && v !== null && typeof v === "object");
  if (rest.length) parts.push(el("details", {}, el("summary", {}, "more"), el("pre", {}, JSON.stringify(Object.fromEntries(rest), null, 1))));
  root.replaceChildren(...parts);
  const logList = document.getElementById("game-log");
  if (logList) logList.scrollTop = logList.scrollHeight;
}

export function focusDecision() {
  const first = document.querySelector("#decision .choice");
  if (first) first.focus(); else notify("no pending decision");
}

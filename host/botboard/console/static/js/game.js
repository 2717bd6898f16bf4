// The game panel: new game, undo (confirmed), the pending decision with one
// button per choice, and the session's view: scores, delivered crystals,
// hand sizes, countdown, the event log in words.
"use strict";
import { act, confirmDialog, el, getJSON, notify } from "./api.js";
import { colouredWords, endScreen, showNow } from "./now.js";

// shownAt: when the view shown was made (the daemon's clock): a reply that comes late is older
// than a view pushed meanwhile, and must not hide it
const state = { session: false, view: null, onView: () => {}, listedFor: undefined, shownAt: 0 };

export function setupGame(onView) {
  state.onView = onView;
  document.getElementById("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame();
  });
  for (const id of ["ng-players", "ng-options"]) {  // typed in: the next game's, kept as typed
    document.getElementById(id).addEventListener("input", (event) => { event.target.dataset.touched = "yes"; });
  }
  document.getElementById("undo-button").addEventListener("click", undo);
  document.getElementById("resume-button").addEventListener("click", resume);
  document.getElementById("speed").addEventListener("change", (event) =>
    act("api/game/speed", { speed: Number(event.target.value) }, showGame));
  // not the reply's view: it is taken before the animation stops, and could land after
  // (and so hide) the newer view the websocket brings when it has
  document.getElementById("skip-button").addEventListener("click", () => act("api/game/skip", {}));
  const hints = document.getElementById("hints-on");  // the table may switch the phones' hints off
  hints.addEventListener("change", () => act("api/game/hints", { hints: hints.checked },
    (data) => { hints.checked = data.hints; }));
  getJSON("api/game/hints").then((data) => { hints.checked = data.hints; },
    () => { hints.disabled = true; });  // no session, or a joined table's: not this console's to say
}

async function newGame() {
  const running = state.session && state.view && state.view.game_id !== null && !state.view.over;
  if (running && !await confirmDialog(`Replace game ${state.view.game_id}, which is still going? ` +
      "It stays in the journal, unfinished.")) return;
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
  // "2=search 3" -> {"2": "search", "3": "search"}: the seats the computer plays this game
  const computers = Object.fromEntries(document.getElementById("ng-computers").value.trim().split(/[\s,]+/)
    .filter(Boolean).map((item) => { const [seat, level] = item.split("="); return [seat, level || "search"]; }));
  act("api/game/new", { players, options, computers, seed: seedText === "" ? null : Number(seedText) },
    (data) => {
      for (const id of ["ng-players", "ng-options"]) delete document.getElementById(id).dataset.touched;
      showGame(data); notify("new game started");
    });
}

// A new game keeps the running game's options and players unless the form says otherwise.
function keepRunningOptions(view) {
  if (!view || view.game_id === null) return;
  const options = document.getElementById("ng-options");
  if (!options.dataset.touched) options.value = Object.keys(view.options ?? {}).length ? JSON.stringify(view.options) : "";
  const players = document.getElementById("ng-players");
  if (!players.dataset.touched && view.players) players.value = view.players;
}

// the journal's unfinished games of this engine, but the one on the table
async function listUnfinished() {
  const { games } = await getJSON("api/game/unfinished");
  const others = games.filter((g) => g.id !== state.view?.game_id);
  const select = document.getElementById("resume-game");
  select.replaceChildren(...others.map((g) => el("option", { value: String(g.id) },
    `game ${g.id}: ${g.players} players, seed ${g.seed}, ${g.actions} actions, ${g.started.slice(0, 16).replace("T", " ")}`)));
  document.getElementById("resume-row").hidden = others.length === 0;
}

async function resume() {
  const game = Number(document.getElementById("resume-game").value);
  if (!game) return;
  const running = state.view && state.view.game_id !== null && !state.view.over;
  if (running && !await confirmDialog(`Leave game ${state.view.game_id} for game ${game}? ` +
      "It stays in the journal, unfinished, and can be resumed the same way.")) return;
  act("api/game/resume", { game }, (data) => { showGame(data); notify(`game ${game} resumed`); });
}

export async function undo() {
  if (!state.session) { notify("no game session: nothing to undo", true); return; }
  if (!await confirmDialog("Undo the last action? The undo is journaled with the game.")) return;
  act("api/game/undo", { confirm: true }, (data) => { showGame(data); notify("last action undone"); });
}

// the websocket (re)opened: perhaps to a restarted daemon, whose clock starts again
export function forgetShownTime() { state.shownAt = 0; }

export function showGame(data) {
  if (data.at !== undefined) {
    if (data.at < state.shownAt) return;
    state.shownAt = data.at;
  }
  state.session = Boolean(data.session);
  state.view = data.view ?? null;
  if (data.game) document.getElementById("game-name").textContent = data.game;
  for (const id of ["undo-button", "skip-button", "speed", "hints-on"]) document.getElementById(id).disabled = !state.session;
  const speed = document.getElementById("speed");
  if (state.view?.speed !== undefined && document.activeElement !== speed) speed.value = state.view.speed;
  const shown = state.view?.game_id ?? null;
  if (shown !== state.listedFor) {  // a game started or resumed: the list changes
    state.listedFor = shown;
    keepRunningOptions(state.view);
    listUnfinished().catch(() => {});
  }
  setSeatNames(state.view);
  renderDecision(state.view?.pending ?? null);
  renderNow(state.view);
  renderView(state.view);
  state.onView(state.view);
}

// The shared screen's first line, and the end banner once the game is over.
function renderNow(view) {
  const colours = view?.seat_colours ?? {};
  showNow(document.getElementById("now-line"), view?.now ?? { text: view?.message ?? "no game yet" }, colours);
  const banner = document.getElementById("end-banner");
  banner.hidden = !view?.end;
  banner.replaceChildren(...(view?.end ? endScreen(view.end, colours) : []));
}

function choiceLabel(choice) {
  if (choice === null || typeof choice !== "object") return [String(choice), choice];
  return [choice.text ?? choice.label ?? choice.action ?? JSON.stringify(choice),
          choice.action ?? choice.value ?? choice.id ?? choice];
}

function renderDecision(pending) {
  const root = document.getElementById("decision");
  if (!pending) { root.replaceChildren(); return; }
  const who = pending.who ?? (pending.player !== undefined ? `player ${pending.player}` : "someone");
  const choices = pending.choices ?? pending.options ?? [];
  root.replaceChildren(el("fieldset", { class: "decision" },
    el("legend", {}, `${who} must decide: ${said(pending.prompt ?? pending.kind ?? "").replace(`${who}: `, "")}`),
    el("div", { class: "row" }, choices.map((choice) => {
      const [engineLabel, value] = choiceLabel(choice);
      const label = pending.words?.[value] ?? said(engineLabel);
      return el("button", { type: "button", class: `choice${value === pending.selected ? " selected" : ""}`,
        "data-choice": typeof value === "string" ? value : JSON.stringify(value),
        onclick: () => act("api/game/decide", { choice: value }, showGame) }, label);
    }))));
}

function table(rows, head) {
  return el("table", {}, head ? el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))) : null,
    el("tbody", {}, rows.map((row) => el("tr", {}, row.map((cell) => el("td", {}, cell))))));
}

// The engine's words as people read them: its players p1, p2... by their seats' names (the
// view's seats), its keys with spaces ("hit points", not hit_points). Set from each view.
let seatNames = {};
function setSeatNames(view) {
  seatNames = Object.fromEntries((view?.seats ?? []).map((s) => [`p${s.seat + 1}`, s.name]));
}
export function said(text) {
  return String(text).replace(/\bp(\d)\b/g, (word) => seatNames[word] ?? word)
    .replace(/([a-z])_(?=[a-z])/g, "$1 ");
}

function show(value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.map(show).join(", ") || "none";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${said(k)} ${show(v)}`).join("; ") || "none";
  return said(value);
}

const FACTS = ["phase", "turn", "round", "countdown", "winner", "result", "message", "speed", "settings",
               "computers"];
const NOT_SHOWN = new Set(["log", "events", "pending", "public", "floor", "seats", "stations", "state_hash",
                           "columns", "cell_names", "slot_names", "pieces"]);

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// The engine's public observation, whatever the game: scalars become facts; the maps
// the game names in "columns" (player -> figure) become the players table's columns,
// under the game's headings; a map of players to records a table of its own (BotWars'
// robots); anything else is listed under "more".
function publicParts(pub) {
  const facts = [], columns = {}, tables = [], more = {};
  const headings = pub.columns ?? {};
  for (const [key, value] of Object.entries(pub)) {
    if (NOT_SHOWN.has(key) || value === null || value === undefined) continue;
    const values = isObject(value) ? Object.values(value) : [];
    if (!isObject(value) && !Array.isArray(value)) facts.push([key, value]);
    else if (key in headings) columns[headings[key]] = value;
    else if (values.length && values.every(isObject)) tables.push([key, value]);
    else more[key] = value;
  }
  return { facts, columns, tables, more };
}

function recordsTable(name, records) {
  const fields = [...new Set(Object.values(records).flatMap((r) => Object.keys(r)))];
  return [el("h3", {}, said(name)),
    table(Object.entries(records).map(([who, r]) => [said(who), ...fields.map((f) => show(r[f]))]),
      [said(name.replace(/s$/, "")), ...fields.map(said)])];
}

function columnsTable(columns) {
  const keys = Object.keys(columns);
  if (!keys.length) return [];
  const players = [...new Set(keys.flatMap((k) => Object.keys(columns[k])))];
  return [table(players.map((p) => [said(p), ...keys.map((k) => show(columns[k][p]))]),
    ["player", ...keys.map(said)])];
}

function renderView(view) {
  const root = document.getElementById("game-view");
  if (!state.session) { root.replaceChildren(el("p", { class: "muted" }, "no game session")); return; }
  if (!view) { root.replaceChildren(el("p", { class: "muted" }, "no game yet: start one above")); return; }
  setSeatNames(view);
  const pub = publicParts(view.public ?? {});
  const facts = [...FACTS.filter((k) => view[k] !== undefined && view[k] !== null).map((k) => [k, view[k]]),
    ...pub.facts.filter(([k]) => !FACTS.includes(k))];
  const parts = [el("dl", { class: "facts" }, facts.flatMap(([k, v]) => [el("dt", {}, said(k)), el("dd", { "data-key": k }, show(v))]))];
  parts.push(...columnsTable(pub.columns));
  for (const [name, records] of pub.tables) parts.push(...recordsTable(name, records));
  const log = view.log ?? [];
  if (log.length) {
    parts.push(el("h3", {}, "Events"), el("ol", { id: "game-log", class: "log" },
      log.slice(-60).map((line) => logLine(line, view.seat_colours))));
  }
  if (Object.keys(pub.more).length) {
    parts.push(el("details", {}, el("summary", {}, "more"), el("dl", { class: "facts" },
      Object.entries(pub.more).flatMap(([k, v]) => [el("dt", {}, said(k)), el("dd", {}, show(v))]))));
  }
  root.replaceChildren(...parts);
  const logList = document.getElementById("game-log");
  if (logList) logList.scrollTop = logList.scrollHeight;
}

// A log line in words, the seats in their colours; an undone move struck through.
function logLine(line, colours) {
  const text = said(typeof line === "string" ? line : line.text ?? show(line));
  const undone = text.startsWith(UNDONE);
  return el("li", { class: undone ? "undone" : "" }, ...colouredWords(text, colours ?? {}));
}
const UNDONE = "(undone) ";

export function focusDecision() {
  const first = document.querySelector("#decision .choice");
  if (first) first.focus(); else notify("no pending decision");
}

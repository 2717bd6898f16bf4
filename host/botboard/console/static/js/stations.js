// Stations: each player's slots (the tile in each, kind and colour), buttons,
// and whose turn it is. With the simulated board, a slot button puts the
// virtual tile chosen above into the slot, or takes out what is there, and
// the station's buttons press the board's buttons.
"use strict";
import { act, el } from "./api.js";

const state = { layout: null, slots: [], buttons: {}, palette: [], simulated: false,
                turn: null, kindNames: null, built: false };

export function setupStations(layout, simulated) {
  Object.assign(state, { layout, simulated, built: false });
  state.slots = Array.from({ length: layout.stations.reduce((n, s) => n + s.slots.length, 0) },
    () => ({ present: false }));
  document.getElementById("tile-picker").hidden = !simulated;
  render();
}

export function setPalette(palette) {
  if (palette.length === state.palette.length) return;
  state.palette = palette;
  const select = document.getElementById("tile-colour");
  select.replaceChildren(...palette.map((colour, i) =>
    el("option", { value: i, selected: i === 2 }, `${i} ${colour}`)));
  render();
}

export function setGames(list) {
  const names = ["", "twintinbots", "botwars", "goblins", "volt"];
  const select = document.getElementById("tile-game");
  select.replaceChildren(...names.slice(1).map((name, i) => el("option", { value: i + 1 }, name)));
  void list;
}

export function setSlots(readings) { state.slots = readings.map((r) => ({ ...r })); render(); }
export function setSlot(slot, reading) { state.slots[slot] = reading; render(); }
export function setButton(button, action) { state.buttons[button] = action; render(); }

// From the game view: whose turn, and tile kind names if the session gives them.
export function setGameView(view) {
  const turn = view ? (view.current_player ?? view.turn_player ?? view.pending?.player ?? null) : null;
  const kinds = view ? (view.tile_kinds ?? null) : null;
  if (turn === state.turn && kinds === state.kindNames) return;
  state.turn = turn;
  state.kindNames = kinds;
  render();
}

function tileText(reading) {
  if (!reading.present) return "empty";
  const tile = reading.tile;
  if (!tile) return `tag ${reading.uid} — ${reading.problem || "no tile payload"}`;
  const kind = state.kindNames?.[tile.kind] ?? `kind ${tile.kind}`;
  return `${kind} · colour ${tile.colour} · #${tile.serial}`;
}

function pickedTile() {
  const num = (id) => Number(document.getElementById(id).value || 0);
  return { game: num("tile-game") || 1, kind: num("tile-kind"), colour: num("tile-colour"),
           serial: num("tile-serial"), blank: document.getElementById("tile-blank").checked };
}

function slotButton(slot, position) {
  const reading = state.slots[slot] || { present: false };
  const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
  if (reading.tile) swatch.style.background = state.palette[reading.tile.colour] || "#888";
  const label = `slot ${slot} (${position + 1}): ${tileText(reading)}`;
  return el("button", {
    type: "button", class: `slot${reading.present ? " full" : ""}${reading.problem ? " problem" : ""}`,
    "data-slot": slot, disabled: !state.simulated, title: label, "aria-label":
      label + (state.simulated ? (reading.present ? ". Enter takes it out" : ". Enter puts the tile in") : ""),
    onclick: () => reading.present ? act("api/sim/remove", { slot })
      : act("api/sim/place", { slot, ...pickedTile() }),
  }, swatch, el("span", { class: "slot-no" }, slot), el("span", { class: "slot-text" }, tileText(reading)));
}

function stationButton(role, index) {
  const last = state.buttons[index];
  return el("button", {
    type: "button", class: `board-button${last === "press" ? " down" : ""}`, "data-button": index,
    disabled: !state.simulated, title: `button ${index}${last ? ` (last: ${last})` : ""}`,
    onclick: () => act("api/sim/button", { button: index, action: "click" }),
  }, role);
}

function render() {
  const root = document.getElementById("stations");
  if (!state.layout) return;
  const focused = document.activeElement?.dataset?.slot ?? null;
  const focusedButton = document.activeElement?.dataset?.button ?? null;
  root.replaceChildren(...state.layout.stations.map((station, s) => el("div", {
    class: `station${state.turn === s ? " turn" : ""}`, "data-station": s,
  }, el("h3", {}, station.name, state.turn === s ? el("span", { class: "pill turn-pill" }, "to play") : null),
  el("div", { class: "slots" }, station.slots.map((slot, i) => slotButton(slot, i))),
  el("div", { class: "buttons" }, Object.entries(station.buttons).map(([role, i]) => stationButton(role, i))))));
  // re-rendering must not steal keyboard focus
  if (focused !== null) root.querySelector(`[data-slot="${focused}"]`)?.focus();
  if (focusedButton !== null) root.querySelector(`[data-button="${focusedButton}"]`)?.focus();
}

export function focusFirstSlot() { document.querySelector("#stations .slot:not([disabled])")?.focus(); }

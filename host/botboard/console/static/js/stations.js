// Stations: each player's slots (the tile in each, kind and colour), buttons,
// and whose turn it is. With the simulated board, a slot button puts the
// virtual tile chosen above into the slot, or takes out what is there, and
// the station's buttons press the board's buttons.
"use strict";
import { act, el } from "./api.js";
import { chosenTile, fillFields, tileWords } from "./catalogue.js";

const state = { layout: null, slots: [], buttons: {}, simulated: false, turn: null, seats: {},
                acting: new Set(), words: {}, slotNames: {}, viewKey: "" };

export function setupStations(layout, simulated) {
  Object.assign(state, { layout, simulated });
  state.slots = Array.from({ length: layout.stations.reduce((n, s) => n + s.slots.length, 0) },
    () => ({ present: false }));
  document.getElementById("tile-picker").hidden = !simulated;
  render();
}

export function setupTilePicker() {
  fillFields(document.getElementById("tile-fields"), "tile");
}

export function setSlots(readings) { state.slots = readings.map((r) => ({ ...r })); render(); }
export function setSlot(slot, reading) { state.slots[slot] = reading; render(); }
export function setButton(button, action) { state.buttons[button] = action; render(); }

// From the game view: the station whose turn it is (by name, or by seat index).
export function setGameView(view) {
  let turn = null;
  if (view && view.stations && view.turn && view.phase !== "over") {
    const name = view.stations[view.turn];
    turn = state.layout ? state.layout.stations.findIndex((s) => s.name === name) : null;
  } else if (view && Number.isInteger(view.current_player)) {
    turn = view.current_player;
  }
  // station name -> its seat's name; and, in games where everyone programs at once, all the
  // stations still to confirm
  const seats = Object.fromEntries(Object.entries(view?.stations ?? {}).map(([seat, station]) => [station, seat]));
  const acting = (view?.acting ?? []).map((seat) => view.stations?.[seat]).filter(Boolean);
  const words = view?.station_words ?? {};
  const slotNames = view?.slot_names ?? {};  // station -> its slots as the game's messages name them
  const key = JSON.stringify([turn, seats, acting, words, slotNames]);
  if (key === state.viewKey) return;
  Object.assign(state, { turn, seats, acting: new Set(acting), words, slotNames, viewKey: key });
  render();
}

function tileText(reading) {
  if (!reading.present) return "empty";
  const tile = reading.tile;
  if (tile === "hidden") return "a tile (hidden until every seat has confirmed)";
  if (!tile) return `⚠ ${(reading.problem || "no tile payload").split(/ \(|:/)[0]}`;
  const serial = tile.serial === undefined ? "" : ` · #${tile.serial}`;  // an enrolled tag has none
  return `${tileWords(tile)}${serial}`;
}

// The picker's tile (its game's own fields), or a blank tag: no payload at all.
function pickedTile() {
  const serial = Number(document.getElementById("tile-serial").value || 1);
  if (document.getElementById("tile-blank").checked) return { blank: true, serial };
  return { tile: chosenTile(document.getElementById("tile-fields")), serial };
}

// A slot is labelled as the game's messages name it ("A1", a register, "r3c2"); the board's
// slot number stays in its tooltip.
// With the simulated board the hand works where the slot physically is: a tile laid here is
// taken back from here, even when a miswired reader reports it on another slot (bringup).
function handText(reading) {
  if (reading.placed === true && !reading.present) return " · a tile lies here, its reader hears none";
  if (reading.placed === false && reading.present) return " · heard here, but the tile lies on another slot";
  return "";
}

function slotButton(slot, position, name) {
  const reading = state.slots[slot] || { present: false };
  const laid = reading.placed ?? reading.present;
  const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
  const label = `${name ? `${name}, ` : ""}slot ${slot} (${position + 1}): ` + (reading.present && !reading.tile
    ? `tag ${reading.uid}: ${reading.problem || "no tile payload"}` : tileText(reading)) + handText(reading);
  return el("button", {
    type: "button", class: `slot${reading.present ? " full" : ""}${reading.problem || handText(reading) ? " problem" : ""}`,
    "data-slot": slot, disabled: !state.simulated, title: label, "aria-label":
      label + (state.simulated ? (laid ? ". Enter takes it out" : ". Enter puts the tile in") : ""),
    onclick: () => laid ? act("api/sim/remove", { slot })
      : act("api/sim/place", { slot, ...pickedTile() }),
  }, swatch, el("span", { class: "slot-no" }, name ?? slot),
  el("span", { class: "slot-text" }, tileText(reading) + handText(reading)));
}

function stationButton(role, index) {
  const last = state.buttons[index];
  return el("button", {
    type: "button", class: `board-button${last === "press" ? " down" : ""}`, "data-button": index,
    disabled: !state.simulated, title: `button ${index}${last ? ` (last: ${last})` : ""}`,
    onclick: () => act("api/sim/button", { button: index, action: "click" }),
  }, role);
}

// A layout's station name as people say it: "yard-a" is yard A (session/now.py place_words).
function placeWords(name) {
  const m = /^(.*)-([a-z])$/.exec(name);
  return m ? `${m[1].replaceAll("-", " ")} ${m[2].toUpperCase()}` : name.replaceAll("-", " ");
}

function render() {
  const root = document.getElementById("stations");
  if (!state.layout) return;
  const focused = document.activeElement?.dataset?.slot ?? null;
  const focusedButton = document.activeElement?.dataset?.button ?? null;
  root.replaceChildren(...state.layout.stations.map((station, s) => {
    const toPlay = state.turn === s || state.acting.has(station.name);
    const seat = state.seats[station.name];
    return el("div", { class: `station${toPlay ? " turn" : ""}`, "data-station": s },
      el("h3", {}, placeWords(station.name), seat ? el("span", { class: "seat-name" }, ` · ${seat}`) : null,
        toPlay ? el("span", { class: "pill turn-pill" }, "to play") : null),
      state.words[station.name] ? el("p", { class: "station-words", role: "status" }, state.words[station.name]) : null,
      el("div", { class: "slots" }, station.slots.map((slot, i) => slotButton(slot, i, state.slotNames[station.name]?.[i]))),
      el("div", { class: "buttons" }, Object.entries(station.buttons).map(([role, i]) => stationButton(role, i))));
  }));
  // re-rendering must not steal keyboard focus
  if (focused !== null) root.querySelector(`[data-slot="${focused}"]`)?.focus();
  if (focusedButton !== null) root.querySelector(`[data-button="${focusedButton}"]`)?.focus();
}

export function focusFirstSlot() { document.querySelector("#stations .slot:not([disabled])")?.focus(); }

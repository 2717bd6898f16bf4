// The console's entry point: load the layout, open the websocket, route live
// events to the panels, and wire the keyboard shortcuts (see the ? dialog).
"use strict";
import { getJSON, notify, wsURL } from "./api.js";
import { arenaKeys, drawArena, showCells, showFloor, showPlaces } from "./arena.js";
import { focusDecision, forgetShownTime, setupGame, showGame, undo } from "./game.js";
import { addFrames, setupTrace, showLink, togglePause } from "./link.js";
import { loadCatalogue } from "./catalogue.js";
import { focusFirstSlot, setButton, setGameView, setSlot, setSlots, setupStations,
         setupTilePicker } from "./stations.js";
import { setupTools, showLedTest, showReaders, showSettings, startLedTest } from "./tools.js";
import { showRoom, showSeats } from "./seats.js";
import { setupLegend } from "./legend.js";
import { listReviews } from "./review.js";

let slots = [];

async function start() {
  const [layout, status, game, frames, games] = await Promise.all([
    getJSON("api/layout"), getJSON("api/status"), getJSON("api/game"),
    getJSON("api/trace?limit=300"), getJSON("api/games"), loadCatalogue(),
  ]);
  showGameOptions(games);
  const simulated = Boolean(status.simulated);
  drawArena(layout, simulated);
  setupStations(layout, simulated);
  setupTilePicker();
  setupGame((view) => { setGameView(view); showFloor(view?.public?.floor); showPlaces(view); });
  setupTrace();
  setupTools(layout);
  showLink(status);
  showSettings(status.tools.settings);
  showGame(game);
  showSeats(game.view?.seats).catch(() => {});
  showRoom().catch(() => {});
  setupLegend().catch(() => {});
  listReviews().catch(() => {});
  slots = status.tools.slots;
  setSlots(slots);
  showReaders(slots);
  addFrames(frames);
  document.getElementById("arena").addEventListener("keydown", arenaKeys);
  document.addEventListener("keydown", shortcuts);
  connect();
}

// The new-game form says which variants (options) the game has, with their defaults.
function showGameOptions(games) {
  const info = games.games.find((g) => g.name === games.current);
  if (!info) return;
  const players = document.getElementById("ng-players");
  players.min = info.min_players;
  players.max = info.max_players;
  const options = document.getElementById("ng-options");
  options.placeholder = JSON.stringify(info.options);
  options.title = `${info.title} options (defaults shown); give only the ones to change`;
}

function onEvent(event) {
  switch (event.kind) {
    case "status": showLink(event.status); showSettings(event.status.tools?.settings); break;
    case "frames": addFrames(event.messages); break;
    case "cells": showCells(event.cells, event.palette);
      document.body.dataset.cellsAt = event.at; break;
    case "slot": slots[event.slot] = event.reading; setSlot(event.slot, event.reading); showReaders(slots); break;
    case "button": setButton(event.button, event.action); break;
    case "led_test": showLedTest(event); break;
    case "plug": notify(event.plugged ? "board plugged back in" : "board unplugged"); break;
    case "game": onGameEvent(event); break;
    default: break;
  }
}

function onGameEvent(event) {
  if (event.event === "view") {
    showGame({ session: true, view: event.view, at: event.at });
    showSeats(event.view?.seats).catch(() => {});
    if (event.view?.over) listReviews().catch(() => {}); // the game just ended joins the list
  }
  else if (event.event === "message") notify(event.text);
  else getJSON("api/game").then(showGame, () => {});
}

function connect() {
  const ws = new WebSocket(wsURL());
  ws.onopen = () => { document.body.dataset.live = "yes"; forgetShownTime(); };
  ws.onmessage = (message) => onEvent(JSON.parse(message.data));
  ws.onclose = () => {
    document.body.dataset.live = "no";
    document.getElementById("link-state").textContent = "console offline: retrying";
    document.getElementById("link-state").className = "pill bad";
    setTimeout(connect, 1000);
  };
}

const KEYS = {
  a: () => document.getElementById("arena").focus(),
  s: focusFirstSlot,
  n: () => document.getElementById("ng-players").focus(),
  u: undo,
  d: focusDecision,
  k: () => document.getElementById("skip-button").click(),
  l: startLedTest,
  c: () => { const b = document.getElementById("plug-button"); if (!b.closest("[hidden]")) b.click(); },
  p: togglePause,
  "/": () => document.getElementById("trace-filter").focus(),
  "?": () => document.getElementById("help-dialog").showModal(),
};

function shortcuts(event) {
  const target = event.target;
  const typing = target.closest("input, select, textarea") || document.querySelector("dialog[open]");
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  const action = KEYS[event.key];
  if (action) { event.preventDefault(); action(); }
}

document.getElementById("help-button").addEventListener("click", KEYS["?"]);
start().catch((err) => notify(`console could not start: ${err.message}`, true));

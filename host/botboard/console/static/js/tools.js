// Maker tools: LED test, brightness and power limit, tile writing and
// enrollment, and the reader test (live reads per slot).
"use strict";
import { act, el, notify } from "./api.js";
import { chosenTile, fillFields, tileWords } from "./catalogue.js";

let layout = null;

export function setupTools(theLayout) {
  layout = theLayout;
  document.getElementById("led-test").addEventListener("submit", (event) => {
    event.preventDefault();
    startLedTest();
  });
  document.getElementById("led-stop").addEventListener("click", () => act("api/tools/led-test/stop", {}));
  const range = document.getElementById("cfg-brightness");
  range.addEventListener("input", () => { document.getElementById("cfg-brightness-out").value = range.value; });
  document.getElementById("config").addEventListener("submit", (event) => {
    event.preventDefault();
    act("api/tools/config", { brightness: Number(range.value),
                              power_ma: Number(document.getElementById("cfg-power").value) },
      (data) => notify(`board settings sent: ${JSON.stringify(data.settings)}`));
  });
  document.getElementById("tiles").addEventListener("submit", (event) => { event.preventDefault(); writeTile(false); });
  document.getElementById("tw-enroll").addEventListener("click", () => writeTile(true));
  fillFields(document.getElementById("tw-fields"), "tw");
}

// The form shows what the daemon last sent the board (from this console, the CLI or
// another console), not its own defaults; only when that changes, so a value being
// edited is not overwritten by every status heartbeat.
let shownSettings = "";
export function showSettings(settings = {}) {
  const key = JSON.stringify(settings);
  if (key === shownSettings) return;
  shownSettings = key;
  if (settings.brightness !== undefined) {
    document.getElementById("cfg-brightness").value = settings.brightness;
    document.getElementById("cfg-brightness-out").value = settings.brightness;
  }
  if (settings.power_ma !== undefined) document.getElementById("cfg-power").value = settings.power_ma;
}

export function startLedTest() {
  act("api/tools/led-test", { step_ms: Number(document.getElementById("led-step").value),
                              phase: document.getElementById("led-phase").value },
    () => notify("LED test running: watch the board (and the arena)"));
}

function writeTile(enroll) {
  const value = (id) => document.getElementById(id).value;
  act(enroll ? "api/tiles/enroll" : "api/tiles/write",
    { slot: Number(value("tw-slot")), tile: chosenTile(document.getElementById("tw-fields")) },
    (data) => {
      document.getElementById("tw-note").textContent = `${data.uid}: ${data.tile}`;
      notify(enroll ? `tag ${data.uid} enrolled as ${data.tile}` : `tag ${data.uid} written: ${data.tile}`);
    });
}

export function showLedTest(test) {
  const bar = document.getElementById("led-progress");
  bar.max = test.steps || 1;
  bar.value = test.running ? test.step : 0;
  document.getElementById("led-where").textContent = test.running
    ? `${test.phase === "leds" ? "each LED" : "each cell"}: cell ${test.cell} (${test.step}/${test.steps})`
    : (test.steps ? "done" : "");
}

export function showReaders(slots) {
  if (!layout) return;
  const owner = {};
  layout.stations.forEach((station) => station.slots.forEach((slot) => { owner[slot] = station.name; }));
  document.querySelector("#readers tbody").replaceChildren(...slots.map((reading, slot) => el("tr",
    { class: reading.present ? "present" : "" },
    el("td", {}, slot), el("td", {}, owner[slot] ?? ""), el("td", {}, reading.present ? reading.uid : "–"),
    el("td", {}, reading.tile === "hidden" ? "hidden" : reading.tile
      ? `${tileWords(reading.tile)}${reading.tile.serial === undefined ? "" : ` #${reading.tile.serial}`}` : "–"),
    el("td", {}, reading.reads), el("td", {}, readerErrors(reading.reader)),
    el("td", {}, reading.problem || ""))));
}

// the reader's counters since the board booted (READER_STATS): empty when clean
function readerErrors(r) {
  if (!r || !Object.keys(r).length) return "";
  const parts = [];
  if (r.hot) parts.push("OVER TEMPERATURE");
  if (r.crc_errors) parts.push(`${r.crc_errors} CRC`);
  if (r.collisions) parts.push(`${r.collisions} collisions`);
  if (r.over_temperature) parts.push(`${r.over_temperature}× hot`);
  return parts.join(", ");
}

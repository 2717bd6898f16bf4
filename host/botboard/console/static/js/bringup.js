// The bringup page (botboard bringup, docs/first-hour.md): the layout's arena to click where a
// cell lit, the question the board asks now, the faults found and the corrected layout's diff.
"use strict";
import { act, el, getJSON, svg } from "./api.js";
import { centre, outline } from "./arena.js";

const POLL_MS = 250;
let shown = "";

async function drawArena() {
  const layout = await getJSON("/api/layout");
  const arena = document.getElementById("bringup-arena");
  const points = layout.cells.map(([a, b]) => centre(layout.grid, a, b));
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const pad = 24;
  arena.setAttribute("viewBox", `${Math.min(...xs) - pad} ${Math.min(...ys) - pad} ` +
    `${Math.max(...xs) - Math.min(...xs) + 2 * pad} ${Math.max(...ys) - Math.min(...ys) + 2 * pad}`);
  layout.cells.forEach(([a, b], i) => {
    const [x, y] = points[i];
    const cell = svg("polygon", { points: outline(layout.grid, x, y), class: "cell",
      "data-q": a, "data-r": b, role: "button", "aria-label": `cell ${a},${b}` });
    cell.addEventListener("click", () => act("/api/bringup/answer", { cell: [a, b] }, show));
    arena.append(cell);
  });
  document.getElementById("bringup-layout").textContent = `layout ${layout.id}`;
}

function show(data) {
  const key = JSON.stringify(data);
  if (key === shown) return;
  shown = key;
  document.getElementById("bringup-state").textContent = data.state;
  document.getElementById("bringup-step").textContent = data.step ? `step: ${data.step}` : "steps";
  document.getElementById("bringup-steps").replaceChildren(
    ...data.steps.map((s) => el("li", { class: s === data.step ? "current" : "" }, s)));
  const prompt = document.getElementById("bringup-prompt");
  prompt.textContent = data.prompt;
  prompt.dataset.ask = JSON.stringify(data.ask);  // for the maker's other hand: a test reads it
  document.getElementById("bringup-start").disabled = data.state === "running";
  document.getElementById("bringup-none").disabled = !["cell", "slot", "button"].includes(data.ask.kind);
  document.getElementById("bringup-faults").replaceChildren(
    ...data.findings.map((f) => el("li", { "data-fault": f.fault }, el("strong", {}, f.fault), " ", f.words)));
  const fig = data.figures;
  document.getElementById("bringup-figures").textContent = fig.dark_mv === undefined ? "" :
    `LED rail ${fig.dark_mv} mV dark (${fig.dark_ma} mA), ${fig.lit_mv} mV at full white (${fig.lit_ma} mA)`;
  document.getElementById("bringup-path").textContent = data.result.path ?
    `written to ${data.result.path}${data.result.changed ? "" : " (no change)"}` : "";
  document.getElementById("bringup-diff").textContent = data.result.diff || "";
  document.getElementById("bringup-deploy").hidden = !data.result.path;
}

async function poll() {
  try {
    show(await getJSON("/api/bringup"));
  } catch (err) {
    document.getElementById("bringup-prompt").textContent = String(err.message || err);
  }
  setTimeout(poll, POLL_MS);
}

document.getElementById("bringup-start").addEventListener("click", () => act("/api/bringup/start", {}, show));
document.getElementById("bringup-none").addEventListener("click", () => act("/api/bringup/answer", { cell: null }, show));
document.getElementById("bringup-deploy").addEventListener("click", () => act("/api/bringup/deploy", {}));
drawArena().then(poll);

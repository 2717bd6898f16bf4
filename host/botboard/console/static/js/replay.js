// The replay viewer: a journaled game as a timeline. Each step is fetched from
// /api/replay/G/step/K and drawn as the board lit it (palette colour per cell,
// the facing as a notch); each cell carries data-look="palette/facing/effect".
"use strict";
import { el, getJSON, notify, post, svg } from "./api.js";
import { centre, facingAngle, outline } from "./arena.js";

const SIZE = 20; // arena.js draws cells this big
const NO_FACING = 15;
const game = Number(location.pathname.split("/").filter(Boolean).pop());
const api = `../api/replay/${game}`;
const view = { summary: null, step: 0, shapes: [] };

function drawCells({ grid, cells }) {
  const arena = document.getElementById("replay-arena");
  const points = cells.map(([a, b]) => centre(grid, a, b));
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const pad = SIZE * 1.2;
  arena.setAttribute("viewBox", `${Math.min(...xs) - pad} ${Math.min(...ys) - pad} ` +
    `${Math.max(...xs) - Math.min(...xs) + 2 * pad} ${Math.max(...ys) - Math.min(...ys) + 2 * pad}`);
  view.shapes = points.map(([x, y], i) => {
    const group = svg("g", { "data-cell": String(i) });
    group.append(svg("polygon", { points: outline(grid, x, y), stroke: "#444" }),
      svg("line", { x1: x, y1: y, x2: x, y2: y, stroke: "#fff", "stroke-width": 2 }));
    arena.append(group);
    return { group, x, y };
  });
}

function showPicture(picture) {
  const { palette, grid } = view.summary;
  picture.forEach(([colour, facing, effect], i) => {
    const { group, x, y } = view.shapes[i];
    group.dataset.look = `${colour}/${facing}/${effect}`;
    group.firstChild.setAttribute("fill", effect === 0 ? "#111" : palette[colour] || "#111");
    const line = group.lastChild;
    const angle = Math.PI / 180 * facingAngle(grid, facing);
    const reach = facing === NO_FACING || effect === 0 ? 0 : SIZE * 0.8;
    line.setAttribute("x2", x + reach * Math.cos(angle));
    line.setAttribute("y2", y + reach * Math.sin(angle));
  });
}

function showScores(scores) {
  const list = document.getElementById("replay-scores");
  list.replaceChildren(...Object.entries(scores || {}).flatMap(([who, score]) =>
    [el("dt", {}, /^\d+$/.test(who) ? view.summary.seats[Number(who)] : who), el("dd", {}, String(score))]));
}

async function showSeat() {
  const seat = document.getElementById("replay-seat").value;
  const note = document.getElementById("replay-seat-note");
  const out = document.getElementById("replay-private");
  out.textContent = "";
  if (seat === "") return;
  try {
    const data = await getJSON(`${api}/step/${view.step}/seat/${seat}`);
    note.textContent = `what ${data.name} alone saw at this step`;
    out.textContent = JSON.stringify(data.private, null, 1);
  } catch (err) {
    note.textContent = err.message;
  }
}

async function go(k) {
  const { steps, on_board: onBoard } = view.summary;
  view.step = Math.max(0, Math.min(steps - 1, k));
  const step = await getJSON(`${api}/step/${view.step}`);
  if (step.step !== view.step) return; // a later click overtook this one
  document.getElementById("replay-step").textContent = `step ${step.step} of ${steps - 1}`;
  document.getElementById("replay-slider").value = String(step.step);
  document.getElementById("replay-step").dataset.hash = step.state_hash;
  document.getElementById("replay-action").textContent = step.action ?? "the start of the game";
  document.getElementById("replay-events").replaceChildren(...step.events.map((text) => el("li", {}, text)));
  document.getElementById("replay-turn").textContent = step.turn;
  showScores(step.scores);
  showPicture(step.picture);
  if (onBoard) await post(`${api}/show`, { step: step.step });
  await showSeat();
}

async function start() {
  try {
    view.summary = await getJSON(api);
  } catch (err) {
    notify(err.message, true);
    return;
  }
  const { title, steps, seats, over, on_board: onBoard } = view.summary;
  document.title = `${title} game ${game}: replay`;
  document.getElementById("replay-title").textContent = `${title}, game ${game}` + (over ? "" : " (unfinished)");
  document.getElementById("replay-board").hidden = !onBoard;
  document.getElementById("replay-slider").max = String(steps - 1);
  document.getElementById("replay-seat").replaceChildren(el("option", { value: "" }, "none"),
    ...seats.map((name, i) => el("option", { value: String(i) }, name)));
  drawCells(view.summary);
  const moves = { "replay-first": () => 0, "replay-back": () => view.step - 1,
    "replay-forward": () => view.step + 1, "replay-last": () => steps - 1 };
  for (const [id, to] of Object.entries(moves)) document.getElementById(id).addEventListener("click", () => go(to()));
  document.getElementById("replay-slider").addEventListener("change", (e) => go(Number(e.target.value)));
  document.getElementById("replay-seat").addEventListener("change", showSeat);
  document.addEventListener("keydown", (e) => {
    const to = { ArrowLeft: view.step - 1, ArrowRight: view.step + 1, Home: 0, End: steps - 1 }[e.key];
    if (to !== undefined && e.target.tagName !== "SELECT") go(to);
  });
  await go(0);
}

start();

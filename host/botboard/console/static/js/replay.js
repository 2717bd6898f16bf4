// The replay viewer: a journaled game as a timeline. Each step is fetched from
// /api/replay/G/step/K and drawn as the live console draws the board (arena.js); each
// cell carries data-look="palette/facing/effect".
"use strict";
import { el, getJSON, notify, post, svg } from "./api.js";
import { drawArena, showCells, showFloor, showPlaces } from "./arena.js";

const game = Number(location.pathname.split("/").filter(Boolean).pop());
const api = `../api/replay/${game}`;
const view = { summary: null, step: 0 };

// Drawn as the live console draws its arena (arena.js): the cells lit as the board lit them,
// labelled as the game names them, the pieces where they stand and the floor's elements.
function drawCells(summary) {
  drawArena(summary, false, "replay-arena");
}

function showPicture(step) {
  showCells(step.picture, view.summary.palette);
  showPlaces(step);
  showFloor(step.floor ?? null);
  const groups = document.querySelectorAll("#replay-arena g[data-cell]");
  step.picture.forEach(([colour, facing, effect], i) => {  // what a test compares with the table's
    if (groups[i]) groups[i].dataset.look = `${colour}/${facing}/${effect}`;
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
  out.replaceChildren();
  if (seat === "") return;
  try {
    const data = await getJSON(`${api}/step/${view.step}/seat/${seat}`);
    note.textContent = `what ${data.name} alone saw at this step`;
    out.replaceChildren(...data.words.flatMap(([label, words]) => [el("dt", {}, label), el("dd", {}, words)]));
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
  showPicture(step);
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

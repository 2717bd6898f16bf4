// The arena: the layout drawn as SVG hexes (or squares), each cell filled with
// what the board reports it shows (palette colour, effect, facing).
"use strict";
import { act, svg } from "./api.js";

const SIZE = 20;
const EFFECTS = ["off", "solid", "blink", "pulse", "spin"];
const NO_FACING = 15;
const state = { layout: null, shapes: [], cursor: 0, simulated: false, floor: "", places: "", root: "arena" };
const ARROW = { N: "↑", E: "→", S: "↓", W: "←" };
const SIDE = { N: [[-1, -1], [1, -1]], E: [[1, -1], [1, 1]], S: [[-1, 1], [1, 1]], W: [[-1, -1], [-1, 1]] };

// A floor element as a short mark (the panel has it printed; the title says it in words).
function floorMark(square) {
  switch (square.type) {
    case "conveyor": return [square.colour === "blue" ? ARROW[square.dir].repeat(2) : ARROW[square.dir], `${square.colour} conveyor ${square.dir}`];
    case "pusher": return [`P${ARROW[square.dir]}`, `pusher ${square.dir}, stages ${square.stages.join(" ")}`];
    case "gear": return [{ L: "↺", R: "↻", U: "⟲⟲" }[square.turn], `gear ${square.turn}`];
    case "pit": return ["▩", "pit"];
    case "crusher": return ["✕", `crusher, stages ${square.stages.join(" ")}`];
    case "repair": return [`+${square.wrenches}`, `repair (${square.wrenches} wrench${square.wrenches > 1 ? "es" : ""})`];
    case "upgrade": return ["U", "upgrade"];
    case "switch": return ["S", `${square.kind} switch`];
    case "drawbridge": return ["D", `drawbridge (bridge ${square.bridge}, switch ${square.switch})`];
    case "teleporter": return ["T", `${square.colour} teleporter`];
    case "workshop": return ["W", "workshop"];
    case "high-voltage": return ["⚡", "high-voltage space"];
    case "vp-space": return [`${square.number}`, `VP space ${square.number}`];
    case "cockpit": return [`◎${square.goblins}`, `robot ${square.robot}'s cockpit, ${square.goblins} goblin(s)`];
    case "blocked": return ["▒", "blocked by the blueprint"];
    case "tile": return [`${square.id}${ARROW[square.top]}`, square.words];
    default: return ["?", square.type];
  }
}

export function centre(grid, a, b) {
  if (grid === "hex") return [SIZE * Math.sqrt(3) * (a + b / 2), SIZE * 1.5 * b];
  return [a * SIZE * 2, -b * SIZE * 2]; // square: (x, y) with y northwards
}

export function outline(grid, x, y) {
  if (grid === "square") {
    const h = SIZE * 0.95;
    return `${x - h},${y - h} ${x + h},${y - h} ${x + h},${y + h} ${x - h},${y + h}`;
  }
  return [...Array(6).keys()].map((k) => {
    const angle = Math.PI / 180 * (60 * k - 30); // pointy-top
    return `${(x + SIZE * Math.cos(angle)).toFixed(2)},${(y + SIZE * Math.sin(angle)).toFixed(2)}`;
  }).join(" ");
}

// Screen angle of a facing: hex 0 E, 1 SE ... clockwise; square 0 N, 1 E, 2 S, 3 W.
export function facingAngle(grid, facing) {
  return grid === "hex" ? facing * 60 : facing * 90 - 90;
}

// ``root``: the svg's id (the console's "arena"; the replay viewer draws the same way in its own).
export function drawArena(layout, simulated, root = "arena") {
  Object.assign(state, { layout, simulated, floor: "", places: "", root });
  return draw(layout, simulated, document.getElementById(root));
}

function draw(layout, simulated, root) {
  root.replaceChildren();
  const centres = layout.cells.map(([a, b]) => centre(layout.grid, a, b));
  const xs = centres.map((c) => c[0]), ys = centres.map((c) => c[1]);
  const pad = SIZE * 1.5;
  root.setAttribute("viewBox", `${Math.min(...xs) - pad} ${Math.min(...ys) - pad} ` +
    `${Math.max(...xs) - Math.min(...xs) + 2 * pad} ${Math.max(...ys) - Math.min(...ys) + 2 * pad}`);
  state.shapes = layout.cells.map(([a, b], i) => {
    const [x, y] = centres[i];
    const group = svg("g", { class: "cell", id: `cell-${i}`, "data-cell": i });
    const title = svg("title");
    title.textContent = `cell ${i} (${a}, ${b})`;
    const body = svg("polygon", { points: outline(layout.grid, x, y), class: "body" });
    const pointer = svg("line", { x1: x, y1: y, x2: x + SIZE * 0.8, y2: y, class: "facing",
                                  visibility: "hidden" });
    const label = svg("text", { x, y: y + SIZE * 0.62, class: "index", fill: "#aaa" });
    label.textContent = i;
    group.append(title, body, pointer, label);
    group.addEventListener("click", () => touch(i));
    root.append(group);
    return { group, body, pointer, title, label, x, y, coords: [a, b] };
  });
  const note = document.getElementById(`${state.root}-note`);
  if (note) note.textContent = `${layout.title} · ${layout.cells.length} cells${simulated ? " · click a cell to touch it" : ""}`;
  moveCursor(0, false);
}

// cells: [[palette, facing, effect], ...] as the board reported; palette: CSS colours
export function showCells(cells, palette) {
  cells.forEach(([pal, facing, effect], i) => {
    const shape = state.shapes[i];
    if (!shape) return;
    const colour = effect === 0 ? "#141414" : palette[pal] || "#888";
    shape.body.setAttribute("fill", colour);
    shape.label.setAttribute("fill", bright(colour) ? "#000" : "#aaa");
    shape.group.dataset.palette = pal;
    shape.group.dataset.effect = EFFECTS[effect] || String(effect);
    shape.group.setAttribute("class", `cell effect-${EFFECTS[effect] || "other"}` +
      (i === state.cursor ? " cursor" : ""));
    const faced = facing !== NO_FACING && facing < 6 && effect !== 0;
    shape.pointer.setAttribute("visibility", faced ? "visible" : "hidden");
    if (faced) {
      const angle = facingAngle(state.layout.grid, facing);
      shape.pointer.setAttribute("transform", `rotate(${angle} ${shape.x} ${shape.y})`);
    }
    shape.title.textContent = `cell ${i} (${shape.coords.join(", ")}): ` +
      (effect === 0 ? "off" : `palette ${pal} ${EFFECTS[effect] || effect}` +
        (faced ? `, facing ${facing}` : "")) + (shape.floorWords ? ` · ${shape.floorWords}` : "");
  });
}

// Is a #rrggbb colour light enough for a dark label?
function bright(colour) {
  const m = /^#(..)(..)(..)$/.exec(colour);
  if (!m) return false;
  const [r, g, b] = m.slice(1).map((h) => parseInt(h, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 110;
}

function touch(cell) {
  if (!state.simulated) return;
  act("api/sim/touch", { cell });
}

function moveCursor(to, announce = true) {
  const n = state.shapes.length;
  if (!n) return;
  state.shapes[state.cursor]?.group.classList.remove("cursor");
  state.cursor = (to + n) % n;
  const shape = state.shapes[state.cursor];
  shape.group.classList.add("cursor");
  if (announce) {
    document.getElementById(`${state.root}-cursor`).textContent = shape.title.textContent +
      (state.simulated ? " — Enter touches it" : "");
  }
}

export function arenaKeys(event) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (step) {
    moveCursor(state.cursor + step);
    event.preventDefault();
  } else if (event.key === "Enter" || event.key === " ") {
    touch(state.cursor);
    event.preventDefault();
  }
}

// One naming for places: each cell labelled as the game's words name it (events, decisions:
// "r3c2", "-2,4"), the LED number kept in its tooltip; the pieces marked where they stand.
export function showPlaces(view) {
  const names = view?.cell_names ?? [], pieces = view?.pieces ?? {};
  const key = JSON.stringify([names, pieces]);
  if (key === state.places) return;
  state.places = key;
  const root = document.getElementById(state.root);
  root.querySelector(".pieces")?.remove();
  state.shapes.forEach((shape, i) => {
    shape.label.textContent = names[i] || i;
    shape.label.classList.toggle("named", Boolean(names[i]));
  });
  const layer = svg("g", { class: "pieces" });
  for (const [cell, words] of Object.entries(pieces)) {
    const shape = state.shapes[Number(cell)];
    if (!shape) continue;
    const [name, carried] = words.split(" + ");  // "red A + blue crystal": what it carries below
    const mark = svg("text", { x: shape.x, y: shape.y - SIZE * 0.3, class: "piece" });
    mark.textContent = name;
    layer.append(mark);
    if (carried) {
      const load = svg("text", { x: shape.x, y: shape.y + SIZE * 0.15, class: "piece carry" });
      load.textContent = `◆ ${carried}`;
      layer.append(load);
      layer.append(svg("polygon", { points: outline(state.layout.grid, shape.x, shape.y), class: "carrying" }));
    }
  }
  root.append(layer);
}

// A square board's floor (the view's public "floor": BotWars' factory, VOLT's arena, the
// Goblins yards with their tiles), drawn over the squares again whenever it changes.
export function showFloor(floor) {
  const key = floor ? JSON.stringify(floor) : "";
  if (key === state.floor || state.layout?.grid !== "square") return;
  state.floor = key;
  const root = document.getElementById(state.root);
  root.querySelector(".floor")?.remove();
  for (const shape of state.shapes) {  // the words of the floor drawn before go with it
    if (shape.floorWords) shape.title.textContent = shape.title.textContent.split(" · ")[0];
    shape.floorWords = "";
  }
  if (!floor) return;
  const layer = svg("g", { class: "floor" });
  const at = new Map(state.shapes.map((shape) => [shape.coords.join(","), shape]));
  const mark = (x, y, text, title, cls) => {
    const shape = at.get(`${x},${y}`);
    if (!shape) return;
    const node = svg("text", { x: shape.x, y: shape.y + SIZE * 0.12, class: `floor-mark ${cls}` });
    node.textContent = text;
    layer.append(node);
    shape.floorWords = shape.floorWords ? `${shape.floorWords} · ${title}` : title;
    shape.title.textContent += ` · ${title}`;  // the cell's tooltip says it in words
  };
  for (const square of floor.squares) mark(square.x, square.y, ...floorMark(square), square.type);
  for (const flag of floor.flags) mark(flag.x, flag.y, `F${flag.number}`, `flag ${flag.number}`, "flag");
  for (const laser of floor.lasers) mark(laser.x, laser.y, `L${ARROW[laser.facing]}`, `${laser.colour} laser firing ${laser.facing}`, "laser");
  const h = SIZE * 0.95;
  for (const wall of floor.walls) {
    const shape = at.get(`${wall.x},${wall.y}`);
    if (!shape) continue;
    const [[ax, ay], [bx, by]] = SIDE[wall.side];
    layer.append(svg("line", { x1: shape.x + ax * h, y1: shape.y + ay * h, x2: shape.x + bx * h,
                               y2: shape.y + by * h, class: wall.kind === "barrier" ? "wall barrier" : "wall" }));
  }
  root.append(layer);
}

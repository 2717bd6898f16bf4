// The LED legend: each palette colour of the game at the table and what it means,
// from the game's palette file (GET api/game/palette), and the palette choice
// (standard or colourblind), which relights the board at once.
"use strict";
import { act, el, getJSON } from "./api.js";

function show(data) {
  const choice = document.getElementById("palette-choice");
  choice.replaceChildren(...data.variants.map((v) => el("option", { value: v, selected: v === data.palette }, v)));
  document.getElementById("legend").replaceChildren(...(data.legend.length ? data.legend.map((entry) => {
    const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
    swatch.style.background = entry.hex;  // through the DOM: the page's CSP refuses inline style attributes
    return el("li", { "data-name": entry.name }, swatch,
      el("span", {}, el("strong", {}, entry.name), " ", el("span", { class: "role" }, entry.role),
        el("br"), entry.meaning));
  }) : [el("li", { class: "muted" }, "this game's palette has no legend yet")]));
}

export async function setupLegend() {
  document.getElementById("palette-choice").addEventListener("change", (event) => {
    act("api/game/palette", { palette: event.target.value }, show);
  });
  show(await getJSON("api/game/palette"));
}

// The tile catalogue of the daemon's game: the fields a tile is picked by (each with its
// choices, in the game's own words), for the virtual-tile picker and the tag writer.
"use strict";
import { el, getJSON } from "./api.js";

export const catalogue = { game: "", title: "", game_id: 0, fields: [] };

export async function loadCatalogue() {
  Object.assign(catalogue, await getJSON("api/tiles/catalogue"));
  return catalogue;
}

// One labelled <select> per field into `container`; the ids start with `prefix`.
export function fillFields(container, prefix) {
  container.replaceChildren(...catalogue.fields.map((field) => el("label", {},
    `${field.label} `,
    el("select", { id: `${prefix}-${field.name}`, "data-field": field.name },
      field.choices.map((c) => el("option", { value: c.value, selected: c.value === field.default || null },
        c.label))))));
}

// The tile chosen in `container`'s fields, as the API takes it: {field: value}.
export function chosenTile(container) {
  return Object.fromEntries([...container.querySelectorAll("select[data-field]")]
    .map((select) => [select.dataset.field, select.value]));
}

// A tag's tile in words: the game's name for it, else its payload's fields.
export function tileWords(tile) {
  return tile.words ?? `${tile.game} kind ${tile.kind} colour ${tile.colour} #${tile.serial}`;
}

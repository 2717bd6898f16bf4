// The tile catalogue of the daemon's game (kinds and colours), for pickers and labels.
"use strict";
import { el, getJSON } from "./api.js";

export const catalogue = { game_id: 1, kinds: [], colours: [] };
const CSS_COLOURS = { special: "#999" }; // other colour names are CSS names already

export async function loadCatalogue() {
  Object.assign(catalogue, await getJSON("api/tiles/catalogue"));
  if (!catalogue.kinds.length) { // a game without tile data yet: plain numbers
    catalogue.kinds = [...Array(32).keys()].map((k) => ({ kind: k, code: String(k), name: `kind ${k}` }));
    catalogue.colours = [...Array(16).keys()].map((c) => ({ colour: c, name: `colour ${c}` }));
  }
  return catalogue;
}

export function fillKindSelect(select, valueOf = (k) => k.kind) {
  select.replaceChildren(...catalogue.kinds.map((k) => el("option", { value: valueOf(k) }, `${k.code} — ${k.name}`)));
}

export function fillColourSelect(select, valueOf = (c) => c.colour) {
  select.replaceChildren(...catalogue.colours.map((c) => el("option", { value: valueOf(c) }, c.name)));
}

export function kindName(kind) {
  const found = catalogue.kinds.find((k) => k.kind === kind);
  return found ? found.code : `kind ${kind}`;
}

export function colourName(colour) {
  return catalogue.colours.find((c) => c.colour === colour)?.name ?? `colour ${colour}`;
}

export function colourCSS(colour) {
  const name = colourName(colour);
  return CSS_COLOURS[name] ?? (/^[a-z]+$/.test(name) ? name : "#888");
}

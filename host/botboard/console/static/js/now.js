// The "now" line and the end screen, on the shared screen and on every phone:
// who acts and what to do next, the seats' names in their colours. The daemon
// derives both from the game's state (session/now.py); the page only shows them.
"use strict";
import { el } from "./api.js";

// A seat's name on a chip of its LED colour, in black or white, whichever reads on it: dark blue
// text on the dark page could not be read (set through the DOM: the CSP refuses style attributes).
function seatName(name, colour) {
  const span = el("span", { class: "seat-colour", "data-seat": name }, name);
  const rgb = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour ?? "");
  if (!rgb) {
    span.style.color = colour;
    return span;
  }
  const [r, g, b] = rgb.slice(1).map((h) => parseInt(h, 16));
  span.classList.add("chip");
  span.style.background = colour;
  span.style.color = 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000" : "#fff";
  return span;
}

// ``text`` with every seat name in it coloured; the rest as plain text.
export function colouredWords(text, colours = {}) {
  const names = Object.keys(colours).sort((a, b) => b.length - a.length);
  if (!names.length || !text) return [text ?? ""];
  const pattern = new RegExp(`\\b(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\b`);
  return text.split(pattern).map((part, i) => (i % 2 ? seatName(part, colours[part]) : part));
}

export function showNow(node, now, colours) {
  node.replaceChildren(...colouredWords(now?.text ?? "", colours));
  node.dataset.who = (now?.who ?? []).join(" ");
}

// The end banner: headline, standings per seat (seats level share a place: "=1"), and what
// to take off the board.
export function endScreen(end, colours) {
  const rows = end.standings.map((s, i) => el("tr", { class: s.won ? "won" : "" },
    el("td", {}, `${s.shared ? "=" : ""}${s.place ?? i + 1}`), el("td", {}, seatName(s.name, colours[s.name] ?? s.name)),
    el("td", {}, s.score === null || s.score === undefined ? "" : String(s.score)),
    el("td", {}, s.won ? "winner" : "")));
  return [
    el("h2", { class: "end-headline" }, "Game over: ", ...colouredWords(end.headline, colours)),
    el("table", { class: "standings" }, el("thead", {}, el("tr", {}, ["place", "seat", "score", ""].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)),
    ...(end.tidy ? [el("p", { class: "tidy" }, end.tidy)] : []),
  ];
}

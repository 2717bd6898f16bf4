// A seat's learning aids on its phone: the hint button and the hint it gave,
// and what a kind of tile does when the seat lays it the first time (both this
// seat's alone: the daemon sends them to no one else).
"use strict";
import { act, el } from "./api.js";

export function setupLearning(base, render) {
  document.getElementById("hint-button").addEventListener("click", () =>
    act(`${base}/hint`, {}, (data) => {
      render(data);
      if (!data.hint || data.hint_thinking) document.getElementById("hint").textContent = data.said;
    }));
  document.getElementById("explain-on").addEventListener("change", (event) =>
    act(`${base}/explain`, { on: event.target.checked }, render));
}

export function renderLearning(data) {
  const over = data.view?.phase === "over";  // nothing left to hint at
  document.getElementById("hint-box").hidden = over || (!data.hints && !data.hint);
  document.getElementById("hint-button").disabled = over || !data.hints;
  // a hint asked again is being worked out: the last one's words wait for the new answer
  const hint = data.hint_thinking ? null : data.hint;
  if (data.hint_thinking) document.getElementById("hint").textContent = "still thinking about your move…";
  else if (hint) document.getElementById("hint").textContent = hint.words;
  else if (!data.view?.acting && !data.view?.pending) document.getElementById("hint").textContent = "";
  const explain = data.explain;
  document.getElementById("explain-box").hidden = !explain?.table;
  document.getElementById("explain-on").checked = Boolean(explain?.on);
  document.getElementById("explain").textContent = explain?.text || (explain?.on ? "" : "explanations are off");
  document.getElementById("hint-places").replaceChildren(...(hint?.places ?? []).map((place) =>
    el("li", {}, el("span", { class: "slot-name" }, place.slot), el("span", {}, place.tile))));
}

// The console's games list for review: every journaled game opens in the replay viewer.
"use strict";
import { el, getJSON } from "./api.js";

export async function listReviews() {
  const { games } = await getJSON("api/replay");
  const select = document.getElementById("review-game");
  const open = document.getElementById("review-open");
  select.replaceChildren(...games.map((g) => el("option", { value: String(g.id) },
    `game ${g.id}: ${g.game}, ${g.players} players, ${g.actions} actions` + (g.finished ? "" : " (unfinished)"))));
  const follow = () => { open.href = `replay/${select.value}${location.search}`; };
  select.onchange = follow;
  follow();
  document.getElementById("review-row").hidden = games.length === 0;
}

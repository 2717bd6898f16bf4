// The seats panel: one link and QR code per seat, each opening that seat's
// private view on a player's phone (its own key: no other seat, no console).
"use strict";
import { el, getJSON } from "./api.js";

let asked = null;  // the view's seats the panel was last made for

// The links and QR codes are made by the daemon: ask again only when the seats change
// (a view comes with every animation step).
export async function showSeats(seats = []) {
  const wanted = JSON.stringify(seats);
  if (wanted === asked) return;
  asked = wanted;
  const data = await getJSON("api/seats");
  document.getElementById("seats-note").textContent = data.note;
  document.getElementById("seats").replaceChildren(...(data.seats.length ? data.seats.map((seat) =>
    el("figure", { class: "seat-link" },
      el("img", { src: seat.qr, alt: `QR code of ${seat.name}'s seat link`, width: 148, height: 148 }),
      el("figcaption", {}, el("a", { href: seat.url, target: "_blank", rel: "noopener noreferrer" },
        `${seat.name}'s view`))))
    : [el("p", { class: "muted" }, "no game yet: the seats appear when one starts")]));
}

// The room panel (remote play, at the host): the link the other tables join with, and its
// QR code. The link holds the room's key, so it is shown here and never logged.
export async function showRoom() {
  const room = await getJSON("api/room");
  if (!room.hosting) return;
  document.getElementById("room-panel").hidden = false;
  document.getElementById("room-qr").src = room.qr;
  document.getElementById("room-link").textContent = room.link;
}

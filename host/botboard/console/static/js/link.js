// The link panel (health of the board link) and the live protocol trace:
// decoded frames both ways with timestamps, filterable, pausable.
"use strict";
import { act, el } from "./api.js";

const KEEP = 2000; // frames kept in memory (the filter re-renders from these)
const SHOW = 400; // frames in the list at once
const QUIET = new Set(["ping", "pong", "ack", "nak", "get_state", "state", "get_link_stats", "link_stats"]);
const trace = { frames: [], paused: false, held: 0 };

export function showLink(status) {
  const link = status.link || {};
  const board = link.board || {};
  const pill = document.getElementById("link-state");
  pill.textContent = link.state || "closed";
  pill.className = `pill ${link.connected ? "good" : "bad"}`;
  // the mirror shows what the board last said it shows: dimmed while it says nothing
  document.getElementById("arena").classList.toggle("offline", !link.connected);
  document.getElementById("arena-offline").hidden = Boolean(link.connected);
  // the board's own counters (LINK_STATS) beside the host's: what each side dropped
  const theirs = link.board_link;
  const counted = (value) => theirs ? value : link.board_link_supported === false ? "not reported (old firmware)" : null;
  const rows = {
    connected: link.connected ? "yes" : "no",
    port: link.port, firmware: board.firmware, protocol: board.protocol,
    "board layout": board.layout, "rtt ms": link.rtt_ms == null ? null : link.rtt_ms.toFixed(1),
    "frames in / out": `${link.frames_in ?? 0} / ${link.frames_out ?? 0}`,
    "checksum errors": link.checksum_errors,
    "damage in / out": link.damage ? `${percent(link.damage.in)} / ${percent(link.damage.out)}` : null,
    "frame payload": link.max_payload == null ? null : `${link.max_payload} B`,
    "board checksum errors": counted(theirs && theirs.crc_errors + theirs.cobs_errors),
    retransmits: link.retransmits, "board retransmits": counted(theirs && theirs.retransmits),
    "board oversize frames": counted(theirs && theirs.oversize),
    "board version errors": counted(theirs && theirs.version_errors),
    "board unknown types": counted(theirs && theirs.unknown_types),
    "board heap free": link.heap_free == null ? null : `${link.heap_free} B`,
    reconnects: link.reconnects, "board errors": link.board_errors, "last error": link.last_error || null,
  };
  document.getElementById("link").replaceChildren(...Object.entries(rows).flatMap(([k, v]) =>
    [el("dt", {}, k), el("dd", { "data-key": k }, v ?? "–")]));
  const tools = status.tools || {};
  const simulated = Boolean(status.simulated);
  document.getElementById("sim-badge").hidden = !simulated;
  document.getElementById("sim-actions").hidden = !simulated;
  const plug = document.getElementById("plug-button");
  plug.textContent = tools.plugged === false ? "Replug board" : "Unplug board";
  plug.dataset.plugged = tools.plugged === false ? "no" : "yes";
}

function percent(rate) {
  return `${(100 * rate).toFixed(rate < 0.001 ? 0 : 2)} %`;
}

export function setupTrace() {
  const pause = document.getElementById("trace-pause");
  pause.addEventListener("click", togglePause);
  document.getElementById("trace-clear").addEventListener("click", () => { trace.frames = []; render(); });
  for (const id of ["trace-filter", "trace-dir", "trace-quiet"]) {
    document.getElementById(id).addEventListener("input", render);
  }
  document.getElementById("plug-button").addEventListener("click", (event) => {
    const plugged = event.currentTarget.dataset.plugged !== "yes";
    act("api/sim/plug", { plugged });
  });
}

export function togglePause() {
  trace.paused = !trace.paused;
  const pause = document.getElementById("trace-pause");
  pause.setAttribute("aria-pressed", String(trace.paused));
  pause.textContent = trace.paused ? "Resume" : "Pause";
  if (!trace.paused) { trace.held = 0; render(); }
  count();
}

export function addFrames(frames) {
  trace.frames.push(...frames);
  if (trace.frames.length > KEEP) trace.frames.splice(0, trace.frames.length - KEEP);
  if (trace.paused) { trace.held += frames.length; count(); return; }
  const list = document.getElementById("trace");
  const wanted = frames.filter(matcher());
  list.append(...wanted.map(row));
  while (list.children.length > SHOW) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
  count();
}

function matcher() {
  const text = document.getElementById("trace-filter").value.trim().toLowerCase();
  const dir = document.getElementById("trace-dir").value;
  const quiet = document.getElementById("trace-quiet").checked;
  return (frame) => (!dir || frame.dir === dir) && (!quiet || !QUIET.has(frame.type)) &&
    (!text || describe(frame).toLowerCase().includes(text));
}

function describe(frame) {
  const fields = Object.entries(frame).filter(([k]) => !["t", "dir", "type"].includes(k))
    .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join(" ");
  return `${frame.type} ${fields}`;
}

function row(frame) {
  const time = new Date(frame.t * 1000).toISOString().slice(11, 23);
  return el("li", { class: `frame ${frame.dir}`, "data-type": frame.type },
    el("time", {}, time), el("span", { class: "dir" }, frame.dir === "in" ? "◀ in " : "▶ out"),
    el("span", { class: "type" }, frame.type), " ", describe(frame).slice(frame.type.length + 1));
}

function render() {
  const list = document.getElementById("trace");
  list.replaceChildren(...trace.frames.filter(matcher()).slice(-SHOW).map(row));
  list.scrollTop = list.scrollHeight;
  count();
}

function count() {
  const shown = document.getElementById("trace").children.length;
  document.getElementById("trace-count").textContent =
    `${shown} shown of ${trace.frames.length}` + (trace.paused ? ` · paused, ${trace.held} new` : "");
}

// Minimal console: link status, arena from the layout file, live trace.
"use strict";
const token = new URLSearchParams(location.search).get("token");
const q = token ? `?token=${encodeURIComponent(token)}` : "";

async function drawArena() {
  const layout = await (await fetch(`api/layout${q}`)).json();
  const svg = document.getElementById("arena");
  const size = 20, pts = [];
  layout.cells.forEach(([a, b], i) => {
    const x = layout.grid === "hex" ? size * Math.sqrt(3) * (a + b / 2) : a * size * 1.8;
    const y = layout.grid === "hex" ? size * 1.5 * b : -b * size * 1.8;
    pts.push([x, y, i]);
  });
  const xs = pts.map(p => p[0]), ys = pts.map(p => p[1]);
  svg.setAttribute("viewBox", `${Math.min(...xs) - 2 * size} ${Math.min(...ys) - 2 * size} ` +
    `${Math.max(...xs) - Math.min(...xs) + 4 * size} ${Math.max(...ys) - Math.min(...ys) + 4 * size}`);
  for (const [x, y, i] of pts) {
    const corners = [...Array(6).keys()].map(k => {
      const ang = Math.PI / 180 * (60 * k - 30);
      return `${x + size * Math.cos(ang)},${y + size * Math.sin(ang)}`;
    }).join(" ");
    const hex = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
    hex.setAttribute("points", corners);
    hex.setAttribute("id", `cell-${i}`);
    hex.setAttribute("fill", "#222");
    hex.setAttribute("stroke", "#555");
    svg.appendChild(hex);
  }
}

function showStatus(status) {
  const link = status.link, el = document.getElementById("link-state");
  el.textContent = link.state;
  el.className = "state" + (link.connected ? " connected" : "");
  const rows = {
    port: link.port, firmware: link.board && link.board.firmware,
    layout: status.layout, "rtt ms": link.rtt_ms && link.rtt_ms.toFixed(1),
    "frames in/out": `${link.frames_in}/${link.frames_out}`,
    "checksum errors": link.checksum_errors, retransmits: link.retransmits,
    "board heap free": link.heap_free, "last error": link.last_error,
  };
  document.getElementById("link").innerHTML = Object.entries(rows)
    .map(([k, v]) => `<dt>${k}</dt><dd>${v ?? "–"}</dd>`).join("");
}

function addTrace(msg) {
  const list = document.getElementById("trace");
  const li = document.createElement("li");
  li.textContent = `${new Date(msg.t * 1000).toISOString().slice(11, 23)} ${msg.dir} ${msg.type} ` +
    JSON.stringify(Object.fromEntries(Object.entries(msg).filter(([k]) => !["t", "dir", "type"].includes(k))));
  list.appendChild(li);
  while (list.children.length > 300) list.removeChild(list.firstChild);
  list.scrollTop = list.scrollHeight;
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws${q}`);
  ws.onmessage = (ev) => {
    const event = JSON.parse(ev.data);
    if (event.kind === "status") showStatus(event.status);
    else if (event.kind === "trace") addTrace(event.message);
  };
  ws.onclose = () => setTimeout(connect, 1000);
}

drawArena();
connect();

// Talking to the daemon: JSON over fetch, notices, small DOM helpers.
"use strict";

// the shared console's token, or on a seat's page that seat's key: either goes as a Bearer
const params = new URLSearchParams(location.search);
const token = params.get("token") ?? params.get("key");
const auth = token ? { authorization: `Bearer ${token}` } : {};

export async function getJSON(path) {
  const response = await fetch(path, { headers: auth });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// POST a JSON body; on failure show the daemon's explanation and throw.
export async function post(path, body = {}) {
  const response = await fetch(path, {
    method: "POST", headers: { "content-type": "application/json", ...auth },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    notify(data.error || response.statusText, true);
    throw new Error(data.error || response.statusText);
  }
  return data;
}

// post() for buttons: errors are already shown, nothing else to do with them.
export function act(path, body, done) {
  return post(path, body).then((data) => { if (done) done(data); return data; }, () => null);
}

// path: relative to the page's folder ("ws" for the console, "../ws/seat/N" for a seat)
export function wsURL(path = "ws") {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  if (token) url.searchParams.set(params.has("key") ? "key" : "token", token);
  return url.href;
}

let noticeTimer = 0;
export function notify(text, isError = false) {
  const el = document.getElementById("notice");
  el.textContent = text;
  el.className = isError ? "error" : "ok";
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { el.textContent = ""; }, isError ? 12000 : 4000);
}

// el("button", {type: "button", onclick: f}, "text", child...)
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function svg(tag, attrs = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// A modal yes/no question; resolves true on Confirm. Focus starts on Cancel.
export function confirmDialog(text) {
  const dialog = document.getElementById("confirm-dialog");
  document.getElementById("confirm-text").textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.returnValue = "cancel";
    dialog.showModal();
    document.getElementById("confirm-cancel").focus();
  });
}

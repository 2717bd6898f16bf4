// The emulated Pico: MicroPython's own rp2 build on an emulated RP2040
// (rp2040js), with the board's chips on its pins.  Started by
// host/botboard/chip/board.py, which relays the USB serial to a pty.
//
//   node board.mjs SPEC.json
//   stdin/stdout   the bytes of the Pico's USB CDC serial port, both ways
//   stderr         diagnostics, and one JSON line per reset ({"reset": why})
//   control socket 127.0.0.1:SPEC.control_port, one JSON object a line each
//                  way, the ops of the simulated board's (sim/control.py)
//
// SPEC: image, bootrom       firmware.bin of the rp2 build, the RP2040's boot ROM
//       flash, fs_offset     a littlefs image written at fs_offset (or null: a
//                            Pico that never had the firmware)
//       config               the simulated board's config (slots, chains, coupling)
//       pins                 GPIO numbers (hal_rp2.PINS with board.json's)
//       models               [[host_dir, dir_in_the_models_port], ...]
//       safe_mode            GP28 held low at power-on
//
// What is on the pins (hardware/pinout.md): SPI0 clocks every byte into both
// 74HC595 chains and, while /OE is low, the reader the chain selects; the
// latches and /OE are GPIO outputs; the matrix columns are GPIO inputs the
// chip models pull low; each LED chain's data pin is decoded (ws2812.mjs).
// Time is the emulated clock: an SPI byte takes 8 bit times at the SPI's
// programmed rate, a click holds its key 80 emulated ms, whatever the host.
import fs from "node:fs";
import net from "node:net";
import { GPIOPinState, Simulator, USBCDC } from "rp2040js";

import { attachFlash, FACTORY_STATUS, newCounts, W25Q16JV } from "./flash.mjs";
import { loadModels } from "./models.mjs";
import { Runner } from "./runner.mjs";
import { Strip } from "./ws2812.mjs";

const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const WATCHDOG_BASE = 0x40058; // RP2040 datasheet 4.7.6: WATCHDOG at 0x40058000
const WDT_CTRL = 0x00;
const WDT_LOAD = 0x04;
const WDT_TRIGGER = 1 << 31; // CTRL bit 31: reset now (machine.reset())
const WDT_ENABLE = 1 << 30;
const HOLD_MS = { click: 80, long: 1200 }; // as the unix-port board's control socket holds them
// The emulator's warnings (registers it does not model, such as the QSPI pads
// the boot code sets up) are counted, not printed; its errors are printed.
const unmodelled = new Map();
console.warn = (...args) => logger.warn("console", args.join(" ")); // rp2040js warns through it too
const logger = {
  debug() {}, info() {},
  warn: (tag, msg) => unmodelled.set(`${tag}: ${msg}`, (unmodelled.get(`${tag}: ${msg}`) || 0) + 1),
  error: (tag, msg) => {
    if (!unmodelled.has(`${tag}: ${msg}`)) process.stderr.write(`rp2040js ${tag}: ${msg}\n`); // once each
    logger.warn(tag, msg);
  },
};

const image = fs.readFileSync(spec.image);
const rom = fs.readFileSync(spec.bootrom);
const bootrom = new Uint32Array(rom.buffer, rom.byteOffset, rom.length >> 2);
const models = await loadModels(spec.models, spec.config);
const pins = spec.pins;
const stats = { resets: [], watchdogGapMaxUs: 0, watchdogFeeds: 0, cdcIn: 0, cdcOut: 0, started: Date.now(),
                matrixGapMaxUs: 0, rowLoadAt: 0 };

let flash = null; // carried across resets: the filesystem is the flash's
const flashStatus = FACTORY_STATUS.slice(); // the flash chip's non-volatile status bits, likewise
const flashCounts = newCounts(); // what the flash chip did, over all resets
let board = null;
const toDevice = { chunks: [], at: 0 }; // host bytes the CDC has not taken yet
// the last chunks the Pico sent, each with its emulated time: the benchmark finds
// the frame an input caused and when it left (the control socket's "sent")
const sent = [];
const SENT_KEPT = 512;
const keyCount = spec.config.buttons + (spec.config.touch ? spec.config.cells : 0);
const keys = new Map(); // key -> a promise chain of what was asked of it

function boot() {
  const sim = new Simulator();
  const mcu = sim.rp2040;
  mcu.logger = logger;
  mcu.loadBootrom(bootrom);
  if (flash === null) {
    mcu.flash.set(image, 0);
    if (spec.flash) mcu.flash.set(fs.readFileSync(spec.flash), spec.fs_offset);
  } else {
    mcu.flash.set(flash);
  }
  flash = mcu.flash;
  const clock = sim.clock;
  const micros = () => Math.floor(clock.nanos / 1000);
  const b = { sim, mcu, clock, micros, columns: 0, runner: new Runner(mcu, clock) };
  // a fresh chip state each start: boot2 runs first here (the boot ROM's
  // flash_exit_xip is skipped), so the chip must not still be in continuous read
  b.flash = new W25Q16JV(mcu.flash, flashStatus, clock, flashCounts);
  attachFlash(mcu, clock, b.flash);
  wireSerial(b);
  wireSpi(b);
  wirePins(b);
  wireWatchdog(b);
  b.strip = new Strip(mcu, () => b.runner.edgeNs, () => clock.nanos, spec.config.chains,
                      spec.config.leds_per_cell, (sense) => pulse(mcu, sense));
  mcu.core.PC = 0x10000000; // boot2 at the start of flash, as the boot ROM would jump
  b.runner.start();
  return b;
}

function wireSerial(b) {
  const cdc = new USBCDC(b.mcu.usbCtrl);
  const usb = b.mcu.usbCtrl;
  const read = usb.onEndpointRead;
  // The Pico arms its OUT endpoint and waits.  A real host sends nothing until it
  // has data (the USB controller NAKs in hardware, the CPU never hears of it);
  // rp2040js's CDC would answer at once with an empty packet, an interrupt every
  // few microseconds that stole most of the emulated CPU.  So a read with
  // nothing to give waits here until the host writes.
  b.pendingRead = null;
  b.serveRead = () => {
    if (!b.pendingRead || !(toDevice.chunks.length || !cdc.txFIFO.empty)) return;
    const [endpoint, size] = b.pendingRead;
    b.pendingRead = null;
    const q = toDevice; // top up the CDC's FIFO from what the host sent (it holds 512 bytes)
    while (q.chunks.length && !cdc.txFIFO.full) {
      cdc.sendSerialByte(q.chunks[0][q.at++]);
      if (q.at === q.chunks[0].length) {
        q.chunks.shift();
        q.at = 0;
      }
    }
    read(endpoint, size);
  };
  usb.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return read(endpoint, size);
    b.pendingRead = [endpoint, size];
    b.serveRead();
  };
  cdc.onDeviceConnected = () => process.stderr.write(JSON.stringify({ usb: "connected" }) + "\n");
  cdc.onSerialData = (data) => {
    stats.cdcOut += data.length;
    sent.push([b.micros(), Buffer.from(data).toString("hex")]);
    if (sent.length > SENT_KEPT) sent.shift();
    process.stdout.write(Buffer.from(data));
  };
  b.cdc = cdc;
}

function wireSpi(b) {
  const spi = b.mcu.spi[0];
  let pending = 0;
  const done = b.clock.createAlarm(() => spi.completeTransmit(models.xfer(pending, b.micros())));
  spi.onTransmit = (value) => {
    pending = value;
    const hz = spi.clockFrequency || 10_000_000;
    done.schedule(Math.round(8e9 / hz)); // 8 bits at the SPI's own clock
  };
}

function level(state, pulledUp) {
  if (state === GPIOPinState.High) return 1;
  if (state === GPIOPinState.Low) return 0;
  return pulledUp ? 1 : 0; // Hi-Z: the board's pull-up (on /OE) or pull-down
}

function wirePins(b) {
  const { mcu } = b;
  const watch = (pin, which, pulledUp) => {
    let last = level(mcu.gpio[pin].value, pulledUp);
    mcu.gpio[pin].addListener((state) => {
      const v = level(state, pulledUp);
      if (v === last) return;
      last = v;
      setColumns(b, models.latch(which, v, b.micros()));
      if (which === "row" && v) noteScan(b.micros());
    });
    models.latch(which, last, b.micros());
  };
  watch(pins.cs_latch, "cs", false);
  watch(pins.cs_oe, "oe", true); // 10 k pull-up (pinout.md)
  watch(pins.row_latch, "row", false);
  setColumns(b, 0, true);
  mcu.gpio[pins.safe].setInputValue(!spec.safe_mode); // the button to ground, pulled up
}

function setColumns(b, mask, force = false) {
  if (mask === b.columns && !force) return;
  b.columns = mask;
  pins.cols.forEach((pin, c) => b.mcu.gpio[pin].setInputValue(!((mask >> c) & 1)));
}

function pulse(mcu, pin) {
  mcu.gpio[pin].setInputValue(true);
  mcu.gpio[pin].setInputValue(false);
}

function wireWatchdog(b) {
  const wd = b.mcu.peripherals[WATCHDOG_BASE];
  const write = wd.writeUint32.bind(wd);
  let enabled = false;
  let fedAt = 0;
  wd.writeUint32 = (offset, value) => {
    if (offset === WDT_CTRL) {
      if (value & WDT_TRIGGER) b.resetWhy = "machine.reset()";
      if (value & WDT_ENABLE && !enabled) fedAt = b.micros();
      enabled = Boolean(value & WDT_ENABLE);
    } else if (offset === WDT_LOAD && enabled) {
      const now = b.micros();
      stats.watchdogGapMaxUs = Math.max(stats.watchdogGapMaxUs, now - fedAt);
      stats.watchdogFeeds++;
      fedAt = now;
    }
    write(offset, value);
  };
  wd.onWatchdogTrigger = () => setImmediate(() => restart(b.resetWhy || "watchdog timeout"));
}

function restart(why) {
  board.runner.stop();
  stats.resets.push({ why, at_us: board.micros() });
  process.stderr.write(JSON.stringify({ reset: why }) + "\n");
  board = boot();
}

// -- hands: keys held for emulated time -------------------------------------
// A key let go is kept down until the firmware's matrix scan has read it down
// twice and a click's 80 emulated ms have passed, however soon the release is
// asked for: the host's clock runs several times faster than the emulated
// one, and the firmware's scan comes only as often as its other tasks let it
// (the unix-port board likewise keeps a key down until its scan saw it).
// stats.matrix_gap_max_us says how long a press must last to be seen at all.
const SEEN_SCANS = 2;
const SEEN_PATIENCE_US = 10_000_000; // a key no scan reaches (the firmware stopped)
const held = new Map(); // key -> {since: emulated us, scans: row loads that read it down}

function noteScan(now) {
  if (stats.rowLoadAt) stats.matrixGapMaxUs = Math.max(stats.matrixGapMaxUs, now - stats.rowLoadAt);
  stats.rowLoadAt = now;
  for (const [k, h] of held) if ((board.columns >> (k % pins.cols.length)) & 1) h.scans++;
}

function press(k, action) {
  if (!(Number.isInteger(k) && k >= 0 && k < keyCount)) throw new Error(`no button or touch pad ${k} on this board`);
  const steps = action === "release" ? [[0, 0]]
    : action === "press" ? [[1, 0]] : [[1, HOLD_MS[action] ?? HOLD_MS.click], [0, 0]];
  const previous = keys.get(k) || Promise.resolve();
  keys.set(k, previous.then(() => runSteps(k, steps)).catch((err) => process.stderr.write(`key ${k}: ${err}\n`)));
}

async function runSteps(k, steps) {
  for (const [down, holdMs] of steps) {
    if (down) held.set(k, { since: board.micros(), scans: 0 });
    else if (held.has(k)) await untilSeen(k, held.get(k));
    if (!down) held.delete(k);
    setColumns(board, models.key(k, down));
    if (holdMs) await emulatedDelay(holdMs * 1000);
  }
}

async function untilSeen(k, h) {
  const click = HOLD_MS.click * 1000;
  while (board.micros() - h.since < SEEN_PATIENCE_US) {
    const long = board.micros() - h.since;
    if (h.scans >= SEEN_SCANS && long >= click) return;
    await emulatedDelay(long < click ? click - long : 1000);
  }
}

function emulatedDelay(us) {
  return new Promise((resolve) => {
    const alarm = board.clock.createAlarm(resolve);
    alarm.schedule(us * 1000);
  });
}

// -- the control socket -------------------------------------------------------
function answer(req, line) {
  const reply = act(req, line);
  reply.emulated_us = board.micros(); // when it was done, on the Pico's clock
  return reply;
}

// command -> first frame: the host's next bytes after watch_led, and the frame that shows them
const watch = { armed: false, arrivedUs: null };

function frameShownUs() {
  board.strip.leds(); // a frame whose latch time has passed counts as latched
  const w = board.strip.watched();
  return w && w.shownNs !== null ? Math.round(w.shownNs / 1000) : null;
}

function profileAnswer(runner) {
  const samples = runner.profile ? [...runner.profile].sort((a, b) => b[1] - a[1]) : [];
  const idleUs = runner.idleNs / 1000;
  runner.profile = new Map();
  runner.idleNs = 0;
  return { ok: true, idle_us: idleUs, samples };
}

function statsAnswer(resetPeaks) {
  const reply = { ok: true, emulated_us: board.micros(), host_ms: Date.now() - stats.started,
                  watchdog_gap_max_us: stats.watchdogGapMaxUs, watchdog_feeds: stats.watchdogFeeds,
                  matrix_gap_max_us: stats.matrixGapMaxUs,
                  resets: stats.resets, cdc_in: stats.cdcIn, cdc_out: stats.cdcOut, flash: board.flash.counts,
                  ws2812: board.strip.timing() };
  if (resetPeaks) stats.watchdogGapMaxUs = stats.matrixGapMaxUs = 0;
  return reply;
}

function act(req, line) {
  switch (req.op) {
    case "place": case "remove": case "heat": case "tag":
      return JSON.parse(models.control(line, board.micros()));
    case "button":
      press(req.button, req.action || "click");
      return { ok: true };
    case "touch":
      press(spec.config.buttons + req.cell, req.action || "click");
      return { ok: true };
    case "sent": // what the Pico sent since an emulated time: [[us, hex], ...]
      return { ok: true, sent: sent.filter(([t]) => t >= (req.since_us || 0)) };
    case "watch_led": // from now: when the host's next bytes arrive, when a frame changes this LED
      board.strip.watch(req.led);
      watch.arrivedUs = null;
      watch.armed = true;
      return { ok: true };
    case "watched":
      return { ok: true, arrived_us: watch.arrivedUs, shown_us: frameShownUs() };
    case "leds":
      return { ok: true, leds: Buffer.from(board.strip.leds()).toString("hex"), frames: board.strip.frames() };
    case "profile": // where the core spends its instructions, sampled: since the last call
      return profileAnswer(board.runner);
    case "stats": // peaks: "reset" measures the longest gaps afresh from this answer on
      return statsAnswer(req.peaks === "reset");
    default:
      return { ok: false, error: `the emulated Pico has no op ${JSON.stringify(req.op)}` +
               (req.op === "cells" || req.op === "flood" ? " (it needs the firmware's insides: use the unix-port board)" : "") };
  }
}

function serveControl(port) {
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    let buffered = "";
    socket.on("data", (chunk) => {
      buffered += chunk.toString("utf8");
      let nl;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let reply;
        try {
          reply = answer(JSON.parse(line), line);
        } catch (err) {
          reply = { ok: false, error: String(err.message || err) };
        }
        socket.write(JSON.stringify(reply) + "\n");
      }
    });
    socket.on("error", () => {});
  });
  server.listen(port, "127.0.0.1");
}

process.stdin.on("data", (chunk) => {
  stats.cdcIn += chunk.length;
  if (watch.armed && watch.arrivedUs === null) watch.arrivedUs = board.micros();
  toDevice.chunks.push(chunk);
  board.serveRead();
});
process.stdin.on("end", () => process.exit(0)); // the launcher is gone
board = boot();
serveControl(spec.control_port);


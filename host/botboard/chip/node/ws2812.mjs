// WS2812B chains read off the emulated Pico's data pins, edge by edge, as the
// LEDs themselves read them: each bit is a high pulse, a long one a 1, and a
// low longer than the latch time ends the frame.  Every high and low time is
// kept (shortest and longest per kind), so the bit timing the PIO program
// really makes on the pin is checked against the datasheets' windows by the
// host (botboard/chip/ws2812_timing.py), not only the program's words.
//
//   const strip = new Strip(mcu, edgeNs, nowNs, chains, ledsPerCell, onSense)
//       edgeNs() when a pin change happened, nowNs() the emulated time (ns)
//       chains: [[pin, first_cell, cells, sense_pin?], ...] as board.json has
//       them, with ledsPerCell; onSense(pin) pulses a sense pin when data
//       leaves the chain's last LED
//   strip.leds() -> Uint8Array   GRB of every LED, all chains in order (as
//                                the firmware's strip.buf)
//   strip.watch(led); strip.watched().shownNs   when a frame first changed that LED
//   strip.timing() -> {T0H: [min, max], T1H, T0L, T1L} in ns, and counts
import { GPIOPinState } from "rp2040js";

// A bit's high pulse longer than this is a 1.  The parts decide by sampling
// the line once after the rising edge; the classic WS2812B's T0H is at most
// 550 ns and its T1H at least 650 ns (the V5's 380 and 580): 600 splits both.
const ONE_ABOVE_NS = 600;
// Low this long ends a frame: the classic part latches after 50 us.
const LATCH_NS = 50_000;

class Chain {
  constructor(leds, timing, onBeyond) {
    this.shown = new Uint8Array(3 * leds);
    this.incoming = new Uint8Array(3 * leds);
    this.bits = 0; // bits of the frame being received
    this.rise = -1; // when the line last went high (ns)
    this.fall = -1;
    this.timing = timing;
    this.onBeyond = onBeyond;
    this.frames = 0;
  }

  edge(level, now) {
    if (level) {
      if (this.fall >= 0) {
        const low = now - this.fall;
        if (low >= LATCH_NS) this.latch(this.fall + LATCH_NS);
        else this.timing.note(this.lastBit ? "T1L" : "T0L", low);
      }
      this.rise = now;
      return;
    }
    if (this.rise < 0) return;
    const high = now - this.rise;
    const bit = high > ONE_ABOVE_NS ? 1 : 0;
    this.timing.note(bit ? "T1H" : "T0H", high);
    this.lastBit = bit;
    const i = this.bits >> 3;
    if (i < this.incoming.length) {
      if ((this.bits & 7) === 0) this.incoming[i] = 0;
      this.incoming[i] |= bit << (7 - (this.bits & 7));
    } else if ((this.bits & 7) === 0 && this.onBeyond) {
      this.onBeyond(); // the first LED past the chain's end sends this on
    }
    this.bits++;
    this.fall = now;
  }

  latch(atNs) {
    if (this.bits >= 8) {
      const n = Math.min(this.bits >> 3, this.incoming.length);
      this.shown.set(this.incoming.subarray(0, n));
      this.frames++;
      if (this.onLatch) this.onLatch(atNs);
    }
    this.bits = 0;
  }

  settle(now) {
    // a frame whose latch time has passed with no edge since
    if (this.bits && this.fall >= 0 && now - this.fall >= LATCH_NS) {
      this.latch(this.fall + LATCH_NS);
      this.fall = -1;
    }
  }
}

class Timing {
  constructor() {
    this.kinds = {};
  }

  note(kind, ns) {
    const k = this.kinds[kind] || (this.kinds[kind] = [Infinity, -Infinity, 0]);
    if (ns < k[0]) k[0] = ns;
    if (ns > k[1]) k[1] = ns;
    k[2]++;
  }

  report() {
    const out = {};
    for (const [kind, [lo, hi, n]] of Object.entries(this.kinds)) out[kind] = { min: lo, max: hi, count: n };
    return out;
  }
}

export class Strip {
  constructor(mcu, edgeNs, nowNs, chains, ledsPerCell, onSense) {
    this.nowNs = nowNs;
    this.timingData = new Timing();
    this.chains = chains.map(([pin, , cells, sense]) => {
      const chain = new Chain(cells * ledsPerCell, this.timingData,
                              sense === undefined ? null : () => onSense(sense));
      mcu.gpio[pin].addListener((state) => chain.edge(state === GPIOPinState.High, edgeNs()));
      return chain;
    });
  }

  leds() {
    const now = this.nowNs();
    const total = this.chains.reduce((n, c) => n + c.shown.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of this.chains) {
      c.settle(now);
      out.set(c.shown, at);
      at += c.shown.length;
    }
    return out;
  }

  frames() {
    return Math.min(...this.chains.map((c) => c.frames));
  }

  // Watch one LED (its index over all chains) until a latched frame changes it:
  // watched().shownNs is when that frame reached the LEDs.
  watch(led) {
    let at = 3 * led;
    const chain = this.chains.find((c) => (at < c.shown.length ? true : ((at -= c.shown.length), false)));
    if (!chain) throw new Error(`no LED ${led} on this board`);
    const before = chain.shown.slice(at, at + 3);
    const w = (this.watching = { shownNs: null });
    chain.onLatch = (atNs) => {
      if (w.shownNs === null && chain.shown.subarray(at, at + 3).some((v, i) => v !== before[i])) w.shownNs = atNs;
    };
  }

  watched() {
    return this.watching;
  }

  timing() {
    return this.timingData.report();
  }
}

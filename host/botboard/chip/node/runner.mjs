// Runs the emulated RP2040's core and its PIO state machines in step, on one
// emulated clock.
//
//   const runner = new Runner(mcu, clock)    runner.start(); runner.stop()
//   runner.edgeNs                            when the pin change being
//                                            reported happened (ns): a PIO
//                                            instruction's own cycle
//
// Why not rp2040js's Simulator.execute: there the PIO blocks run in their own
// timer loop, a thousand instructions at a time whatever their clock divider
// and delays, so a pin a state machine drives changes at no particular
// emulated time.  Here each enabled state machine executes its next
// instruction when the emulated clock reaches it: one instruction and its
// delay cycles take (1 + delay) x CLKDIV system cycles (RP2040 datasheet
// 3.5.5), so the WS2812 waveform on the pin has the program's real timing.
// A machine stalled on an empty TX FIFO waits without being stepped.
const SYS_HZ = 125_000_000; // the Pico's system clock as MicroPython sets it
const CYCLE_NS = 1e9 / SYS_HZ;
const BATCH = 200_000; // core instructions between looks at the host's I/O

export class Runner {
  constructor(mcu, clock) {
    this.mcu = mcu;
    this.clock = clock;
    this.stopped = true;
    this.edgeNs = 0;
    this.machines = [];
    for (const pio of mcu.pio) {
      pio.run = () => {}; // its own timer loop: replaced by ours
      for (const sm of pio.machines) this.machines.push({ pio, sm, nextNs: 0 });
    }
  }

  start() {
    this.stopped = false;
    setImmediate(() => this.batch());
  }

  stop() {
    this.stopped = true;
  }

  batch() {
    if (this.stopped) return;
    const { mcu, clock } = this;
    const core = mcu.core;
    for (let i = 0; i < BATCH && !this.stopped; i++) {
      if (core.waiting) {
        // asleep (WFI): on to the next alarm, or the next PIO instruction due
        let step = clock.nanosToNextAlarm;
        const due = this.nextPioNs() - clock.nanos;
        if (due < step) step = Math.max(due, CYCLE_NS);
        clock.tick(step);
      } else {
        clock.tick(core.executeInstruction() * CYCLE_NS);
      }
      this.stepPio(clock.nanos);
    }
    setImmediate(() => this.batch());
  }

  nextPioNs() {
    let next = Infinity;
    for (const m of this.machines) {
      if (m.sm.enabled && !(m.sm.waiting && m.sm.txFIFO.empty) && m.nextNs < next) next = m.nextNs;
    }
    return next;
  }

  stepPio(now) {
    for (const m of this.machines) {
      const sm = m.sm;
      if (!sm.enabled) continue;
      if (sm.waiting && sm.txFIFO.empty) {
        m.nextNs = Math.max(m.nextNs, now); // stalled: looks again once data is there
        continue;
      }
      const divNs = (sm.clockDivInt + sm.clockDivFrac / 256 || 1) * CYCLE_NS;
      if (m.nextNs < now - 1000 * divNs) m.nextNs = now; // enabled just now
      while (m.nextNs <= now) {
        this.edgeNs = m.nextNs;
        const before = sm.cycles;
        sm.step();
        m.pio.checkChangedPins();
        m.nextNs += Math.max(1, sm.cycles - before) * divNs;
        if (sm.waiting && sm.txFIFO.empty) break;
      }
    }
    this.edgeNs = now;
  }
}

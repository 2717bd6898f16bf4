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
// A machine stalled on an empty TX FIFO waits without being stepped, and the
// machines are looked at only when one is due or something woke them (a push
// into a TX FIFO, a write to a PIO's registers): most core instructions cost
// one comparison more.
const SYS_HZ = 125_000_000; // the Pico's system clock as MicroPython sets it
export const CYCLE_NS = 1e9 / SYS_HZ;
const BATCH = 200_000; // core instructions between looks at the host's I/O

export class Runner {
  constructor(mcu, clock) {
    this.mcu = mcu;
    this.clock = clock;
    this.stopped = true;
    this.edgeNs = 0;
    this.machines = [];
    this.profile = null; // Map of PC -> instructions sampled there, while profiling
    this.idleNs = 0; // emulated time asleep (WFI) while profiling
    this.dueNs = Infinity; // the next PIO instruction due
    this.woken = true; // something may have started or fed a machine
    const wake = () => {
      this.woken = true;
    };
    for (const pio of mcu.pio) {
      pio.run = () => {}; // its own timer loop: replaced by ours
      const write = pio.writeUint32.bind(pio);
      pio.writeUint32 = (offset, value) => {
        write(offset, value);
        wake();
      };
      for (const sm of pio.machines) {
        const push = sm.txFIFO.push.bind(sm.txFIFO);
        sm.txFIFO.push = (value) => {
          push(value);
          wake();
        };
        this.machines.push({ pio, sm, nextNs: 0 });
      }
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
        const due = this.dueNs - clock.nanos;
        if (due < step) step = Math.max(due, CYCLE_NS);
        if (this.profile) this.idleNs += step;
        clock.tick(step);
      } else {
        if (this.profile && (i & 63) === 0) {
          const pc = core.PC;
          this.profile.set(pc, (this.profile.get(pc) || 0) + 1);
        }
        clock.tick(core.executeInstruction() * CYCLE_NS);
      }
      if (this.woken || clock.nanos >= this.dueNs) this.stepPio(clock.nanos);
    }
    setImmediate(() => this.batch());
  }

  stepPio(now) {
    this.woken = false;
    let due = Infinity;
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
      if (!(sm.waiting && sm.txFIFO.empty) && m.nextNs < due) due = m.nextNs;
    }
    this.dueNs = due;
    this.edgeNs = now;
  }
}

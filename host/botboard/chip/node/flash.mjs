// The Pico's flash chip, a Winbond W25Q16JV (16 Mbit, 2 MB), on the emulated
// QSPI: rp2040js reads XIP straight out of mcu.flash but has no flash chip
// behind its SSI, so nothing could erase or program it (MicroPython's
// filesystem could not be made or written).  Here the chip answers the SSI's
// data register, framed by its chip select, and erases and programs
// mcu.flash itself, so XIP reads see what was written.
//
//   attachFlash(mcu, clock, chip)     wires a chip to the SSI and IO_QSPI
//   new W25Q16JV(mcu.flash, nv, clock, counts)
//                                     nv: the non-volatile status bits, kept
//                                     across resets as the array is; counts:
//                                     erases, programs, commands ignored
//
// The chip (Winbond's W25Q16JV datasheet: status registers, instructions):
// - instructions 06h/04h/50h write enable/disable/volatile enable, 05h/35h/
//   15h read status 1/2/3, 01h/31h/11h write status, 03h read, 0Bh fast read
//   (and 3Bh/6Bh, 8 dummy clocks), BBh/EBh dual/quad I/O read with its
//   continuous-read mode (mode bits M5-4 = 10), 02h/32h page program, 20h/52h/
//   D8h 4/32/64 KB erase, C7h/60h chip erase, 9Fh JEDEC ID, 90h and ABh
//   device ID (ABh also leaves power-down, B9h), 4Bh unique ID, 66h+99h reset;
// - erase, program and status writes need WEL (06h) and happen when /CS goes
//   high after whole bytes; WEL clears when they finish;
// - while BUSY only the status reads are answered: everything else is ignored;
// - a page program wraps within its 256-byte page and only clears bits.
// Not modelled: block protection (BP/TB/SEC/CMP are kept but protect nothing),
// the security registers, SFDP, suspend/resume, QPI mode.
//
// The SSI side (RP2040 datasheet 4.10, the DW_apb_ssi): a frame of DFS_32+1
// bits takes that many SCK periods of BAUDR system clocks; the TX FIFO drains
// at that rate and each frame's answer lands in the RX FIFO as it ends.  /CS
// is the SSI's own (low while its TX FIFO has data or a frame is shifting)
// unless IO_QSPI's GPIO_QSPI_SS_CTRL OUTOVER forces it low or high, as the
// boot ROM and pico-sdk's hardware_flash do around each command.
import { CYCLE_NS } from "./runner.mjs";

const SIZE = 2 * 1024 * 1024; // 16 Mbit
const PAGE = 256; // Page Program (02h): up to 256 bytes of one page
const ERASES = { 0x20: 4096, 0x52: 32 * 1024, 0xd8: 64 * 1024 }; // Sector, 32KB and 64KB Block Erase
// AC Electrical Characteristics, typical times
const T_W_NS = 10e6; // tW write status register 10 ms
const T_PP_NS = 0.4e6; // tPP page program 0.4 ms
const T_ERASE_NS = { 0x20: 45e6, 0x52: 120e6, 0xd8: 150e6 }; // tSE 45 ms, tBE1 120 ms, tBE2 150 ms
const T_CE_NS = 5e9; // tCE chip erase 5 s
const T_RST_NS = 30e3; // tRST 30 us after 66h 99h
const JEDEC_ID = [0xef, 0x40, 0x15]; // Manufacturer and Device Identification: Winbond EFh, type 40h, capacity 15h
const DEVICE_ID = 0x14; // 90h / ABh device ID
// Read Unique ID (4Bh): 64 bits unique to each part; this one is made up
const UNIQUE_ID = [0xe6, 0x60, 0x58, 0x38, 0x83, 0x4a, 0x2b, 0x21];
// Status Register-1: BUSY bit 0, WEL bit 1; writable BP0-2, TB, SEC, SRP (bits 2-7)
const BUSY = 0x01;
const WEL = 0x02;
const WRITABLE = [0xfc, 0x7b, 0x64]; // SR2: SRL, QE, LB1-3, CMP; SR3: WPS, DRV0-1
const OTP_SR2 = 0x38; // LB1-3 are one-time programmable: once set they stay
// parts ordered as "IQ" (the Pico's W25Q16JVUXIQ) leave the factory with QE (SR2 bit 1) set
export const FACTORY_STATUS = [0x00, 0x02, 0x60];

const READ_STATUS = { 0x05: 0, 0x35: 1, 0x15: 2 };
const WRITE_STATUS = { 0x01: 0, 0x31: 1, 0x11: 2 };
// reads: address bytes, then mode byte (I/O reads), then dummy bytes, then data
const READS = {
  0x03: { mode: false, dummy: 0 },
  0x0b: { mode: false, dummy: 1 }, // 8 dummy clocks
  0x3b: { mode: false, dummy: 1 },
  0x6b: { mode: false, dummy: 1 },
  0xbb: { mode: true, dummy: 0 }, // M7-0 takes the 4 clocks after the address
  0xeb: { mode: true, dummy: 2 }, // M7-0, then 4 dummy clocks on 4 lines
};

// what the chip did, for the control socket's stats: a command ignored (busy, or
// without WEL) is code that did not wait or did not enable, as on a real chip
export function newCounts() {
  return { erases: 0, programs: 0, ignored_busy: 0, ignored_no_wel: 0 };
}

export class W25Q16JV {
  constructor(array, nv, clock, counts = newCounts()) {
    this.mem = array;
    this.nv = nv; // [sr1, sr2, sr3] as last written non-volatile
    this.sr = nv.slice(); // what the chip runs on (50h writes only these)
    this.clock = clock;
    this.busyUntil = 0;
    this.wel = false;
    this.volatileWrite = false; // 50h given: the next status write is volatile
    this.continuous = null; // the I/O read instruction continuous-read mode repeats
    this.welHeld = false; // WEL as a write in progress reads it
    this.poweredDown = false;
    this.resetEnabled = false;
    this.selected = false;
    this.counts = counts;
  }

  busy() {
    return this.clock.nanos < this.busyUntil;
  }

  status(n) {
    if (n > 0) return this.sr[n];
    const busy = this.busy();
    // WEL reads 1 until the operation that used it has finished
    return (this.sr[0] & WRITABLE[0]) | (busy ? BUSY | (this.welHeld ? WEL : 0) : this.wel ? WEL : 0);
  }

  select() {
    this.selected = true;
    this.bytes = [];
    this.cmd = null;
    this.data = null; // a page program's buffer
    if (this.continuous !== null) {
      this.cmd = this.continuous; // the frame starts with the address
      this.bytes.push(this.cmd);
    }
  }

  // one byte in on the data line(s), one byte out
  exchange(b) {
    const i = this.bytes.length;
    this.bytes.push(b);
    if (i === 0) {
      this.cmd = b;
      return 0xff;
    }
    const cmd = this.cmd;
    if (cmd in READ_STATUS) return this.status(READ_STATUS[cmd]); // answered while busy too
    if (this.busy() || (this.poweredDown && cmd !== 0xab)) return 0xff;
    if (cmd in READS) {
      const r = READS[cmd];
      const first = 4 + (r.mode ? 1 : 0) + r.dummy;
      if (i < first) return 0xff;
      return this.mem[(this.address() + i - first) % SIZE];
    }
    if (cmd === 0x02 || cmd === 0x32) {
      if (i >= 4) {
        if (this.data === null) this.data = new Int16Array(PAGE).fill(-1);
        this.data[(this.address() + i - 4) % PAGE] = b; // wraps within the page; the last 256 win
      }
      return 0xff;
    }
    switch (cmd) {
      case 0x9f: return i <= 3 ? JEDEC_ID[i - 1] : 0xff;
      case 0x90: return i >= 4 ? ((i - 4 + this.bytes[3]) & 1 ? DEVICE_ID : JEDEC_ID[0]) : 0xff;
      case 0xab: return i >= 4 ? DEVICE_ID : 0xff;
      case 0x4b: return i >= 5 && i < 13 ? UNIQUE_ID[i - 5] : 0xff;
      default: return 0xff;
    }
  }

  address() {
    return ((this.bytes[1] << 16) | (this.bytes[2] << 8) | this.bytes[3]) % SIZE;
  }

  // /CS high: what the frame asked for is done now
  deselect() {
    if (!this.selected) return;
    this.selected = false;
    const { cmd, bytes } = this;
    const n = bytes.length;
    if (this.continuous !== null) {
      // continuous read goes on only while the mode bits say so (M5-4 = 10); a
      // shorter frame (the FFh reset) or other mode bits end it
      const r = READS[this.continuous];
      if (!(r && r.mode && n > 4 && (bytes[4] & 0x30) === 0x20)) this.continuous = null;
      return;
    }
    if (n === 0) return;
    if (cmd in READS && READS[cmd].mode && n > 4 && (bytes[4] & 0x30) === 0x20 && !this.busy()) {
      this.continuous = cmd;
    }
    if (cmd === 0x99 && this.resetEnabled && n === 1) {
      this.reset();
      return;
    }
    this.resetEnabled = cmd === 0x66 && n === 1;
    if (cmd === 0xab && n >= 1) this.poweredDown = false;
    if (this.busy() || this.poweredDown || cmd in READ_STATUS) {
      if (this.busy() && !(cmd in READ_STATUS)) this.counts.ignored_busy++;
      return;
    }
    if (cmd === 0x06 && n === 1) this.wel = true;
    else if (cmd === 0x04 && n === 1) this.wel = false;
    else if (cmd === 0x50 && n === 1) this.volatileWrite = true;
    else if (cmd === 0xb9 && n === 1) this.poweredDown = true;
    else if (cmd in WRITE_STATUS && n >= 2) this.writeStatus(WRITE_STATUS[cmd], bytes.slice(1));
    else if (cmd in ERASES && n === 4) this.erase(cmd);
    else if ((cmd === 0xc7 || cmd === 0x60) && n === 1) this.chipErase();
    else if ((cmd === 0x02 || cmd === 0x32) && n > 4) this.program();
  }

  // a write needs WEL; it clears again when the write is done
  startWrite(ns) {
    if (!this.wel) {
      this.counts.ignored_no_wel++;
      return false;
    }
    this.wel = false;
    this.welHeld = true;
    this.busyUntil = this.clock.nanos + ns;
    return true;
  }

  writeStatus(first, values) {
    const volatile = this.volatileWrite;
    this.volatileWrite = false;
    if (!volatile && !this.startWrite(T_W_NS)) return;
    // 01h takes SR1 then SR2 in one frame (Write Status Register)
    values.slice(0, first === 0 ? 2 : 1).forEach((v, k) => {
      const n = first + k;
      const otp = n === 1 ? this.sr[1] & OTP_SR2 : 0;
      this.sr[n] = (this.sr[n] & ~WRITABLE[n]) | (v & WRITABLE[n]) | otp;
      if (!volatile) this.nv[n] = this.sr[n];
    });
  }

  erase(cmd) {
    if (!this.startWrite(T_ERASE_NS[cmd])) return;
    const size = ERASES[cmd];
    const start = this.address() & ~(size - 1);
    this.mem.fill(0xff, start, start + size);
    this.counts.erases++;
  }

  chipErase() {
    if (!this.startWrite(T_CE_NS)) return;
    this.mem.fill(0xff, 0, SIZE);
    this.counts.erases++;
  }

  program() {
    if (this.data === null || !this.startWrite(T_PP_NS)) return;
    const base = this.address() & ~(PAGE - 1);
    for (let k = 0; k < PAGE; k++) {
      if (this.data[k] >= 0) this.mem[base + k] &= this.data[k]; // programming only clears bits
    }
    this.counts.programs++;
  }

  reset() {
    // Enable Reset (66h) then Reset Device (99h): back to the power-on state; the
    // array and the non-volatile bits stay
    this.sr = this.nv.slice();
    this.wel = false;
    this.volatileWrite = false;
    this.continuous = null;
    this.resetEnabled = false;
    this.busyUntil = this.clock.nanos + T_RST_NS;
    this.welHeld = false;
  }
}

// -- the SSI and the chip select -------------------------------------------
const SSI_BASE = 0x18000; // mcu.peripherals key of XIP_SSI (0x18000000)
const IO_QSPI_BASE = 0x40018; // IO_QSPI (0x40018000)
// RP2040 datasheet 4.10.13: SSI registers
const CTRLR0 = 0x00;
const CTRLR1 = 0x04;
const SSIENR = 0x08;
const TXFLR = 0x20;
const RXFLR = 0x24;
const SR = 0x28;
const DR0 = 0x60;
const SR_BUSY = 0x01;
const SR_TFNF = 0x02;
const SR_TFE = 0x04;
const SR_RFNE = 0x08;
const SR_RFF = 0x10;
const FIFO_DEPTH = 16;
const TMOD_TX_ONLY = 1;
// RP2040 datasheet 2.19.6.2: GPIO_QSPI_x_CTRL at 0x04 + 8x; SS is x = 1
const QSPI_CTRL_RESET = 0x1f; // FUNCSEL null
const SS_CTRL = 0x0c;
const OUTOVER_SHIFT = 8; // bits 9:8
const OUTOVER_LOW = 2;
const OUTOVER_HIGH = 3;

export function attachFlash(mcu, clock, chip) {
  const ssi = mcu.peripherals[SSI_BASE];
  const io = mcu.peripherals[IO_QSPI_BASE];
  const rx = []; // [readyNs, value]
  const tx = []; // frames written and not yet shifting: their start times (ns)
  let shiftEnd = 0; // when the last frame written has shifted out
  let enhanced = []; // instruction and address entries of an enhanced-SPI read
  const ctrl = new Map(); // IO_QSPI's six CTRL registers (rp2040js has none)
  const over = () => ((ctrl.get(SS_CTRL) ?? QSPI_CTRL_RESET) >> OUTOVER_SHIFT) & 3;
  const deselectAlarm = clock.createAlarm(() => {
    if (over() < OUTOVER_LOW && clock.nanos >= shiftEnd) chip.deselect();
  });

  const prune = (now) => {
    while (tx.length && tx[0] <= now) tx.shift();
  };
  const clocksNs = (clocks) => clocks * Math.max(2, ssi.baudr & 0xfffe) * CYCLE_NS;

  // /CS for a frame starting now; the chip sees the bytes only while it is low
  const frameStart = (now) => {
    const o = over();
    if (o === OUTOVER_HIGH) return false;
    if (o === OUTOVER_LOW) {
      if (!chip.selected) chip.select();
      return true;
    }
    if (now >= shiftEnd) {
      chip.deselect(); // the FIFO ran dry: /CS went high in between
      chip.select();
    } else if (!chip.selected) chip.select();
    return true;
  };

  // one transfer of `out` bytes then `read` bytes in; answers grouped by `frameBytes`
  const transfer = (out, read, clocks, frameBytes, keep) => {
    const now = clock.nanos;
    const selected = frameStart(now);
    const start = Math.max(now, shiftEnd);
    shiftEnd = start + clocksNs(clocks);
    prune(now);
    tx.push(start);
    const answer = [];
    for (const b of out) answer.push(selected ? chip.exchange(b) : 0xff);
    const data = [];
    for (let k = 0; k < read; k++) data.push(selected ? chip.exchange(0xff) : 0xff);
    const words = read ? data : answer;
    if (keep) {
      for (let k = 0; k < words.length; k += frameBytes) {
        let v = 0;
        for (let j = 0; j < frameBytes; j++) v = (v << 8) | (words[k + j] ?? 0xff);
        if (rx.length < FIFO_DEPTH) rx.push([shiftEnd, v >>> 0]);
      }
    }
    if (over() < OUTOVER_LOW) deselectAlarm.schedule(shiftEnd - now);
  };

  const bytesOf = (value, bits) => {
    const out = [];
    for (let s = Math.ceil(bits / 8) * 8 - 8; s >= 0; s -= 8) out.push((value >>> s) & 0xff);
    return out;
  };

  const writeData = (value) => {
    const c0 = ssi.crtlr0;
    const frf = (c0 >> 21) & 3; // SPI_FRF: 0 standard, 1 dual, 2 quad
    const bits = ((c0 >> 16) & 0x1f) + 1; // DFS_32
    const tmod = (c0 >> 8) & 3;
    if (frf === 0) {
      transfer(bytesOf(value, bits), 0, bits, Math.ceil(bits / 8), tmod !== TMOD_TX_ONLY);
      return;
    }
    // enhanced SPI: the instruction, then the address (with any mode bits), then
    // the wait cycles, then NDF+1 data frames in
    const s = ssi.spictlr0;
    const instBits = [0, 4, 8, 16][(s >> 8) & 3];
    const addrBits = ((s >> 2) & 0xf) * 4;
    enhanced.push(value);
    if (enhanced.length < (instBits ? 1 : 0) + (addrBits ? 1 : 0)) return;
    const [inst, addr] = instBits ? enhanced : [null, enhanced[0]];
    enhanced = [];
    const lines = frf === 1 ? 2 : 4;
    const type = s & 3; // 0: both serial, 1: address wide, 2: both wide
    const wait = (s >> 11) & 0x1f;
    const frames = (ssi.crtlr1 & 0xffff) + 1;
    const out = [...(instBits ? bytesOf(inst, instBits) : []), ...(addrBits ? bytesOf(addr, addrBits) : [])];
    const dummy = Math.floor((wait * (type === 0 ? 1 : lines)) / 8);
    for (let k = 0; k < dummy; k++) out.push(0xff);
    const clocks = instBits / (type === 2 ? lines : 1) + addrBits / (type === 0 ? 1 : lines) + wait +
      (frames * bits) / lines;
    transfer(out, frames * Math.ceil(bits / 8), clocks, Math.ceil(bits / 8), true);
  };

  const ssiRead = ssi.readUint32.bind(ssi);
  const ssiWrite = ssi.writeUint32.bind(ssi);
  const ready = (now) => {
    let n = 0;
    while (n < rx.length && rx[n][0] <= now) n++; // in order: each frame ends after the last
    return n;
  };
  ssi.readUint32 = (offset) => {
    const now = clock.nanos;
    switch (offset) {
      case DR0: {
        if (!rx.length || rx[0][0] > now) return 0; // underflow reads 0
        return rx.shift()[1];
      }
      case TXFLR:
        prune(now);
        return tx.length + enhanced.length;
      case RXFLR:
        return ready(now);
      case SR: {
        prune(now);
        const level = tx.length + enhanced.length;
        const n = ready(now);
        return (now < shiftEnd ? SR_BUSY : 0) | (level < FIFO_DEPTH ? SR_TFNF : 0) |
          (level === 0 ? SR_TFE : 0) | (n ? SR_RFNE : 0) | (n >= FIFO_DEPTH ? SR_RFF : 0);
      }
      default:
        return ssiRead(offset);
    }
  };
  ssi.writeUint32 = (offset, value) => {
    if (offset === DR0) {
      writeData(value >>> 0);
      return;
    }
    ssiWrite(offset, value);
    if (offset === SSIENR && !(value & 1)) {
      // disabling the SSI empties its FIFOs and ends any transfer
      rx.length = 0;
      tx.length = 0;
      enhanced = [];
      shiftEnd = Math.min(shiftEnd, clock.nanos);
      if (over() < OUTOVER_LOW) chip.deselect();
    } else if (offset === CTRLR0 || offset === CTRLR1) {
      enhanced = [];
    }
  };

  const ioRead = io.readUint32.bind(io);
  const ioWrite = io.writeUint32.bind(io);
  const isCtrl = (offset) => offset < 0x30 && (offset & 7) === 4;
  io.readUint32 = (offset) => (isCtrl(offset) ? ctrl.get(offset) ?? QSPI_CTRL_RESET : ioRead(offset));
  io.writeUint32 = (offset, value) => {
    if (!isCtrl(offset)) {
      ioWrite(offset, value);
      return;
    }
    ctrl.set(offset, value >>> 0);
    if (offset !== SS_CTRL) return;
    const o = over();
    if (o === OUTOVER_HIGH) chip.deselect();
    else if (o === OUTOVER_LOW && !chip.selected) chip.select();
    else if (o < OUTOVER_LOW && clock.nanos >= shiftEnd) chip.deselect();
  };
}

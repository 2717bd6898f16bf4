# SPI bus model for the simulated board, and the field of simulated readers.
#
#   bus = SPIBus()                 machine.SPI-like: write, read, readinto,
#                                  write_readinto; bus.bytes counts bytes clocked
#   bus.attach(device, cs, i=0)    device has begin/end/xfer; selected while cs
#                                  (a SimPin) reads 0, or output i of cs (a
#                                  ShiftRegModel) is low
#   bus.cs_changed()               pins call this when a chip select may move
#   SimPin(value, on_change)       Pin-like output that tells someone it moved
#   ShiftRegModel(count)           74HC595 chain: clocked by every bus byte,
#                                  .latch_pin (rising edge copies), .oe_pin
#   field = SimReaderField(count, chain=False)
#       field.spi, field.cs(i)     to build MFRC522(field.spi, field.cs(i))
#       field.place(slot, uid, payload)   a fresh NTAG213 alone in the field
#       (with the coupling model: at the slot's centre)
#   field = SimReaderField(count, coupling=MODEL, slot_mm=PLACES): tags heard by
#       distance (sim/coupling.py); field.place_at(x, y, uid, payload) anywhere
#       field.add_second_tag(slot, uid, payload)
#       field.remove(slot); field.remove_after(slot, frames)
#       field.kill(slot, miso=0x00); field.revive(slot)
#       field.tag(slot, k); field.engine (the one chip model all readers
#       share, FieldChip: per-slot tags, dead chips; air-time counters)
# With chain=True the chip selects drive the real HC595 driver and the /OE
# pin of the shift-register model as the Pico does (ChainSelect); otherwise
# each reader has its own SimPin.  Sim-only code (unix port).
from array import array

import time

from micropython import const

from bbfw.sim.mfrc522_model import MFRC522Model
from bbfw.sim.ntag import Ntag213


_TxControlReg = const(0x14)
_RFCfgReg = const(0x26)  # RxGain in bits 6..4
_CWGsPReg = const(0x28)  # transmitter drive without modulation
_TReloadRegH = const(0x2C)  # timer reload: each chip keeps its own (the driver
_TReloadRegL = const(0x2D)  # writes it only when that reader's setting changes)
# ISO/IEC 14443-3: a tag accepts REQA within 5 ms of an unmodulated field;
# the model's tags take all of it (a reader must give 5.1 ms)
GUARD_US = const(5000)


class SimPin:
    def __init__(self, value=1, on_change=None):
        self._v = value
        self._cb = on_change

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        if v != self._v:
            self._v = v
            if self._cb is not None:
                self._cb()
        return v

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class SPIBus:
    def __init__(self):
        self._devs = []
        self._cs = []  # what selects each device: a pin, or a shift register
        self._out = bytearray(0)  # the shift register output of each device
        self._on = bytearray(0)
        self._clocked = []  # shift registers fed by MOSI whatever is selected
        self.bytes = 0
        self.contention = 0  # bytes clocked with two devices selected

    def attach(self, dev, cs, i=0, slot=0):
        # slot: passed to dev.begin/end (one device object may serve several)
        self._devs.append(dev)
        self._cs.append(cs)
        self._out = bytes(self._out) + bytes((i,))
        self._slots = bytes(getattr(self, "_slots", b"")) + bytes((slot,))
        self._on = bytearray(len(self._devs))

    def clock_into(self, shift):
        self._clocked.append(shift)

    def cs_changed(self):
        on = self._on
        cs = self._cs
        for i in range(len(self._devs)):
            c = cs[i]
            if isinstance(c, ShiftRegModel):
                s = 1 if c.output(self._out[i]) == 0 else 0
            else:
                s = 1 if c.value() == 0 else 0
            if s != on[i]:
                on[i] = s
                if s:
                    self._devs[i].begin(self._slots[i])
                else:
                    self._devs[i].end(self._slots[i])

    def _xfer(self, b):
        self.bytes += 1
        for sh in self._clocked:
            sh.clock(b)
        out = 0xFF  # MISO pulled up when nobody drives it
        n = 0
        on = self._on
        for i in range(len(on)):
            if on[i]:
                out &= self._devs[i].xfer(b)
                n += 1
        if n > 1:
            self.contention += 1
        return out

    def write(self, buf):
        for b in buf:
            self._xfer(b)

    def readinto(self, buf, write=0):
        for i in range(len(buf)):
            buf[i] = self._xfer(write)

    def read(self, n, write=0):
        buf = bytearray(n)
        self.readinto(buf, write)
        return bytes(buf)

    def write_readinto(self, wbuf, rbuf):
        for i in range(len(wbuf)):
            rbuf[i] = self._xfer(wbuf[i])


class ShiftRegModel:
    # chip 0 nearest the MCU; output i = bit i % 8 of byte i // 8
    def __init__(self, count, on_change=None):
        n = (count + 7) // 8
        self.shift = bytearray(n)
        self.out = bytearray(n)
        self._cb = on_change
        self.latch_pin = SimPin(0, self._latch_moved)
        self.oe_pin = SimPin(1, on_change)

    def clock(self, b):
        # 8 clocks MSB first: every chip passes its byte to the next one
        s = self.shift
        for k in range(len(s) - 1, 0, -1):
            s[k] = s[k - 1]
        s[0] = b

    def _latch_moved(self):
        if self.latch_pin.value():
            o = self.out
            s = self.shift
            for k in range(len(s)):
                o[k] = s[k]
            if self._cb is not None:
                self._cb()

    def output(self, i):
        # the level on output pin i; Hi-Z reads as the pull-up's 1
        if self.oe_pin.value():
            return 1
        return (self.out[i >> 3] >> (i & 7)) & 1


class FieldChip(MFRC522Model):
    # Every reader of the field is this one chip model, told which reader is
    # selected: the driver writes the same registers to every chip, and what
    # differs per operation (FIFO, IRQ flags) is set up afresh each time, so
    # one register file serves all readers and the driver cannot tell.  What
    # really differs between readers - the tags in each field, a dead chip,
    # the timer reload the driver sets only when it changes - is kept per
    # slot and loaded while that chip is selected.
    # 36 readers full of tags then cost one register file and three short
    # arrays (the simulated board shares its heap with the firmware).
    def __init__(self, count):
        MFRC522Model.__init__(self)
        self.slot_tags = [()] * count
        self.slot_dead = array("h", [-1] * count)  # -1 alive, else MISO level
        self.slot_remove = array("h", [-1] * count)  # frames until tags leave
        self.slot_hot = bytearray(count)  # MFRC522Model.hot of each reader
        # each reader's own carrier: TxControlReg (reset 0x80: off) and when
        # it came on (a tag answers nothing in its first GUARD_US)
        self.slot_tx = bytearray(b"\x80" * count)
        self.slot_on_at = [0] * count
        self.slot_reload = array("H", [0] * count)  # TReloadReg of each reader
        self.coupling = None  # sim/coupling.Coupling: tags heard by distance
        self._cur = -1

    def begin(self, slot=0):
        self._cur = slot
        c = self.coupling
        self.tags = self.slot_tags[slot] if c is None else c.heard[slot]
        self.regs[_TxControlReg] = self.slot_tx[slot]
        self.dead_miso = self.slot_dead[slot]
        self.remove_after = self.slot_remove[slot]
        self.hot = self.slot_hot[slot]
        t = self.slot_reload[slot]
        self.regs[_TReloadRegH] = t >> 8
        self.regs[_TReloadRegL] = t & 0xFF
        self._addr = -1

    def end(self, slot=0):
        if self._cur == slot:  # the chip may have counted tags out
            if self.coupling is None:
                self.slot_tags[slot] = self.tags
            self.slot_remove[slot] = self.remove_after
            self.slot_hot[slot] = self.hot
            r = self.regs
            self.slot_reload[slot] = (r[_TReloadRegH] << 8) | r[_TReloadRegL]
            self._cur = -1
        self._addr = -1

    def _write(self, reg, v):
        MFRC522Model._write(self, reg, v)
        c = self.coupling
        if c is not None and (reg == _RFCfgReg or reg == _CWGsPReg):
            r = self.regs
            c.settings(r[_CWGsPReg] & 0x3F, (r[_RFCfgReg] >> 4) & 0x07)

    def _field(self, on):
        s = self._cur
        was = self.slot_tx[s] & 0x03 == 0x03
        self.slot_tx[s] = self.regs[_TxControlReg]
        if on and not was:
            self.slot_on_at[s] = time.ticks_us()
        if self.coupling is not None:
            self.coupling.field(s, 1 if on else 0)
            self.tags = self.coupling.heard[s]
        else:
            MFRC522Model._field(self, on)

    def _takes(self, t):
        c = self.coupling
        s = self._cur
        if c is not None:
            took = c.link(s, t) == 0
            self.garble = c.garble
            return took
        return time.ticks_diff(time.ticks_us(), self.slot_on_at[s]) >= GUARD_US


class ChainSelect:
    # Pin-like chip select of reader i on an /OE-gated 74HC595 chain, as the
    # Pico selects it (readers.SharedReaders): the chain pointed at the
    # reader, then /OE low; /OE high deselects every reader
    def __init__(self, chain, oe, i):
        self._chain = chain
        self._oe = oe
        self._i = i

    def value(self, v):
        if not v:
            self._chain.point(self._i)
        self._oe.value(v)


class SimReaderField:
    def __init__(self, count, chain=False, coupling=None, slot_mm=None):
        self.spi = SPIBus()
        self.engine = FieldChip(count)
        if coupling and slot_mm:
            from bbfw.sim.coupling import Coupling

            self.engine.coupling = Coupling(coupling, slot_mm[:count])
        self.shift = None
        self.hc595 = None
        if chain:
            from bbfw.drivers.hc595 import HC595

            self.shift = ShiftRegModel(count, self.spi.cs_changed)
            self.spi.clock_into(self.shift)
            for i in range(count):
                self.spi.attach(self.engine, self.shift, i, i)
            self.hc595 = HC595(self.spi, self.shift.latch_pin, self.shift.oe_pin, count)
            self._cs = [ChainSelect(self.hc595, self.shift.oe_pin, i) for i in range(count)]
        else:
            self._cs = [SimPin(1, self.spi.cs_changed) for _ in range(count)]
            for i in range(count):
                self.spi.attach(self.engine, self._cs[i], 0, i)

    def cs(self, i):
        return self._cs[i]

    def place(self, slot, uid, payload=None, fault=0):
        c = self.engine.coupling
        if c is not None:  # at the slot's centre, the slot's earlier tags gone
            self.remove(slot)
            p = c.at(slot)
            tag = self.place_at(p[0], p[1], uid, payload)
            tag.fault = fault
            self.engine.slot_tags[slot] = (tag,)
            return tag
        tag = Ntag213(uid, payload)
        tag.fault = fault  # ntag.FAULT_*: CRC, BCC, parity or protocol errors on the air
        self.engine.slot_tags[slot] = (tag,)
        return tag

    def place_at(self, x, y, uid, payload=None):
        # a tag anywhere on the table (needs the coupling model): it is heard
        # by every reader in range whose field is on
        tag = Ntag213(uid, payload)
        self.engine.coupling.place(tag, x, y)
        return tag

    def add_second_tag(self, slot, uid, payload=None):
        e = self.engine
        if e.coupling is not None:
            p = e.coupling.at(slot)
            tag = self.place_at(p[0], p[1], uid, payload)
        else:
            tag = Ntag213(uid, payload)
        e.slot_tags[slot] = list(e.slot_tags[slot]) + [tag]
        return tag

    def remove(self, slot):
        e = self.engine
        if e.coupling is not None:
            for t in e.slot_tags[slot]:
                e.coupling.remove(t)
        e.slot_tags[slot] = ()

    def remove_after(self, slot, frames):
        self.engine.slot_remove[slot] = frames

    def kill(self, slot, miso=0x00):
        self.engine.slot_dead[slot] = miso

    def revive(self, slot):
        self.engine.slot_dead[slot] = -1

    def overheat(self, slot, hot=True):
        # hot: the reader's chip reports TempErr and switches its antenna drivers
        # off; not hot: TempErr clears, the antenna stays off until the driver
        # switches it on
        e = self.engine
        if hot:
            e.slot_hot[slot] = 1
            for t in e.slot_tags[slot]:
                t.power_off()
        elif e.slot_hot[slot] == 1:
            e.slot_hot[slot] = 2

    def tag(self, slot, k=0):
        return self.engine.slot_tags[slot][k]

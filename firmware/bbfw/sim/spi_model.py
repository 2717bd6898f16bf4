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
#       field.add_second_tag(slot, uid, payload)
#       field.remove(slot); field.remove_after(slot, frames)
#       field.kill(slot, miso=0x00); field.revive(slot)
#       field.models[i], field.tag(slot, k)
# With chain=True the chip selects are the real HC595 driver's cs objects
# driving the shift-register model (the /OE-gated wiring); otherwise each
# reader has its own SimPin.  Sim-only code (unix port).
from bbfw.sim.mfrc522_model import MFRC522Model
from bbfw.sim.ntag import Ntag213


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

    def attach(self, dev, cs, i=0):
        self._devs.append(dev)
        self._cs.append(cs)
        self._out = bytes(self._out) + bytes((i,))
        self._on = bytearray(len(self._devs))

    def swap(self, i, dev):
        # device i replaced between transactions (its chip select is high)
        self._devs[i] = dev

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
                    self._devs[i].begin()
                else:
                    self._devs[i].end()

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


class SimReaderField:
    # Readers with an empty field all share one chip model (`idle`): the
    # driver writes the same registers to every chip, and what differs per
    # operation (FIFO, IRQ flags) is set up afresh each time, so the driver
    # cannot tell.  A slot gets its own model when something happens there
    # (a tag placed, the reader killed) - its registers copied from the
    # shared one - and goes back to the shared one when it is empty again.
    # 36 readers then cost one model instead of 36 (14 KB of the simulated
    # board's heap on the 64-bit unix port).
    def __init__(self, count, chain=False):
        self.spi = SPIBus()
        self.idle = MFRC522Model()
        self.models = [self.idle] * count
        self.shift = None
        self.hc595 = None
        if chain:
            from bbfw.drivers.hc595 import HC595

            self.shift = ShiftRegModel(count, self.spi.cs_changed)
            self.spi.clock_into(self.shift)
            for i in range(count):
                self.spi.attach(self.models[i], self.shift, i)
            self.hc595 = HC595(self.spi, self.shift.latch_pin, self.shift.oe_pin, count)
            self._cs = [self.hc595.cs(i) for i in range(count)]
        else:
            self._cs = [SimPin(1, self.spi.cs_changed) for _ in range(count)]
            for i in range(count):
                self.spi.attach(self.models[i], self._cs[i])

    def cs(self, i):
        return self._cs[i]

    def own(self, slot):
        # the slot's own chip model, made from the shared one if need be
        m = self.models[slot]
        if m is self.idle:
            m = MFRC522Model()
            m.regs[:64] = self.idle.regs[:64]
            self.models[slot] = m
            self.spi.swap(slot, m)
        return m

    def _settle(self, slot):
        # back to the shared model once nothing sets the slot apart
        m = self.models[slot]
        if m is not self.idle and not m.tags and m.dead_miso < 0 and m.remove_after < 0:
            self.models[slot] = self.idle
            self.spi.swap(slot, self.idle)

    def place(self, slot, uid, payload=None):
        tag = Ntag213(uid, payload)
        self.own(slot).tags = [tag]
        return tag

    def add_second_tag(self, slot, uid, payload=None):
        tag = Ntag213(uid, payload)
        m = self.own(slot)
        m.tags = list(m.tags) + [tag]
        return tag

    def remove(self, slot):
        self.models[slot].tags = ()
        self._settle(slot)

    def remove_after(self, slot, frames):
        self.own(slot).remove_after = frames

    def kill(self, slot, miso=0x00):
        self.own(slot).dead_miso = miso

    def revive(self, slot):
        self.models[slot].dead_miso = -1
        self._settle(slot)

    def tag(self, slot, k=0):
        return self.models[slot].tags[k]

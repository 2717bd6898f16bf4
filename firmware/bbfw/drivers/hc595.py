# 74HC595 shift-register chain: outputs for the readers' chip selects.
#
#   chain = HC595(spi, latch, oe=None, count=40)
#       spi    object with .write(buf) clocking SER/SRCLK (machine.SPI or SoftSPI)
#       latch  Pin-like on RCLK (storage register clock, rising edge copies)
#       oe     Pin-like on /OE (active low output enable), or None
#       count  number of outputs used (chips = ceil(count / 8))
#   chain.set(i, v); chain.latch()     general outputs, then copy to the pins
#   chain.rows(n)                      matrix rows 0..n-1: rows[i] is Pin-like,
#                                      value(0) selects row i alone in one chain
#                                      load, value(1) is free (one pin object
#                                      pointed at the row asked for: use it
#                                      before asking for the next);
#                                      rows.all_low(busy) drives every row
#                                      low in one load but those busy[r] names
#                                      (the quiet rows of a matrix read at once)
#   chain.point(i)                     (with /OE) reader i's one-hot pattern
#                                      latched, outputs still Hi-Z: the /OE
#                                      pin alone then selects reader i, so a
#                                      driver may take that machine.Pin as
#                                      its chip select (readers.SharedReaders)
#
# Output i is chip i // 8 (chip 0 nearest the MCU), pin Q(A + i % 8): bit
# i % 8 of byte i // 8 in chain.state.  Bytes go out MSB first, the byte for
# the farthest chip first, so after one write every chip holds its own byte.
#
# Chip selects: /OE wired, every reader's NSS with a 10k pull-up.  The chain
# is loaded with a one-hot pattern (output i low, the rest high) while /OE is
# high (all outputs Hi-Z, pull-ups deselect every reader); then each
# select/deselect of reader i is one GPIO write on /OE.  The pattern is
# shifted again only when another reader is selected.  Because nothing
# latches while /OE is high, the 595 may share SCK/MOSI with the readers'
# SPI bus: reader traffic clocks garbage into the shift stage, never into the
# outputs.  Cost: a select of a new reader = ceil(count/8) SPI bytes.  (With
# /OE tied low every select would shift and latch the whole chain, on SPI
# pins of its own: the firmware does not support that wiring.)
#
# MISO release: the MFRC522 tri-states MISO while NSS is high, but several
# popular RC522 modules do not (level shifters or the chip's interface straps
# keep it driven), so two readers on one bus fight over MISO.  Fixes on the
# reference hardware: a 74HC125 buffer per reader whose /OE is the reader's
# NSS (MISO only reaches the bus while selected), or per-module 1 k series
# resistors with modules checked to release MISO.  See hardware/wiring.md.
from micropython import const

_ALL_HIGH = const(0xFF)


class HC595:
    def __init__(self, spi, latch, oe=None, count=8):
        self._spi = spi
        self._latch = latch
        self._oe = oe
        self.count = count
        n = (count + 7) // 8
        self.state = bytearray(n)  # byte k: chip k, bit j: output Q(A+j)
        self._out = bytearray(n)  # state reversed: the farthest chip first
        for k in range(n):
            self.state[k] = _ALL_HIGH
        self.selected = -1  # reader whose one-hot pattern is latched
        self.writes = 0  # chain loads, for the figures
        latch.value(0)
        if oe is not None:
            oe.value(1)
        self.latch()

    def set(self, i, v):
        m = 1 << (i & 7)
        if v:
            self.state[i >> 3] |= m
        else:
            self.state[i >> 3] &= ~m & 0xFF

    def get(self, i):
        return (self.state[i >> 3] >> (i & 7)) & 1

    def latch(self):
        s = self.state
        o = self._out
        n = len(s)
        for k in range(n):
            o[k] = s[n - 1 - k]
        self._spi.write(o)
        self._latch.value(1)
        self._latch.value(0)
        self.writes += 1

    def rows(self, n):
        # Matrix rows for a scan that drives one row low at a time: value(0)
        # latches "row i low, every other row high" in one load, and value(1)
        # does nothing - the next row's load raises it.  One chain load per
        # row instead of two; between scans the last row scanned stays low,
        # which is harmless (columns are read only while scanning).
        return Rows(self, n)

    def point(self, i):
        # one-hot pattern for reader i; with /OE the outputs stay Hi-Z here.
        # Two bytes change (the last reader's goes high, this one's low), in
        # state and in its reversed copy: no loop (a field switch points the
        # chain too, a dozen times an input step)
        last = self.selected
        if last == i:
            return
        s = self.state
        o = self._out
        top = len(s) - 1
        if last < 0:
            for k in range(top + 1):
                s[k] = o[k] = _ALL_HIGH
        else:
            s[last >> 3] = o[top - (last >> 3)] = _ALL_HIGH
        s[i >> 3] = o[top - (i >> 3)] = ~(1 << (i & 7)) & 0xFF
        self._spi.write(o)
        self._latch.value(1)
        self._latch.value(0)
        self.writes += 1
        self.selected = i

class Rows:
    # HC595.rows: the rows of a matrix scanned one at a time share one pin
    # object (15 rows: one object instead of 15, about 0.7 KB of a Pico's heap)
    def __init__(self, chain, n):
        self._pin = RowPin(chain, 0)
        self._n = n

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if not 0 <= i < self._n:
            raise IndexError("row %d outside 0..%d" % (i, self._n - 1))
        self._pin._i = i
        return self._pin

    def all_low(self, busy):
        # every row low but those whose busy[r] is set (busy None: every
        # row; the chain drives the rows alone): a key down in any of them
        # pulls its column low, through its diode
        c = self._pin._chain
        st = c.state
        for k in range(len(st)):
            st[k] = 0
        if busy is not None:
            for r in range(self._n):
                if busy[r]:
                    c.set(r, 1)
        c.latch()


class RowPin:
    # see HC595.rows; its value() is what the matrix uses of machine.Pin
    def __init__(self, chain, i):
        self._chain = chain
        self._i = i

    def value(self, v=None):
        if v is None:
            return self._chain.get(self._i)
        if not v:
            c = self._chain
            st = c.state
            for k in range(len(st)):
                st[k] = _ALL_HIGH
            c.set(self._i, 0)
            c.latch()
        return 1 if v else 0

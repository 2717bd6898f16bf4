# Scanned button matrix: rows driven low one at a time, columns read.
#
#   bm = ButtonMatrix(rows, cols, on_event, debounce=3, long_ms=800,
#                     stuck_ms=30000, on_error=None)
#       rows  Pin-like outputs (idle high), a sequence (used by index: rows
#             may be one pin retargeted, hc595.Rows); when it also has
#             all_low(busy) (every row driven low at once but those whose
#             busy[r] is set; busy None: none is), its quiet rows are read in
#             one look (see scan)
#       cols  the column inputs (pull-ups): len(cols) and cols.read(), a bit
#             per column that reads low (GpioColumns on the Pico;
#             hal_sim.PinColumns elsewhere)
#       on_event(key, action)   key = row * len(cols) + col;
#                               action PRESS, RELEASE or LONG_PRESS
#       on_error(key, code, text)   E_BUTTON_STUCK once when a key stays down
#                               stuck_ms (or is down at power-on)
#   bm.scan(now_ms)         call every few ms (8 ms with debounce=3 gives a
#                           24 ms debounce); allocates nothing
#   bm.down(key) -> bool    the debounced state
# PRESS comes on the first scan that reads a settled key down (eager: a
# confirm is the player's "go", and waiting for 3 scans cost 16-24 ms, most
# of the board's share of confirm -> first frame); from then on the key is
# down until `debounce` consecutive scans read it up, so the contact's
# bounces after the press, and before the release, are never events (an
# integrator per key: a single bounce resets nothing it should not).  The
# price, as with any eager debounce: a glitch on a column line would be a
# press; the matrix's diodes and pull-ups keep its lines driven.
# LONG_PRESS comes once, long_ms after PRESS, while still held; RELEASE
# follows as usual.  Diodes in series with each switch (anode on the column
# side) stop ghost keys when three are down together.
# Touch buttons on arena cells (TTP223 pads, each switching a 2N7002 between
# its row and column) take free matrix positions like any switch; the board
# config maps their key numbers to cells, and the firmware sends TOUCH for
# them instead of BUTTON.
from micropython import const
from array import array
import time

PRESS = const(1)  # = bbshared.messages
RELEASE = const(2)
LONG_PRESS = const(3)
E_BUTTON_STUCK = const(6)

# SIO GPIO_IN: the input levels of GPIO 0-29 (RP2040 datasheet 2.3.1.7, SIO
# base 0xd0000000 + 0x004; the same offset on the RP2350, 3.1.11).  Bits 30-31
# read 0 (reserved on the RP2040, pads not bonded out on the Pico 2's RP2350A),
# so the load is a small int: the scan still allocates nothing
_SIO_GPIO_IN = const(0xD0000004)

_F_DOWN = const(1)
_F_LONG = const(2)  # long press reported for this press
_F_STUCK = const(4)  # stuck reported for this press
_F_BOOT = const(8)  # no scan yet: a key down at the first scans is stuck


class GpioColumns:
    # columns read all at once from the SIO's GPIO_IN register (the Pico):
    # one load per row instead of a Pin.value() call per column.  The GPIO
    # numbers are taken as runs of consecutive pins (the reference wiring:
    # GP10-15 and GP26-27, two runs).  mem: machine.mem32.
    def __init__(self, mem, gpios):
        self._mem = mem
        self._n = len(gpios)
        runs = []
        c = 0
        while c < len(gpios):
            n = 1
            while c + n < len(gpios) and gpios[c + n] == gpios[c] + n:
                n += 1
            runs.append((gpios[c], (1 << n) - 1, c))  # shift, mask, first column
            c += n
        self._runs = tuple(runs)

    def __len__(self):
        return self._n

    def read(self):
        low = ~self._mem[_SIO_GPIO_IN]  # a pressed key pulls its column low
        raw = 0
        for shift, mask, first in self._runs:
            raw |= ((low >> shift) & mask) << first
        return raw


class ButtonMatrix:
    def __init__(self, rows, cols, on_event, debounce=3, long_ms=800,
                 stuck_ms=30000, on_error=None):
        self._rows = rows
        self._cols = cols
        self._on_event = on_event
        self._on_error = on_error
        self.debounce = debounce
        self.long_ms = long_ms
        self.stuck_ms = stuck_ms
        n = len(rows) * len(cols)
        self.keys = n
        self._count = bytearray(n)  # consecutive scans disagreeing with the state
        self._flags = bytearray(n)
        # ticks when the state changed (set before it is read: whatever it
        # starts with, made without a temporary buffer)
        self._since = array("i", range(n))
        self._scans = 0  # scans done, up to debounce: keys down by then are stuck
        self._busy = bytearray(len(rows))  # rows with a key down or changing
        self._idle = False  # no key down or changing after the last scan (boot over)
        self._all_low = getattr(rows, "all_low", None)
        for r in range(len(rows)):
            rows[r].value(1)

    def down(self, key):
        return bool(self._flags[key] & _F_DOWN)

    def scan(self, now_ms):
        # The rows whose keys are all up and settled are read at once, every
        # one of them low together: no column low, no key pressed there.  An
        # idle matrix then costs one row load and one column read (on an
        # RP2040 about 1.4 ms less than 15 row selects, taken from every
        # input step's other tasks), and a key held down its own row's
        # select and samples.  Otherwise (a key pressed in a quiet row, the
        # boot scans, rows without all_low) row by row; a row whose columns
        # all read high and whose keys are all up and settled is skipped
        # after reading it (no key updates).
        boot = self._scans < self.debounce
        busy = self._busy
        quiet = False  # the rows that are not busy read all up
        if not boot and self._all_low is not None:
            self._all_low(None if self._idle else busy)
            quiet = not self._cols.read()
            if quiet and self._idle:
                return
        cols = self._cols
        ncols = len(cols)
        flags = self._flags
        count = self._count
        rows = self._rows
        key = 0
        idle = not boot
        for r in range(len(rows)):
            if quiet and not busy[r]:
                key += ncols
                continue
            row = rows[r]
            row.value(0)
            raw = cols.read()
            row.value(1)
            if raw or busy[r] or boot:
                b = 0
                for c in range(ncols):
                    k = key + c
                    self._sample(k, (raw >> c) & 1, now_ms, boot)
                    if flags[k] & _F_DOWN or count[k]:
                        b = 1
                busy[r] = b
                if b:
                    idle = False
            key += ncols
        self._idle = idle
        if boot:
            self._scans += 1

    def _sample(self, key, raw, now, boot):
        f = self._flags[key]
        down = f & _F_DOWN
        if bool(raw) != bool(down):
            self._count[key] += 1
            if self._count[key] >= self.debounce or raw:  # a press at once: see the header
                self._count[key] = 0
                self._since[key] = now
                if raw:
                    self._flags[key] = _F_DOWN | (_F_BOOT if boot else 0)
                    if self._flags[key] & _F_BOOT:
                        self._stuck(key)
                    else:
                        self._on_event(key, PRESS)
                else:
                    booted = f & _F_BOOT
                    self._flags[key] = 0
                    if not booted:
                        self._on_event(key, RELEASE)
            return
        self._count[key] = 0
        if down:
            held = time.ticks_diff(now, self._since[key])
            if not f & (_F_LONG | _F_BOOT) and held >= self.long_ms:
                self._flags[key] = f | _F_LONG
                self._on_event(key, LONG_PRESS)
            if not f & _F_STUCK and held >= self.stuck_ms:
                self._stuck(key)

    def _stuck(self, key):
        self._flags[key] |= _F_STUCK
        if self._on_error is not None:
            self._on_error(key, E_BUTTON_STUCK, "button %d stuck down" % key)


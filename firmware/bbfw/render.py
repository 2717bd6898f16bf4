# Renderer: semantic cell states -> WS2812 colours, animated locally.
#
#   r = Renderer(cells, strip, leds_per_cell=7, side_order=None)
#       cells  number of cells (cell i uses LEDs i*leds_per_cell ...), or a
#              sequence of each cell's first LED index (from the board config)
#       strip  object with .buf (bytearray, 3 bytes per LED, GRB) and .show()
#       side_order  6 offsets: side LED of facing f is base + 1 + side_order[f]
#              (default: facing order 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE)
#   r.set_cell(i, palette, facing, effect)   facing 0..5, anything else = none
#   r.fill(palette, facing, effect)          every cell
#   r.set_palette(index, r, g, b)            16 entries, defaults in PALETTE
#   r.brightness = 0..255                    global
#   r.budget_ma = mA                         LED current limit (0: none; the Board
#                                            sets board.json's power_ma at boot)
#   r.set_chains(first_cells, chain_ma)      LED chains (the first cell of each)
#                                            and the current each may carry (its fuse)
#   r.frame(now_ms) -> bool                  draw into strip.buf; True if any
#                                            byte may have changed (then show)
#   r.pending                                True while a change of state or
#                                            palette waits for its frame
#   r.current_ma, r.scale                    estimate and scale (0..256) of the
#                                            last frame
# A cell: centre LED plus six side LEDs.  SOLID lights the centre in the
# palette colour and the sides at a quarter, the facing side half-way to
# white; BLINK is SOLID then dark (400 ms each); PULSE breathes (1.6 s);
# SPIN runs the bright side round clockwise (100 ms a step); OFF is dark.
# Power: each frame's current is estimated as IDLE_MA per LED plus CHANNEL_MA
# per channel at full scale (from per-cell channel sums kept up to date, not
# by walking the strip); when it exceeds budget_ma, or one chain's share
# exceeds chain_ma, every LED is scaled down by the same factor (the picture
# keeps its balance; a chain has its own fuse, which a bright half of the
# arena on one chain could blow though the whole stays under the supply's).
# Only cells whose look changed are redrawn; frame() allocates nothing.
from micropython import const
from array import array

OFF = const(0)  # effect values = bbshared.messages
SOLID = const(1)
BLINK = const(2)
PULSE = const(3)
SPIN = const(4)
NO_FACING = const(255)

CHANNEL_MA = const(20)  # WS2812B: ~20 mA per colour channel at 255
IDLE_MA = const(1)  # WS2812B: ~1 mA per LED even when dark
_BLINK_MS = const(400)
_PULSE_MS = const(1600)
_SPIN_MS = const(100)
_FORCE = const(255)  # phase value that forces a redraw

# off, white, red, green, blue, yellow, cyan, magenta, orange, purple, pink,
# lime, teal, amber, dim grey, warm white
PALETTE = (0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 200, 0,
           0, 255, 255, 255, 0, 255, 255, 100, 0, 140, 0, 255, 255, 90, 150,
           150, 255, 0, 0, 160, 140, 255, 150, 0, 40, 40, 40, 255, 170, 90)


def _scale_for(limit_ma, idle_ma, channel_sum):
    # the scale (0..256) at which channel_sum at full scale draws limit_ma
    allowed = (limit_ma - idle_ma) * 255 // CHANNEL_MA
    return allowed * 256 // channel_sum if allowed > 0 and channel_sum else 0


class Renderer:
    def __init__(self, cells, strip, leds_per_cell=7, side_order=None):
        self.strip = strip
        self.leds = len(strip.buf) // 3
        self.lpc = leds_per_cell
        if isinstance(cells, int):
            n = cells
            self._base = array("H", range(0, n * leds_per_cell, leds_per_cell))
        else:
            n = len(cells)
            self._base = array("H", cells)
        for i in range(n):
            last = self._base[i] + leds_per_cell
            if last > self.leds:
                raise ValueError("LED chain shorter than configured: cell %d needs %d LEDs, "
                                 "the strip has %d" % (i, last, self.leds))
        self.n = n
        self._side = bytearray(side_order if side_order else range(6))
        self.palette = bytearray(PALETTE)
        self._pal = bytearray(n)
        self._face = bytearray(n)
        self._eff = bytearray(n)
        self._phase = bytearray(n)  # animation phase last drawn
        self._of_effect = bytearray(SPIN + 1)  # this frame's phase of each effect
        self._hl = bytearray(n)  # side drawn bright (facing, or the spin step)
        self._col = bytearray(9 * n)  # centre, side, bright side RGB, full scale
        self._sum = array("H", range(n))  # channel sum of the cell, full scale (0: below)
        self._chain = bytearray(n)  # chain of each cell
        self._chain_sum = array("i", [0])  # channel sum of each chain, full scale
        self._chain_leds = array("H", [self.leds])
        self.chain_ma = 0  # current each chain may carry (0: no limit)
        self._dirty = bytearray(n)
        for i in range(n):
            self._face[i] = NO_FACING
            self._phase[i] = _FORCE
            self._sum[i] = 0
        self._total = 0
        self._animated = 0
        self.pending = True
        self.brightness = 255
        self.budget_ma = 0
        self.scale = -1
        self.current_ma = 0

    def set_chains(self, first_cells, chain_ma):
        # first_cells: the first cell of each chain, in order from 0
        k = len(first_cells)
        self._chain_sum = array("i", [0] * k)
        self._chain_leds = array("H", [0] * k)
        for i in range(self.n):
            c = 0
            while c + 1 < k and i >= first_cells[c + 1]:
                c += 1
            self._chain[i] = c
            self._chain_sum[c] += self._sum[i]
            self._chain_leds[c] += self.lpc
        self.chain_ma = chain_ma
        self.pending = True

    # --- state from the host ---------------------------------------------
    def set_cell(self, i, palette, facing, effect):
        if not 0 <= i < self.n:
            raise IndexError("cell %d outside 0..%d" % (i, self.n - 1))
        facing = facing if 0 <= facing <= 5 else NO_FACING
        e = self._eff[i]
        if self._pal[i] == palette & 15 and self._face[i] == facing and e == effect:
            return
        self._animated += (effect >= BLINK) - (e >= BLINK)
        self._pal[i] = palette & 15
        self._face[i] = facing
        self._eff[i] = effect
        self._phase[i] = _FORCE
        self.pending = True

    def fill(self, palette, facing, effect):
        for i in range(self.n):
            self.set_cell(i, palette, facing, effect)

    def set_palette(self, index, r, g, b):
        p = self.palette
        j = 3 * (index & 15)
        p[j] = r
        p[j + 1] = g
        p[j + 2] = b
        for i in range(self.n):
            if self._pal[i] == index & 15:
                self._phase[i] = _FORCE
        self.pending = True

    # --- drawing -------------------------------------------------------------
    def _phase_of(self, e, now):
        if e == BLINK:
            return (now // _BLINK_MS) & 1
        if e == PULSE:
            t = now % _PULSE_MS
            tri = t if t < _PULSE_MS // 2 else _PULSE_MS - t
            return 4 + tri * 28 // (_PULSE_MS // 2)  # level 4..32 of 32
        if e == SPIN:
            return (now // _SPIN_MS) % 6
        return 0

    def _compute(self, i, ph):
        # full-scale colours of cell i for phase ph, and its channel sum
        e = self._eff[i]
        p = 3 * self._pal[i]
        pal = self.palette
        c = self._col
        o = 9 * i
        level = 32
        hl = self._face[i]
        if e == OFF or (e == BLINK and ph):
            level = 0
        elif e == PULSE:
            level = ph
        elif e == SPIN:
            hl = ph
        s = 0
        for ch in range(3):
            v = pal[p + ch] * level >> 5
            c[o + ch] = v  # centre
            side = v >> 3 if e == SPIN else v >> 2
            c[o + 3 + ch] = side
            bright = v if e == SPIN else (v + (255 * level >> 5)) >> 1
            c[o + 6 + ch] = bright
            s += v + side * (6 if hl == NO_FACING else 5) + (0 if hl == NO_FACING else bright)
        if self.lpc < 7:
            s = c[o] + c[o + 1] + c[o + 2]
        self._hl[i] = hl
        self._total += s - self._sum[i]
        self._chain_sum[self._chain[i]] += s - self._sum[i]
        self._sum[i] = s

    def _limit(self):
        # scale 0..256 from brightness and the current budget
        b = self.brightness
        k = b + (b >> 7)
        idle = self.leds * IDLE_MA
        est = idle + (self._total * k >> 8) * CHANNEL_MA // 255
        if self.budget_ma > 0 and est > self.budget_ma:
            k = _scale_for(self.budget_ma, idle, self._total)
        if self.chain_ma > 0:
            sums = self._chain_sum
            for c in range(len(sums)):
                if self._chain_leds[c] * IDLE_MA + (sums[c] * k >> 8) * CHANNEL_MA // 255 > self.chain_ma:
                    k = _scale_for(self.chain_ma, self._chain_leds[c] * IDLE_MA, sums[c])
        self.current_ma = idle + (self._total * k >> 8) * CHANNEL_MA // 255
        return k

    def _write(self, i, k):
        buf = self.strip.buf
        c = self._col
        o = 9 * i
        led = 3 * self._base[i]
        buf[led] = c[o + 1] * k >> 8  # GRB
        buf[led + 1] = c[o] * k >> 8
        buf[led + 2] = c[o + 2] * k >> 8
        if self.lpc < 7:
            return
        hl = self._hl[i]
        side = self._side
        for f in range(6):
            j = o + (6 if f == hl else 3)
            led = 3 * (self._base[i] + 1 + side[f])
            buf[led] = c[j + 1] * k >> 8
            buf[led + 1] = c[j] * k >> 8
            buf[led + 2] = c[j + 2] * k >> 8

    def frame(self, now_ms):
        if self._animated or self.pending:
            phase = self._phase
            eff = self._eff
            of = self._of_effect  # each effect's phase once a frame, not once a cell
            for e in range(SPIN + 1):
                of[e] = self._phase_of(e, now_ms)
            for i in range(self.n):
                ph = of[eff[i]]
                if ph != phase[i]:
                    phase[i] = ph
                    self._compute(i, ph)
                    self._dirty[i] = 1
            self.pending = False
        k = self._limit()
        dirty = self._dirty
        redraw_all = k != self.scale
        self.scale = k
        changed = False
        for i in range(self.n):
            if redraw_all or dirty[i]:
                dirty[i] = 0
                self._write(i, k)
                changed = True
        return changed

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
#   r.prepare(now_ms); r.draw() -> bool      the same in two: prepare() does not
#                                            touch strip.buf (it may run while the
#                                            last frame still goes out), draw() does
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
# Only cells whose look changed are redrawn; frame() allocates nothing. A
# look's colours (a palette entry, an effect and its phase) are worked out and
# scaled once a frame, not once per cell (Looks, below): every cell pulsing is
# the common busy picture, and a Pico spent most of its time redoing the same
# sums per cell and writing each LED byte by byte.  A cell's colours go into
# strip.buf with struct.pack_into ("21s"), not a slice store: MicroPython's
# bytearray slice store moves the whole rest of the buffer onto itself after
# copying (on an RP2040 a kilobyte a cell, most of a busy frame's time).
from micropython import const
from array import array
from struct import pack_into

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
# PULSE's levels: 56 steps up in 800 ms, one every 14 ms, so that at 50 frames a
# second it moves in every frame (at 28 steps, 32 levels, it moved 35 times a
# second: the LEDs could show no more frames than that)
_LEVEL_BITS = const(6)
_FULL = const(64)
_LOOKS = const(80)  # 16 palette entries x 5 effects
_SLOTS = const(8)  # looks kept worked out: more on the board at once only costs time
_NONE = const(255)
_SPUN = const(1)  # Renderer._bx of a spinning cell (a real offset is at least 3)

# off, white, red, green, blue, yellow, cyan, magenta, orange, purple, pink,
# lime, teal, amber, dim grey, warm white
PALETTE = (0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 200, 0,
           0, 255, 255, 255, 0, 255, 255, 100, 0, 140, 0, 255, 255, 90, 150,
           150, 255, 0, 0, 160, 140, 255, 150, 0, 40, 40, 40, 255, 170, 90)


def _scale_for(limit_ma, idle_ma, channel_sum):
    # the scale (0..256) at which channel_sum at full scale draws limit_ma
    allowed = (limit_ma - idle_ma) * 255 // CHANNEL_MA
    return allowed * 256 // channel_sum if allowed > 0 and channel_sum else 0


class Looks:
    # A few looks (a palette entry and an effect) kept worked out, each in a slot:
    # its channel sums at full scale without and with a bright side, for one phase;
    # and its colours as the strip takes them (GRB) at one scale: the centre and
    # sides, copied into a cell in one slice (a slice store allocates nothing), and
    # the bright side written over them.  A new look takes a slot whose look no
    # cell shows any more, else the spare one (_SLOTS), worked out again each time
    # it is needed: the looks on the board keep theirs, however many more there are.
    def __init__(self, palette, sides, cells):
        self.palette = palette
        self.sides = sides
        self.count = array("H", bytearray(2 * _LOOKS))  # cells showing each look
        self.count[0] = cells
        self.slot_of = bytearray(b"\xff" * _LOOKS)  # each look's slot, or none
        self.owner = bytearray(b"\xff" * _SLOTS)  # each slot's look, or none
        self.sums = array("H", bytearray(4 * _SLOTS + 4))
        self.phase = bytearray(b"\xff" * (_SLOTS + 1))  # of the sums (_FORCE: none)
        self.pat = [bytearray(21 if sides else 3) for _ in range(_SLOTS + 1)]
        self.bright = bytearray(3 * _SLOTS + 3)
        bv = memoryview(self.bright)  # each slot's bright side, for pack_into
        self.brights = [bv[3 * sl:3 * sl + 3] for sl in range(_SLOTS + 1)]
        self.scale = array("h", [-1] * (_SLOTS + 1))  # of the colours (-1: none)

    def forget_palette(self, index):
        for key in range(index * 5, index * 5 + SPIN + 1):
            if self.slot_of[key] != _NONE:
                self.phase[self.slot_of[key]] = _FORCE

    def slot(self, key, ph, k=-1):
        # the slot of look `key`, with its sums for phase ph (and with k >= 0 its
        # colours at scale k: worked out together, the frame's likely scale)
        sl = self.slot_of[key]
        if sl == _NONE:
            owners = self.owner
            sl = 0
            while sl < _SLOTS and owners[sl] != _NONE and self.count[owners[sl]]:
                sl += 1
            if sl < _SLOTS:
                if owners[sl] != _NONE:
                    self.slot_of[owners[sl]] = _NONE
                owners[sl] = key
                self.slot_of[key] = sl
            self.phase[sl] = _FORCE  # (the spare is worked out again each time)
        if self.phase[sl] != ph:
            self.work_out(key, ph, sl, k)
        return sl

    def work_out(self, key, ph, sl, k):
        # look `key` at phase ph into slot sl: its sums, and with k >= 0 its colours
        e = key % 5
        p = 3 * (key // 5)
        pal = self.palette
        pat = self.pat[sl]
        level = 0 if e == OFF or (e == BLINK and ph) else ph if e == PULSE else _FULL
        plain = lit = centre = 0
        for ch in range(3):
            v = pal[p + ch] * level >> _LEVEL_BITS
            side = v >> 3 if e == SPIN else v >> 2
            bright = v if e == SPIN else (v + (255 * level >> _LEVEL_BITS)) >> 1
            centre += v
            plain += v + 6 * side
            lit += v + 5 * side + bright
            if k >= 0:
                j = (1, 0, 2)[ch]  # GRB on the strip
                pat[j] = v * k >> 8
                side = side * k >> 8
                for led in range(3 + j, len(pat), 3):
                    pat[led] = side
                self.bright[3 * sl + j] = bright * k >> 8
        self.sums[2 * sl] = plain if self.sides else centre
        self.sums[2 * sl + 1] = lit if self.sides else centre
        self.phase[sl] = ph
        self.scale[sl] = k


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
        self.palette = bytearray(PALETTE)
        self._face = bytearray(n)
        self._phase = bytearray(n)  # animation phase last drawn
        self._of_effect = bytearray(SPIN + 1)  # this frame's phase of each effect
        self._of_was = bytearray(b"\xff" * (SPIN + 1))  # and the last frame's
        self._key = bytearray(n)  # look of each cell: palette entry x 5 + effect
        self._looks = Looks(self.palette, leds_per_cell >= 7, n)
        self._fmt = "%ds" % len(self._looks.pat[0])  # a cell's bytes, for pack_into
        # strip bytes from a cell's centre to the side LED of each facing
        self._side3 = bytearray(3 * (1 + f) for f in (side_order or range(6)))
        # strip byte of each cell's bright side: 0 none, _SPUN a spinning cell's (it moves)
        self._bx = array("H", bytearray(2 * n))
        self._sum = array("H", range(n))  # channel sum of the cell, full scale (0: below)
        self._chain = bytearray(n)  # chain of each cell
        self._chain_sum = array("i", [0])  # channel sum of each chain, full scale
        self._chain_leds = array("H", [self.leds])
        self.chain_ma = 0  # current each chain may carry (0: no limit)
        # cells to draw this frame (in _todo, _ntodo of them), and the cells in order of
        # their effect, from _starts[e] on: a frame visits the cells of the effects whose
        # phase moved, not every cell (_sort: after an effect changed, _sorted False)
        cell = "B" if n < 256 else "H"
        self._todo = array(cell, bytes(n) if n < 256 else bytes(2 * n))
        self._ntodo = 0
        self._order = array(cell, bytes(n) if n < 256 else bytes(2 * n))
        self._starts = array("H", bytes(2 * (SPIN + 2)))
        self._sorted = False
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
        key = (palette & 15) * 5 + effect
        e = self._key[i] % 5
        if self._key[i] == key and self._face[i] == facing:
            return
        self._animated += (effect >= BLINK) - (e >= BLINK)
        if e != effect:
            self._sorted = False
        self._face[i] = facing
        self._bx[i] = (0 if self.lpc < 7 else _SPUN if effect == SPIN
                       else 0 if facing == NO_FACING else 3 * self._base[i] + self._side3[facing])
        self._looks.count[self._key[i]] -= 1
        self._looks.count[key] += 1
        self._key[i] = key
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
        self._looks.forget_palette(index & 15)  # worked out again for the cells redrawn below
        for i in range(self.n):
            if self._key[i] // 5 == index & 15:
                self._phase[i] = _FORCE
        self.pending = True

    # --- drawing -------------------------------------------------------------
    def _phase_of(self, e, now):
        if e == BLINK:
            return (now // _BLINK_MS) & 1
        if e == PULSE:
            t = now % _PULSE_MS
            tri = t if t < _PULSE_MS // 2 else _PULSE_MS - t
            return _FULL // 8 + tri * (_FULL - _FULL // 8) // (_PULSE_MS // 2)  # 1/8 to full
        if e == SPIN:
            return (now // _SPIN_MS) % 6
        return 0

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

    def _sort(self):
        # a counting sort: each effect's cells counted, its run placed after the
        # runs before it, then the cells put in their runs (two passes over them)
        key, order, starts = self._key, self._order, self._starts
        for e in range(SPIN + 2):
            starts[e] = 0
        for i in range(self.n):
            starts[key[i] % 5 + 1] += 1
        for e in range(1, SPIN + 2):
            starts[e] += starts[e - 1]
        for i in range(self.n):
            e = key[i] % 5
            order[starts[e]] = i
            starts[e] += 1  # (each run's start moves to its end: the next one's start)
        for e in range(SPIN + 1, 0, -1):
            starts[e] = starts[e - 1]
        starts[0] = 0
        self._sorted = True

    def _update(self, now_ms):
        # each cell whose phase moved takes its look's channel sums (and is drawn)
        of, was = self._of_effect, self._of_was  # each effect's phase once a frame, not once a cell
        moved = 0  # a bit for each effect whose phase moved
        for e in range(SPIN + 1):
            of[e] = ph = self._phase_of(e, now_ms)
            if ph != was[e]:
                was[e] = ph
                moved |= 1 << e
        if self.pending:
            moved = 1 << (SPIN + 1)  # a cell was set: one run over every cell
        if not moved:
            return  # no cell's phase moved, none was set: nothing to take
        if not self._sorted:
            self._sort()
        # locals, at most three to a line (MicroPython packs a longer one in a tuple)
        phase, key, bx = self._phase, self._key, self._bx
        sums, todo, order = self._sum, self._todo, self._order
        chain, chain_sum = self._chain, self._chain_sum
        looks = self._looks
        ssum, sph, slot_of = looks.sums, looks.phase, looks.slot_of
        total = self._total
        nt = self._ntodo
        k = self.scale  # the last frame's: this one's too unless the limit moves it
        for e in range(SPIN + 2):
            if not moved >> e & 1:
                continue
            if e > SPIN:
                lo = 0
                hi = self.n
            else:
                lo = self._starts[e]
                hi = self._starts[e + 1]
            for j in range(lo, hi):
                i = order[j]
                kk = key[i]
                ph = of[kk % 5]
                if ph == phase[i]:
                    continue
                phase[i] = ph
                sl = slot_of[kk]
                if sl == _NONE or sph[sl] != ph:
                    sl = looks.slot(kk, ph, k)
                s = ssum[2 * sl + (bx[i] != 0)]  # with a side drawn bright, or not
                d = s - sums[i]
                if d:
                    total += d
                    chain_sum[chain[i]] += d
                    sums[i] = s
                todo[nt] = i
                nt += 1
        self._ntodo = nt
        self._total = total
        self.pending = False

    def frame(self, now_ms):
        self.prepare(now_ms)
        return self.draw()

    def prepare(self, now_ms):
        # the frame's phases, power and colours, into the looks: everything but the
        # strip's bytes, so this may run while the last frame still goes out of strip.buf.
        # Called again before draw() (a change came meanwhile), the cells it listed are
        # worked out again and listed once
        todo = self._todo
        if self._ntodo:
            for j in range(self._ntodo):
                self._phase[todo[j]] = _FORCE
            self._ntodo = 0
            self.pending = True
        if self._animated or self.pending:
            self._update(now_ms)
        k = self._limit()
        if k != self.scale:  # every cell drawn again, at the new scale
            for i in range(self.n):
                todo[i] = i
            self._ntodo = self.n
        self.scale = k
        looks = self._looks
        owner, count = looks.owner, looks.count
        sph, sk = looks.phase, looks.scale
        for sl in range(_SLOTS):
            kk = owner[sl]
            if kk != _NONE and count[kk] and sk[sl] != k and sph[sl] != _FORCE:
                looks.work_out(kk, sph[sl], sl, k)

    def draw(self):
        # the cells prepare() left to draw, into strip.buf: True if any was
        k = self.scale
        todo = self._todo
        looks = self._looks
        buf, pats, brights = self.strip.buf, looks.pat, looks.brights
        key, base, side3 = self._key, self._base, self._side3
        bx, slot_of = self._bx, looks.slot_of
        sk, of = looks.scale, self._of_effect
        pk, fmt = pack_into, self._fmt
        nt = self._ntodo
        self._ntodo = 0
        for j in range(nt):
            i = todo[j]
            kk = key[i]
            sl = slot_of[kk]
            if sl == _NONE or sk[sl] != k:
                sl = looks.slot(kk, of[kk % 5])
                if sk[sl] != k:
                    looks.work_out(kk, of[kk % 5], sl, k)
            pk(fmt, buf, 3 * base[i], pats[sl])
            x = bx[i]
            if x:
                if x == _SPUN:
                    x = 3 * base[i] + side3[of[SPIN]]
                pk("3s", buf, x, brights[sl])
        return nt > 0

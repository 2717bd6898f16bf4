# Which reader hears which tag, by distance: the coupling model of the
# simulated board.  Sim-only code (unix port).
#
#   c = Coupling(model, slot_mm)    model: the figures of coupling.json (the
#                                   host passes them in the config, "coupling");
#                                   slot_mm: [[x, y], ...] each reader's centre
#   c.place(tag, x, y) / c.remove(tag)   a tag lying at (x, y) mm, or gone
#   c.field(slot, on)               a reader's carrier switched on or off
#   c.settings(cw, rxgain)          CWGsPReg and RFCfgReg's RxGain code, as
#                                   the driver wrote them (all readers alike)
#   c.heard[slot]                   the tags that reader can talk to now
#   c.link(slot, tag) -> 0 | 1      what happens to one frame: 0 it goes
#                                   through, 1 the tag hears nothing; and
#                                   c.garble is 0, GARBLED or CHECK_VALID: how
#                                   the answer arrives
#
# A tag is powered when the fields of the readers that are on add up to what
# it needs (fields of several readers add); it is reset when they no longer do,
# and answers nothing in its first guard_us (ISO/IEC 14443-3: up to 5 ms).
# A powered tag talks to every reader whose field is on within hearing range,
# whichever field powers it: the cross-read makers meet with all fields on.
# Links under the model's margins are weak: some frames are lost or damaged,
# at the rates of coupling.json, drawn from a seeded generator (the same run
# gives the same reads).
import math
import time

GARBLED = 1  # the answer arrives damaged: its CRC_A or BCC says so
CHECK_VALID = 2  # damaged, but its check still passes


class Coupling:
    def __init__(self, model, slot_mm):
        self.m = model
        w, h = model["antenna_mm"]
        self._a2 = w * h / math.pi  # radius^2 of the circle of the loop's area
        self._h2 = model["tag_height_mm"] ** 2
        self._need = self._law(model["power_range_mm"] ** 2) * model["cw_full"]
        self._hear = self._law(model["hearing_range_mm"] ** 2)
        self._pos = slot_mm
        n = len(slot_mm)
        self.on = bytearray(n)
        self.heard = [()] * n
        self._tags = []  # [tag, x, y]
        self._weak = {}  # (slot, id(tag)) of weak links
        self.cw = model["cw_full"] // 2 + 1  # reset values: CWGsPReg 0x20
        self.rxgain = 4  # RFCfgReg reset 0x48: 33 dB
        self._rng = model.get("seed", 1) or 1
        self.garble = 0

    def _law(self, r2):
        a2 = self._a2
        return a2 * math.sqrt(a2) / (a2 + r2 + self._h2) ** 1.5

    def _r2(self, slot, x, y):
        p = self._pos[slot]
        return (p[0] - x) ** 2 + (p[1] - y) ** 2

    def at(self, slot):
        return self._pos[slot]

    # --- what changes ------------------------------------------------------
    def place(self, tag, x, y):
        self.remove(tag)
        tag.powered_at = None
        self._tags.append([tag, x, y])
        self._update()

    def remove(self, tag):
        self._tags = [t for t in self._tags if t[0] is not tag]
        self._update()

    def field(self, slot, on):
        if self.on[slot] != on:
            self.on[slot] = on
            self._update()

    def settings(self, cw, rxgain):
        if (cw, rxgain) != (self.cw, self.rxgain):
            self.cw = cw
            self.rxgain = rxgain
            self._update()

    def _update(self):
        now = time.ticks_us()
        m = self.m
        heard = [[] for _ in self.on]
        self._weak = {}
        for t in self._tags:
            tag, x, y = t
            power = 0.0
            for s in range(len(self.on)):
                if self.on[s]:
                    power += self.cw * self._law(self._r2(s, x, y))
            if power < self._need:
                if tag.powered_at is not None:
                    tag.power_off()
                tag.powered_at = None
                continue
            if tag.powered_at is None:
                tag.powered_at = now
            weak_power = power < self._need * m["solid_power_margin"]
            for s in range(len(self.on)):
                c = self._law(self._r2(s, x, y))
                if self.on[s] and c >= self._hear:
                    heard[s].append(tag)
                    if weak_power or c < self._hear * m["solid_hearing_margin"]:
                        self._weak[(s, id(tag))] = 1
        self.heard = [tuple(h) for h in heard]

    # --- one frame ------------------------------------------------------------
    def _draw(self):
        # xorshift32: the same seed, the same run
        x = self._rng
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._rng = x
        return x / 4294967296.0

    def link(self, slot, tag):
        self.garble = 0
        if time.ticks_diff(time.ticks_us(), tag.powered_at) < self.m["guard_us"]:
            return 1  # still starting up: it does not take the frame
        if (slot, id(tag)) not in self._weak:
            return 0
        m = self.m
        r = self._draw()
        if r < m["weak_silent"]:
            return 1
        garbled = m["weak_garbled"] * m["rxgain_garble_factor"][self.rxgain]
        if r < m["weak_silent"] + garbled:
            self.garble = CHECK_VALID if self._draw() < m["garbled_check_valid"] else GARBLED
        return 0


def damage(out, start, end, how, crc_a):
    # Damage an answer in place (bits start..end of out): one bit flipped; a
    # check-valid damage keeps the answer's check true (the same bit of two
    # UID bytes under one BCC, or a CRC_A recomputed over the damaged bytes).
    if start or end - start < 16:
        return  # a partial anticollision answer or a 4-bit ACK: left alone
    n = (end - start) >> 3
    out[0] ^= 0x10
    if how != CHECK_VALID:
        return
    if n == 5:  # CT/UID bytes and their BCC
        out[1] ^= 0x10
    elif n >= 3:
        c = crc_a(out, n - 2)
        out[n - 2] = c & 0xFF
        out[n - 1] = c >> 8

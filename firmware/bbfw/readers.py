# The slot readers: one NtagReader (MFRC522) driver per slot, seen as tags and payloads.
#
#   bank = ReaderBank(drivers)       drivers[i] reads slot i (MFRC522 objects,
#                                    or one shared: SharedReaders)
#   SharedReaders(driver, chain, count)   drivers[slot] of readers on one bus
#                                    used one at a time (the Pico): one
#                                    driver whose chip select is the 74HC595
#                                    chain's /OE pin, the chain pointed at the
#                                    slot asked for (hc595.point)
#   bank.init() -> int               readers that answered (the others are
#                                    probed again on every poll, 2 SPI bytes)
#   bank.poll(slot) -> memoryview | None
#       the UID of the tag in the slot (a view reused by the next poll of the
#       same reader; copy it to keep it), None when no tag answered
#   bank.read_payload(slot) -> bytes | None
#       the 16-byte tile payload (docs/tiles.md), its CRC_A checked; None
#       when it cannot be read or is not a tile payload
#   bank.write_payload(slot, payload) -> int   status (OK when written and
#                                    read back identical)
#   bank.status[slot]                status of the last operation on the slot:
#                                    mfrc522 OK..CHIP_TIMEOUT, NO_PAYLOAD,
#                                    BAD_PAYLOAD
#   bank.collided[slot]              1 when the last poll saw several tags
#   bank.errors                      per reader 3 counters (array of u16,
#                                    saturating): [3 * slot] answers with a bad
#                                    CRC, [3 * slot + 1] bit collisions,
#                                    [3 * slot + 2] over-temperature episodes
#   bank.hot[slot]                   1 while the reader is over temperature
#   bank = ReaderBank(drivers, groups, rf, zones)   groups: each slot's field
#                                    group (a str of digits, board.json "fields"):
#                                    fields start off and the scanner switches
#                                    them; None: every field on from init
#                                    rf: MFRC522.rf (gain and drive), or None
#                                    zones: each slot's zone (board.json
#                                    "zones", a character from "0"): readers of
#                                    two zones never hear each other; None: one
#   bank.field(slot, on)             a reader's carrier on or off (off resets
#                                    the tags in it)
#   bank.on[slot]                    1 while its field is on
#   bank.settle(slot)                wait out the guard time after the slot's
#                                    zone's last field came on (poll does it)
#   bank.on_hot(slot, hot)           called when a reader overheats (its chip
#                                    switched the antenna off: it reads nothing)
#                                    and when it has cooled and reads again
#
# Over temperature (ErrorReg TempErr): the slot reads as empty, and each poll
# only asks the chip whether it is still hot (one register read); once it is
# not, the antenna goes back on and polling goes on as before.
#
# Guard time: ISO/IEC 14443-3 lets a tag take 5 ms after the field comes on
# before it must accept REQA/WUPA, so nothing is sent to a reader until
# _FIELD_GUARD_US after its field came on (tests/firmware/test_fields.py: the chip
# model's tags ignore what comes sooner).
#
# A polled tag is left selected (ACTIVE): an arrival reads its payload at once,
# and the next poll only checks that the same tag still answers (FAST_READ of
# the UID pages, one exchange).  When it does not (removed, swapped, reset),
# the poll falls back to WUPA + anticollision + select at once.  A selected tag
# ignores WUPA, so one poll in RECHECK_EVERY halts it first and wakes the
# whole field: a second tile laid on the first collides there and is seen
# (bank.collided).  After its field was off, the tag is idle but its UID is
# known: the poll selects it with that UID (WUPA and a SELECT per cascade
# level, NtagReader.reselect), skipping the anticollision exchanges, and falls
# back to the full select when it does not answer; a REQA after it is
# answered only by a second tag in the field (bank.collided), and leaves the
# known one idle.  Polls allocate nothing.
import time
from array import array

from micropython import const

from bbshared import tilecheck  # the tile payload's layout and check (not the encoder: host side)
from bbshared.messages import TAG_STATUS
from .drivers.mfrc522 import MFRC522, OK, CHIP_TIMEOUT, TIMEOUT, STATE_BYTES
from .drivers.ntag_reader import crc_a

NO_PAYLOAD = const(7)  # the tag answered but holds no tile payload
BAD_PAYLOAD = const(8)  # a tile payload with a wrong CRC or unknown version
STATUS_NAMES = TAG_STATUS  # the same codes the host reads in TAG_WRITTEN
RECHECK_EVERY = const(4)  # of a selected tag's polls, one wakes the whole field
# ErrorReg bits in MFRC522.errors (the driver's values; MFRC522 datasheet 9.3.1.7)
_ERR_TEMP = const(0x40)  # TempErr: the chip switched its antenna drivers off
_ERR_COLL = const(0x08)  # CollErr
_ERR_CRC = const(0x04)  # CRCErr: an answer whose CRC_A was wrong
_SELECTED = const(1)  # _selected[slot]: the tag was left selected (ACTIVE)
_KNOWN = const(2)  # its field went off since: idle, but its UID is the driver's last
_FIELD_GUARD_US = const(5100)  # field on before the first request (ISO/IEC 14443-3, 5)
_SETTLED = const(0xFFFF)  # _on_at: the field's guard time is over


class ReaderBank:
    def __init__(self, drivers, groups=None, rf=None, zones=None):
        self._d = drivers
        n = len(drivers)
        self.count = n
        # each slot's field group, or None: all fields on (a config without a schedule)
        self.groups = None
        if groups:
            g = self.groups = bytearray(groups, "ascii")  # digits "0101...": one block, no generator
            for i in range(n):
                g[i] -= 48
        self.zones = None
        if groups and zones:
            z = self.zones = bytearray(zones, "ascii")
            for i in range(n):
                z[i] -= 48
        # when the last field of each zone came on (ticks_us, low 16 bits),
        # _SETTLED once its guard time has passed: a zone's fields come on
        # together, and one zone's polls run during another's guard time
        self._on_at = array("H", bytes(2 * (max(self.zones) + 1 if self.zones else 1)))
        if rf:
            MFRC522.rf = tuple(rf)
        self.on = bytearray(n)
        self.status = bytearray(n)
        self.collided = bytearray(n)
        self.alive = bytearray(n)
        self._selected = bytearray(n)
        self._checks = bytearray(n)  # polls of a selected tag since the field was woken whole
        self.errors = array("H", bytes(6 * n))
        self.hot = bytearray(n)
        self.on_hot = None

    def init(self):
        for i in range(self.count):
            self.alive[i] = 1 if self._d[i].init() else 0
            self.status[i] = OK if self.alive[i] else CHIP_TIMEOUT
            self.on[i] = 1  # init switches the antenna on
            if self.groups:
                self.field(i, False)  # the scanner switches it on in its group's turn
        self._on_at[0] = time.ticks_us() & 0xFFFF  # without zones, every field is zone 0's
        return sum(self.alive)

    def field(self, slot, on):
        if self.on[slot] == on:
            return
        self.on[slot] = 1 if on else 0
        self._d[slot].antenna(on)
        if on:
            t = time.ticks_us() & 0xFFFF
            z = self.zones
            self._on_at[z[slot] if z else 0] = t if t != _SETTLED else t - 1
        elif self._selected[slot]:
            # the tag in it lost power: idle when the field comes back, but its
            # UID is known, so the next poll selects it without anticollision
            self._selected[slot] = _KNOWN

    def settle(self, slot):
        z = self.zones
        z = z[slot] if z else 0
        t = self._on_at[z]
        if t == _SETTLED:
            return
        wait = _FIELD_GUARD_US - ((time.ticks_us() - t) & 0xFFFF)
        if wait > 0:
            time.sleep_us(wait)
        self._on_at[z] = _SETTLED

    def _count(self, slot):
        # ErrorReg bits the driver saw in the last operation on this reader
        e = MFRC522.errors
        MFRC522.errors = 0  # a class attribute, shared by all readers (never type(d): a subclass)
        c = self.errors
        o = 3 * slot
        if e & _ERR_CRC and c[o] < 0xFFFF:
            c[o] += 1
        if e & _ERR_COLL and c[o + 1] < 0xFFFF:
            c[o + 1] += 1
        if e & _ERR_TEMP and not self.hot[slot]:
            self.hot[slot] = 1
            self._selected[slot] = 0  # the field went off: every tag in it reset
            if c[o + 2] < 0xFFFF:
                c[o + 2] += 1
            if self.on_hot is not None:
                self.on_hot(slot, True)

    def _wake(self, slot, d):
        # halt a tag left selected, then WUPA + select; returns a status
        if not self.alive[slot]:
            if not d.init():
                return CHIP_TIMEOUT
            self.alive[slot] = 1
        if self.hot[slot]:
            if d.overheated():
                return TIMEOUT  # the antenna is off: nothing can answer
            self.on[slot] = 0
            self.field(slot, True)  # cooled down: on again
            self.settle(slot)
            self.hot[slot] = 0
            if self.on_hot is not None:
                self.on_hot(slot, False)
        sel = self._selected[slot]
        if sel == _KNOWN:
            # its field was off: the tag is selected by its UID, then any other
            # tag laid with it (idle: that SELECT named another UID) answers
            # REQA.  The REQA leaves the known tag idle too: known still
            self._selected[slot] = 0
            if d.reselect() == OK:
                self.collided[slot] = 1 if d.wake_others() == OK else 0
                self._selected[slot] = _KNOWN
                return OK
        elif sel:
            # a selected tag answers alone: now and then it is sent to sleep and
            # the field woken whole, so that a second tag laid on it collides
            self._checks[slot] = (self._checks[slot] + 1) % RECHECK_EVERY
            if self._checks[slot]:
                if d.still_there() == OK:
                    return OK
            else:
                d.halt()
            self._selected[slot] = 0  # halted, or after a failed exchange idle or gone
        st = d.detect(True)
        if st == OK:
            self._selected[slot] = _SELECTED
        elif st == CHIP_TIMEOUT:
            self.alive[slot] = 0
        self.collided[slot] = 1 if d.collided else 0
        return st

    def poll(self, slot):
        if not self.on[slot]:
            self.field(slot, True)  # outside the scanner's plan (a test, a write)
        self.settle(slot)
        st = self._wake(slot, self._d[slot])
        if MFRC522.errors:
            self._count(slot)
        self.status[slot] = st
        if st == OK:
            return MFRC522.uid  # (the driver's results are the class's: see mfrc522)
        return None

    def read_payload(self, slot):
        self.settle(slot)
        p = self._read_payload(slot)
        if MFRC522.errors:
            self._count(slot)
        return p

    def _activate(self, slot, d):
        # the slot's tag selected (ACTIVE) for READ or WRITE; returns a status.
        # A known tag by its UID alone: _wake's second-tag check (REQA) would
        # leave it idle, and an idle tag answers no READ or WRITE
        sel = self._selected[slot]
        if sel == _SELECTED:
            return OK
        st = d.reselect() if sel == _KNOWN else self._wake(slot, d)
        self._selected[slot] = _SELECTED if st == OK else 0
        return st

    def _read_payload(self, slot):
        d = self._d[slot]
        st = self._activate(slot, d)
        if st != OK:
            self.status[slot] = st
            return None
        st = d.read(tilecheck.FIRST_PAGE)
        if st != OK:
            self._selected[slot] = 0  # after an error the tag is idle or gone
            self.status[slot] = st
            return None
        data = d.data
        r = tilecheck.check(data, crc_a(data, 14))
        if r != tilecheck.OK:
            self.status[slot] = NO_PAYLOAD if r == tilecheck.BLANK else BAD_PAYLOAD
            return None
        self.status[slot] = OK
        return bytes(data)

    def write_payload(self, slot, payload):
        # seldom used (WRITE_TAG): the code is rare.write_payload, loaded for the call
        from .rare import write_payload

        return write_payload(self, slot, payload)


class SharedReaders:
    # 36 readers cost one driver object, not 36 drivers and 36 chip selects
    # (about 150 bytes each), each reader's state a part of one buffer.  The
    # driver's chip select is the chain's /OE pin: a register access then
    # moves one GPIO (C code), and the chain is shifted only when another
    # reader is asked for.  A ReaderBank asks once an operation.
    def __init__(self, driver, chain, count):
        self._driver = driver
        self._chain = chain
        self._count = count
        self._states = bytearray(STATE_BYTES * count)

    def __len__(self):
        return self._count

    def __getitem__(self, slot):
        d = self._driver
        self._chain.point(slot)
        d._u = self._states  # (MFRC522.__init__ says why: a state by offset in one buffer)
        d._o = STATE_BYTES * slot
        return d

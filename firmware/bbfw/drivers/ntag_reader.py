# An MFRC522 reader that speaks ISO/IEC 14443-3 type A to NTAG21x tags: the
# frames and the checks of their answers, over the chip driver (mfrc522.py:
# registers, FIFO, timer, results shared by all readers), with CRC_A in software.
#
#   r = NtagReader(spi, cs)  an mfrc522.MFRC522 (init, antenna, crc...), plus:
#   r.request(cmd) -> st     REQA (0x26) or WUPA (0x52) as a 7-bit short frame
#   r.select() -> st         anticollision + select, cascade levels 1..3;
#                            UID in r.uid (a shared view, 4/7/10 bytes),
#                            r.collided True if several tags had to be told apart
#   r.detect(wake=True) -> st   request (WUPA or REQA) then select
#   r.reselect() -> st      WUPA, then SELECT at each cascade level with the UID
#                            this reader last selected, no anticollision
#                            (ISO/IEC 14443-3: a PCD that knows the UID may
#                            SELECT it directly); TIMEOUT when that tag
#                            does not answer (a tag with another UID stays
#                            silent and goes back to IDLE)
#   r.wake_others() -> st   REQA after a select: OK when another tag answers
#                            (idle, not the one selected: that one goes back
#                            to IDLE, silent); TIMEOUT when it was alone
#   r.halt() -> st           HLTA: the selected tag sleeps until the next WUPA
#   r.read(page) -> st       NTAG READ: 4 pages (16 bytes) into r.data (reused view)
#   r.fast_read(a, b) -> st  NTAG FAST_READ of pages a..b (at most 5) into r.answer
#   r.still_there() -> st    the selected NTAG answers FAST_READ of pages 0-1 with
#                            the UID last selected: one short exchange instead of
#                            WUPA + two cascade levels (OK, or why not)
#   r.write(page, data) -> st   NTAG WRITE of one 4-byte page (ACK/NAK)
#   crc_a(buf, n) -> int     CRC_A of buf[:n] (ISO/IEC 14443-3 annex B)
#
# Results (the st values, r.uid, r.sak...) are mfrc522's: shared by all
# readers, written through the name MFRC522 only (see there).  Apart from the
# chip so that each file keeps one job; the polling path allocates nothing.
from micropython import const

from .mfrc522 import MFRC522, OK, COLLISION, PROTOCOL_ERROR, NAK

REQA = const(0x26)
WUPA = const(0x52)

# ISO/IEC 14443-3 and NTAG21x command bytes
_SEL = (0x93, 0x95, 0x97)  # select / anticollision, cascade levels 1..3
_CT = const(0x88)  # cascade tag: a UID byte follows at the next level
_NTAG_READ = const(0x30)
_NTAG_FAST_READ = const(0x3A)
_NTAG_WRITE = const(0xA2)
_HLTA = const(0x50)
_ACK = const(0x0A)

# The chip's no-answer timer, in 25 us ticks; it runs the reload value + 1
# ticks (MFRC522 data sheet 8.5; READ and FAST_READ take mfrc522's 0.5 ms):
# REQA/WUPA, anticollision and SELECT: ISO/IEC 14443-3 (6.2.1.1) fixes their
# answer's frame delay time at 1172/fc or 1236/fc (86-91 us, n = 9), and TAuto
# stops the timer at the answer's 5th bit (9.3.3.10), 47 us later: by 139 us.
# Reload 6 runs 175 us, 36 us to spare, and an empty slot's WUPA waits no
# longer than that for nobody (the chip model loses answers a shorter timer cuts)
_TICKS_ISO = const(6)
# NTAG WRITE answers after programming the page, about 4.1 ms, and may take up
# to TTimeOut = 10 ms (NTAG213F/216F data sheet rev. 3.1, table 32): 12 ms
_TICKS_LONG = const(480)

_cl = None  # cascade level being resolved: SEL, NVB, 4 UID bytes / CT, BCC (made once)


def crc_a(buf, n):
    # ISO/IEC 14443-3 annex B, a byte at a time, without a table (a table
    # would cost a Pico's heap more than it saves there)
    c = 0x6363
    for i in range(n):
        ch = (buf[i] ^ c) & 0xFF
        ch = (ch ^ (ch << 4)) & 0xFF
        c = (c >> 8) ^ (ch << 8) ^ (ch << 3) ^ (ch >> 4)
    return c


class NtagReader(MFRC522):
    def init(self):
        if not MFRC522.init(self):
            return False
        self._timer(_TICKS_ISO)  # the empty slot's WUPA, the commonest frame
        return True

    # --- ISO/IEC 14443-3 type A ---------------------------------------------
    def request(self, cmd=WUPA):
        self.frame[0] = cmd
        st = self._transceive(1, 7, 0, _TICKS_ISO)
        if st == COLLISION:  # ATQA bits differ between tags: still tags there
            return OK
        if st == OK and (self.rx_len != 2 or self.rx_bits != 8):
            return PROTOCOL_ERROR
        if st == OK:
            a = self.answer
            MFRC522.atqa = a[0] | (a[1] << 8)
        return st

    def detect(self, wake=True):
        MFRC522.collided = False
        st = self.request(WUPA if wake else REQA)
        if st != OK:
            return st
        return self.select()

    def select(self):
        MFRC522.collided = False
        u = self._u
        o = self._o
        for level in range(3):
            st = self._anticollision(level)
            if st != OK:
                return st
            cl = _cl
            st = self._select_level(level)
            if st != OK:
                return st
            if cl[2] == _CT:
                for i in range(3):
                    u[o + 3 * level + i] = cl[3 + i]
                if not self.sak & 0x04:  # a cascade tag without the cascade bit
                    return PROTOCOL_ERROR
                continue
            for i in range(4):
                u[o + 3 * level + i] = cl[2 + i]
            u[o + 10] = level
            self._publish_uid()
            return OK
        return PROTOCOL_ERROR

    def reselect(self):
        # the known UID's SELECT frames, CRC_A kept from the full select: three
        # exchanges for a 7-byte UID instead of five, no bit-merging loop and
        # no CRC_A to compute
        MFRC522.collided = False
        u = self._u
        o = self._o
        last = u[o + 10]
        if last > 1:
            return self.detect(True)  # 10-byte UIDs (no NTAG): no CRCs kept
        st = self.request(WUPA)
        if st != OK:
            return st
        f = self.frame
        for level in range(last + 1):
            i = o + 3 * level
            f[0] = _SEL[level]
            f[1] = 0x70  # NVB: all 40 bits
            if level < last:
                f[2] = _CT
                f[3] = u[i]
                f[4] = u[i + 1]
                f[5] = u[i + 2]
            else:
                for k in range(4):
                    f[2 + k] = u[i + k]
            f[6] = f[2] ^ f[3] ^ f[4] ^ f[5]
            f[7] = u[o + 12 + 2 * level]
            f[8] = u[o + 13 + 2 * level]
            st = self._sak()
            if st != OK:
                return st
        self._publish_uid()
        return OK

    def wake_others(self):
        # ISO/IEC 14443-3: REQA is no command for an ACTIVE tag (it returns to
        # IDLE without answering), but every IDLE one answers it
        return self.request(REQA)

    def _anticollision(self, level):
        # Finds the 32 UID bits + BCC of one cascade level into cl[2:7],
        # resolving collisions by choosing the tag with a 1 at the first
        # differing bit (ISO/IEC 14443-3, 6.5.3).
        global _cl
        if _cl is None:
            _cl = bytearray(7)
        cl = _cl
        for i in range(2, 7):
            cl[i] = 0
        known = 0
        for _ in range(33):
            whole = known >> 3
            rem = known & 7
            f = self.frame
            f[0] = _SEL[level]
            f[1] = ((2 + whole) << 4) | rem  # NVB: bytes and bits sent
            n = 2 + whole + (1 if rem else 0)
            for i in range(2, n):
                f[i] = cl[i]
            st = self._transceive(n, rem, rem, _TICKS_ISO)
            if st != OK and st != COLLISION:
                return st
            a = self.answer
            got = self.rx_len
            if whole + got > 5:
                return PROTOCOL_ERROR
            for i in range(got):  # merge: the first byte completes a partial one
                if i == 0 and rem:
                    keep = (1 << rem) - 1
                    cl[2 + whole] = (cl[2 + whole] & keep) | (a[0] & ~keep & 0xFF)
                else:
                    cl[2 + whole + i] = a[i]
            if st == OK:
                if cl[2] ^ cl[3] ^ cl[4] ^ cl[5] != cl[6]:
                    return PROTOCOL_ERROR  # BCC wrong: a garbled answer
                return OK
            MFRC522.collided = True
            pos = self._coll_pos()
            if not pos:
                return COLLISION
            bit = (whole << 3) + pos - 1  # index of the colliding bit in the 40
            if bit < known or bit >= 32:
                return PROTOCOL_ERROR
            cl[2 + (bit >> 3)] |= 1 << (bit & 7)
            known = bit + 1
        return PROTOCOL_ERROR

    def _select_level(self, level):
        f = self.frame
        cl = _cl
        f[0] = _SEL[level]
        f[1] = 0x70  # NVB: all 40 bits
        for i in range(2, 7):
            f[i] = cl[i]
        self._add_crc(7)
        if level < 2:  # kept: reselect sends this frame again
            self._u[self._o + 12 + 2 * level] = f[7]
            self._u[self._o + 13 + 2 * level] = f[8]
        return self._sak()

    def _sak(self):
        # sends the SELECT in frame[:9]; the answer is SAK and its CRC_A,
        # checked here
        st = self._transceive(9, 0, 0, _TICKS_ISO)
        if st != OK:
            return st
        if self.rx_len != 3:
            return PROTOCOL_ERROR
        a = self.answer
        c = crc_a(a, 1)
        if a[1] != c & 0xFF or a[2] != c >> 8:
            return self._crc_error()
        MFRC522.sak = a[0]
        return OK

    def _add_crc(self, n):
        # CRC_A after frame[:n]; returns the frame's new length
        f = self.frame
        c = crc_a(f, n)
        f[n] = c & 0xFF
        f[n + 1] = c >> 8
        return n + 2

    def halt(self):
        # HLTA: the tag must not answer, so Transmit (no receive) is enough
        f = self.frame
        f[0] = _HLTA
        f[1] = 0
        return self._transmit(self._add_crc(2))

    # --- NTAG21x -------------------------------------------------------------
    def read(self, page):
        # 16 bytes (pages page..page+3) into self.data; a reused view
        f = self.frame
        f[0] = _NTAG_READ
        f[1] = page
        return self._pages(2, 18)

    def fast_read(self, first, last):
        f = self.frame
        f[0] = _NTAG_FAST_READ
        f[1] = first
        f[2] = last
        return self._pages(3, 4 * (last - first + 1) + 2)

    def _pages(self, n, want):
        # sends the READ / FAST_READ in frame[:n] with its CRC_A; the answer is
        # want bytes (pages, then their CRC_A) or a 4-bit NAK
        st = self._transceive(self._add_crc(n))
        if st != OK:
            return st
        if self.rx_len == 1 and self.rx_bits == 4:
            return NAK
        if self.rx_len != want:
            return PROTOCOL_ERROR
        a = self.answer
        c = crc_a(a, want - 2)
        if a[want - 2] != c & 0xFF or a[want - 1] != c >> 8:
            return self._crc_error()
        return OK

    def still_there(self):
        u = self._u
        o = self._o
        if u[o + 10] != 1:
            return PROTOCOL_ERROR  # only NTAG21x (7-byte UIDs) have FAST_READ
        st = self.fast_read(0, 1)
        if st != OK:
            return st
        a = self.answer
        for i in range(3):
            if a[i] != u[o + i] or a[4 + i] != u[o + 3 + i]:
                return PROTOCOL_ERROR
        if a[7] != u[o + 6]:
            return PROTOCOL_ERROR
        self._publish_uid()
        return OK

    def write(self, page, data):
        f = self.frame
        f[0] = _NTAG_WRITE
        f[1] = page
        for i in range(4):
            f[2 + i] = data[i]
        st = self._transceive(self._add_crc(6), ticks=_TICKS_LONG)
        if st != OK:
            return st
        if self.rx_len != 1 or self.rx_bits != 4:
            return PROTOCOL_ERROR
        return OK if self.answer[0] & 0x0F == _ACK else NAK

# Virtual NTAG213 tag (ISO/IEC 14443-A, 7-byte UID) for the simulated board.
#
#   tag = Ntag213(uid7, payload=None)   payload bytes land at user page 4
#   tag.byte(a)                         memory byte a of 180 (45 pages of 4)
#   tag.receive(frame, nbits) -> int    answer end bit (0: silent); the answer
#                                       is bits tag.start .. tag.end of tag.out
#                                       (a buffer shared by position: answer_buffer)
#   tag.power_off()                     left the field or field switched off
#   tag.fault = FAULT_...               what goes wrong on the air (data, set at
#                                       any time; FAULTS names them for the
#                                       control socket): CRC: answers with a
#                                       CRC_A arrive with it wrong; BCC: the
#                                       anticollision answer's BCC is wrong;
#                                       PARITY / PROTOCOL: the reader model flags
#                                       ParityErr / ProtocolErr on the answer
#   crc_a(buf, n) -> int                ISO/IEC 14443-3 CRC_A (preset 0x6363)
#
# States follow ISO/IEC 14443-3: IDLE, READY (per cascade level), ACTIVE, HALT;
# a tag woken from HALT goes back to HALT (not IDLE) on any unexpected frame.
# Commands in ACTIVE: READ, FAST_READ, WRITE, HLTA.  NTAG213 memory map: pages 0-2 UID/BCC/lock, 3 capability container,
# 4-39 user memory, 40-44 configuration.  Sim-only code (unix port).
from micropython import const

IDLE = const(0)
READY1 = const(1)
READY2 = const(2)
ACTIVE = const(3)
HALT = const(4)

_PAGES = const(45)
_KEPT = const(64)  # bytes of pages 0..15, always in memory
# configuration pages 40..44 as delivered (NTAG213 datasheet 8.5)
_CONFIG = b"\x00\x00\x00\xbd\x04\x00\x00\xff\x00\x05\x00\x00\xff\xff\xff\xff\x00\x00\x00\x00"
_SAK_CASCADE = const(0x04)
_SAK_NTAG = const(0x00)

# WRITE answers ACK only after programming the page: about 4.1 ms (NTAG203
# data sheet, fig. 17, WRITE response time); a reader must wait up to
# TTimeOut = 10 ms for it (NTAG213F/216F data sheet rev. 3.1, table 32)
WRITE_US = const(4100)
FAULT_NONE = const(0)
FAULT_CRC = const(1)
FAULT_BCC = const(2)
FAULT_PARITY = const(3)
FAULT_PROTOCOL = const(4)
FAULTS = {"none": FAULT_NONE, "crc": FAULT_CRC, "bcc": FAULT_BCC, "parity": FAULT_PARITY,
          "protocol": FAULT_PROTOCOL}


_answers: list = []  # answer buffers (16 pages + CRC), by tag position in one field


def answer_buffer(k):
    # Buffer for the answer of the k-th tag in a field: tags answering the
    # same frame need their own, tags of different readers never answer at
    # once, so 36 tags in 36 readers share one (a full arena's worth of
    # tags fits in the simulated board's heap).
    while len(_answers) <= k:
        _answers.append(bytearray(66))
    return _answers[k]


def crc_a(buf, n, start=0):
    crc = 0x6363
    for i in range(start, start + n):
        crc ^= buf[i]
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


class Ntag213:
    def __init__(self, uid, payload=None):
        if len(uid) != 7:
            raise ValueError("NTAG213 UIDs have 7 bytes, got %d" % len(uid))
        m = bytearray(_KEPT)
        m[0:3] = uid[0:3]
        m[3] = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        m[4:8] = uid[3:7]
        m[8] = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        m[9] = 0x48
        m[12:16] = b"\xe1\x10\x12\x00"  # CC: NDEF 1.0, 144 bytes, read/write
        self.mem = m
        self.more = None  # pages 16..44, made when first written
        if payload:
            for i in range(len(payload)):
                self._put(16 + i, payload[i])
        self.out = answer_buffer(0)  # the reader model hands each tag its own per frame
        self.start = 0
        self.end = 0
        self.state = IDLE
        self._halted = False
        self.frames = 0  # frames received while powered, for tests
        self.fault = FAULT_NONE

    # Memory: pages 0..15 (UID, lock, CC and the tile payload's pages) always,
    # pages 16..44 only once something writes there - a full arena holds 36
    # tags in the simulated board's heap, and tiles use pages 4..7 only.
    def byte(self, a):
        if a < _KEPT:
            return self.mem[a]
        if self.more is not None:
            return self.more[a - _KEPT]
        return _CONFIG[a - 160] if a >= 160 and a < 180 else 0

    def _put(self, a, v):
        if a < _KEPT:
            self.mem[a] = v
            return
        if self.more is None:
            self.more = bytearray(_PAGES * 4 - _KEPT)
            self.more[160 - _KEPT:180 - _KEPT] = _CONFIG
        self.more[a - _KEPT] = v

    def power_off(self):
        self.state = IDLE
        self._halted = False

    def _fail(self):
        self.state = HALT if self._halted else IDLE

    def _answer(self, n):
        # n bytes of out followed by their CRC_A; returns the bit count
        c = crc_a(self.out, n)
        if self.fault == FAULT_CRC:
            c ^= 0x0100  # one bit of the CRC damaged on the air
        self.out[n] = c & 0xFF
        self.out[n + 1] = c >> 8
        return (n + 2) * 8

    def _nak(self, code):
        self.out[0] = code
        self._fail()
        return 4

    def receive(self, f, nbits):
        self.frames += 1
        self.start = 0
        self.delay_us = 0  # how long after the frame the answer comes (beyond the FDT)
        self.end = self._dispatch(f, nbits)
        return self.end

    def _dispatch(self, f, nbits):
        st = self.state
        if nbits == 7:
            cmd = f[0] & 0x7F
            if cmd == 0x26 and st == IDLE or cmd == 0x52 and (st == IDLE or st == HALT):
                self._halted = st == HALT
                self.state = READY1
                self.out[0] = 0x44
                self.out[1] = 0x00
                return 16
            if st != HALT:
                self._fail()
            return 0
        if st == READY1 or st == READY2:
            return self._cascade(f, nbits, st - READY1)
        if st == ACTIVE:
            return self._command(f, nbits)
        return 0

    def _cl(self, level, i):
        # byte i of cascade level `level`, read from the UID pages (no copy:
        # a full big arena holds 36 of these tags in the simulated board):
        # CL1 = CT u0 u1 u2 BCC0 (pages 0: u0 u1 u2 BCC0), CL2 = u3..u6 BCC1
        if level == 0:
            return 0x88 if i == 0 else self.mem[i - 1]
        return self.mem[4 + i]

    def _cascade(self, f, nbits, level):
        if nbits < 16 or f[0] != (0x93, 0x95)[level]:
            self._fail()
            return 0
        nvb = f[1]
        if nvb == 0x70:
            if nbits != 72 or crc_a(f, 7) != f[7] | (f[8] << 8):
                self._fail()
                return 0
            for i in range(5):
                if f[2 + i] != self._cl(level, i):
                    self._fail()
                    return 0
            self.state = READY2 if level == 0 else ACTIVE
            self.out[0] = _SAK_CASCADE if level == 0 else _SAK_NTAG
            return self._answer(1)
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
        if known < 0 or known > 32 or nbits != 16 + known:
            self._fail()
            return 0
        for b in range(known):
            if (f[2 + (b >> 3)] ^ self._cl(level, b >> 3)) >> (b & 7) & 1:
                return 0  # not our UID: stay silent, stay ready
        for i in range(5):
            self.out[i] = self._cl(level, i)
        if self.fault == FAULT_BCC:
            self.out[4] ^= 0x01  # a garbled UID answer: the BCC no longer matches
        self.start = known
        return 40

    def _command(self, f, nbits):
        nbytes = nbits >> 3
        if nbits & 7 or nbytes < 3:
            self._fail()
            return 0
        if crc_a(f, nbytes - 2) != f[nbytes - 2] | (f[nbytes - 1] << 8):
            return self._nak(0x1)
        cmd = f[0]
        if cmd == 0x30 and nbytes == 4:  # READ: 4 pages, rolling over at the end
            page = f[1]
            if page >= _PAGES:
                return self._nak(0x0)
            for i in range(16):
                self.out[i] = self.byte((page * 4 + i) % (_PAGES * 4))
            return self._answer(16)
        if cmd == 0x3A and nbytes == 5:  # FAST_READ pages f[1]..f[2]
            first = f[1]
            last = f[2]
            if first > last or last >= _PAGES or last - first > 15:
                return self._nak(0x0)
            n = 4 * (last - first + 1)
            for i in range(n):
                self.out[i] = self.byte(first * 4 + i)
            return self._answer(n)
        if cmd == 0xA2 and nbytes == 8:  # WRITE one page
            page = f[1]
            if page < 2 or page >= _PAGES:
                return self._nak(0x0)
            for i in range(4):
                a = page * 4 + i
                if page == 2 and i < 2:
                    continue  # serial number bytes are read-only
                if page == 2 or page == 3:
                    self._put(a, self.byte(a) | f[2 + i])  # lock bits and CC are one-time
                else:
                    self._put(a, f[2 + i])
            self.out[0] = 0x0A
            self.delay_us = WRITE_US
            return 4
        if cmd == 0x50 and nbytes == 4 and f[1] == 0:  # HLTA
            self.state = HALT
            self._halted = True
            return 0
        self._fail()
        return 0

# Framing: header, payload and CRC, COBS-encoded and ended by 0x00.
#
#   byte 0  protocol version
#   byte 1  message type (see messages.py)
#   byte 2  sequence number (reliable frames; 0 otherwise)
#   byte 3  flags (FLAG_RELIABLE)
#   ...     payload, at most MAX_PAYLOAD bytes
#   last 4  CRC-32 (IEEE) of everything before it, big-endian
#
# CRC-32 rather than CRC-16: at 1% byte errors a 16-bit check lets about one
# damaged frame in 65,536 through, which a long game would hit.
import struct

from .cobs import decode_into, encode_into, encoded_size
from .crc32 import crc32

HEADER = 4
MAX_PAYLOAD = 500
CRC = 4
MAX_FRAME = HEADER + MAX_PAYLOAD + CRC
MAX_WIRE = encoded_size(MAX_FRAME) + 1  # with the 0x00 delimiter

FLAG_RELIABLE = 0x01

# results of Deframer.feed for a bad frame
BAD_COBS = 1
BAD_CRC = 2
TOO_SHORT = 3
OVERSIZE = 4


def build(version, mtype, seq, flags, payload):
    # The wire bytes of one frame, delimiter included.
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("payload larger than MAX_PAYLOAD")
    raw = bytearray(HEADER + n + CRC)
    raw[0] = version
    raw[1] = mtype
    raw[2] = seq & 0xFF
    raw[3] = flags
    raw[HEADER:HEADER + n] = payload
    struct.pack_into(">I", raw, HEADER + n, crc32(memoryview(raw)[:HEADER + n]))
    wire = bytearray(encoded_size(len(raw)) + 1)
    size = encode_into(raw, len(raw), wire)
    wire[size] = 0
    if size + 1 == len(wire):  # always under 254 bytes: no slice to copy first
        return bytes(wire)
    return bytes(wire[:size + 1])


class Deframer:
    # Splits a byte stream into frames. feed() takes any chunk of bytes and
    # calls on_frame(version, mtype, seq, flags, payload) for each good frame
    # (payload is a memoryview into a reused buffer: copy it to keep it) and
    # on_bad(reason) for each bad one. Noise never raises: the next 0x00
    # starts afresh.

    def __init__(self, on_frame, on_bad):
        self._on_frame = on_frame
        self._on_bad = on_bad
        self._wire = bytearray(MAX_WIRE)
        self._raw = bytearray(MAX_FRAME)
        self._raw_view = memoryview(self._raw)
        self._n = 0
        self._overflow = False

    def feed(self, data):
        wire = self._wire
        for b in data:
            if b:
                if self._n < MAX_WIRE:
                    wire[self._n] = b
                    self._n += 1
                else:
                    self._overflow = True
            elif self._overflow:
                self._overflow = False
                self._n = 0
                self._on_bad(OVERSIZE)
            elif self._n:
                n = self._n
                self._n = 0
                self._frame(n)

    def _frame(self, n):
        size = decode_into(self._wire, n, self._raw)
        if size < 0:
            self._on_bad(BAD_COBS)
            return
        if size < HEADER + CRC:
            self._on_bad(TOO_SHORT)
            return
        raw = self._raw
        body = size - CRC
        if crc32(self._raw_view[:body]) != struct.unpack_from(">I", raw, body)[0]:
            self._on_bad(BAD_CRC)
            return
        self._on_frame(raw[0], raw[1], raw[2], raw[3], self._raw_view[HEADER:body])

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
    # The wire bytes of one frame, delimiter included (a bytearray).
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("payload larger than MAX_PAYLOAD")
    size = HEADER + n + CRC
    # Under 254 bytes COBS adds exactly one byte: the frame is laid out one
    # byte in and encoded where it lies (each byte is read before it is
    # written over), so a frame is one buffer, not three (the board makes
    # a dozen when a host opens a session)
    at = 1 if size < 254 else 0
    raw = bytearray(at + size + 1 if at else size)
    raw[at] = version
    raw[at + 1] = mtype
    raw[at + 2] = seq & 0xFF
    raw[at + 3] = flags
    raw[at + HEADER:at + HEADER + n] = payload
    struct.pack_into(">I", raw, at + HEADER + n, crc32(memoryview(raw)[at:at + HEADER + n]))
    if at:
        encode_into(raw, size, raw, at)  # raw[size + 1] stays 0: the delimiter
        return raw
    wire = bytearray(encoded_size(size) + 1)
    end = encode_into(raw, size, wire)
    wire[end] = 0
    return wire if end + 1 == len(wire) else wire[:end + 1]


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
        # COBS decodes in place (each byte lands at or before where it was
        # read): no second buffer, 0.5 KB less on the board
        self._raw_view = memoryview(self._wire)[:MAX_FRAME]
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
        raw = self._raw_view
        size = decode_into(self._wire, n, raw)
        if size < 0:
            self._on_bad(BAD_COBS)
            return
        if size < HEADER + CRC:
            self._on_bad(TOO_SHORT)
            return
        body = size - CRC
        if crc32(raw[:body]) != struct.unpack_from(">I", raw, body)[0]:
            self._on_bad(BAD_CRC)
            return
        self._on_frame(raw[0], raw[1], raw[2], raw[3], raw[HEADER:body])

# Tile payload: the 16 bytes a tile's NTAG213 carries in user pages 4..7
# (one NTAG READ).  Layout, documented in docs/tiles.md:
#   0      MAGIC 0xBB
#   1      VERSION (1)
#   2      game id: the game's tile_id in its declaration on the host
#          (1..63 botboard's own games, 64..254 other packages; docs/tiles.md)
#   3      tile kind (meaning defined by the game's tile set data)
#   4      colour (player colour / palette index)
#   5      flags (0; reserved)
#   6..9   serial number, u32 big-endian
#   10..13 reserved, 0
#   14..15 CRC_A (ISO/IEC 14443-3, preset 0x6363) of bytes 0..13, low byte
#          first: the CRC of ISO/IEC 14443-3 frames
# Pure code for CPython and MicroPython: the host writes and checks tiles with
# it; the firmware imports only tilecheck (the layout and check()) and checks
# the CRC with its reader driver's crc_a.
from .tilecheck import FIRST_PAGE, LENGTH, MAGIC, VERSION, OK, BLANK, BAD_CRC, BAD_VERSION  # noqa: F401
from . import tilecheck


def crc_a(data, n=None):
    crc = 0x6363
    for i in range(len(data) if n is None else n):
        crc ^= data[i]
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def encode(game, kind, colour, serial, flags=0):
    # The 16 payload bytes for a tile
    for name, v, top in (("game", game, 255), ("kind", kind, 255),
                         ("colour", colour, 255), ("flags", flags, 255),
                         ("serial", serial, 0xFFFFFFFF)):
        if not 0 <= v <= top:
            raise ValueError("tile %s %d out of range 0..%d" % (name, v, top))
    b = bytearray(LENGTH)
    b[0] = MAGIC
    b[1] = VERSION
    b[2] = game
    b[3] = kind
    b[4] = colour
    b[5] = flags
    for i in range(4):
        b[6 + i] = (serial >> (24 - 8 * i)) & 0xFF
    c = crc_a(b, 14)
    b[14] = c & 0xFF
    b[15] = c >> 8
    return bytes(b)


def check(buf, crc=None):
    # OK, BLANK, BAD_CRC or BAD_VERSION; crc: the CRC of buf[:14] if known
    if crc is None:
        crc = crc_a(buf, min(len(buf), 14))
    return tilecheck.check(buf, crc)


def decode(buf):
    # (game, kind, colour, serial) of a checked payload; ValueError otherwise
    st = check(buf)
    if st != OK:
        raise ValueError(("", "no tile payload", "tile payload CRC mismatch",
                          "tile payload of an unknown version")[st])
    serial = (buf[6] << 24) | (buf[7] << 16) | (buf[8] << 8) | buf[9]
    return buf[2], buf[3], buf[4], serial

# The board's part of the tile payload (bbshared.tilepayload): where it lies
# on the tag and whether 16 bytes read from it are a tile payload.  The board
# computes the CRC with its reader driver's crc_a (drivers/ntag_reader.py), so
# it needs not the encoding, which stays in tilepayload (host side):
# importing only this keeps it out of a Pico's heap (about 0.8 KB).
#
#   check(buf, crc) -> OK, BLANK, BAD_CRC or BAD_VERSION
#       crc: CRC_A of buf[:14], computed by the caller
FIRST_PAGE = 4
LENGTH = 16
MAGIC = 0xBB
VERSION = 1

OK = 0
BLANK = 1  # no payload: magic byte absent (a new or foreign tag)
BAD_CRC = 2  # magic present, CRC wrong: corrupt or half-written
BAD_VERSION = 3  # written by a newer format


def check(buf, crc):
    if len(buf) < LENGTH or buf[0] != MAGIC:
        return BLANK
    if buf[14] != crc & 0xFF or buf[15] != crc >> 8:
        return BAD_CRC
    if buf[1] != VERSION:
        return BAD_VERSION
    return OK

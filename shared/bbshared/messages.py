# The message catalogue: every message type in one table.
#
# A payload is a sequence of fields; field kinds:
#   B u8, H u16, I u32 (big-endian), b bytes with a u8 length,
#   t UTF-8 text with a u8 length, r the rest of the payload (raw bytes).
# The HELLO and HELLO_REQ payloads start with the protocol version so that
# any future version can still read it and refuse politely.
import struct
import sys

# On the board the packed buffer is the payload (a bytearray: the link keeps
# it and nothing changes it); the host gets bytes
_COPY = sys.implementation.name != "micropython"

PROTOCOL_VERSION = 2  # 2: HELLO_REQ says what the host took, HELLO its epoch, CENSUS_DONE

HELLO_REQ = 0x01  # host -> board: start of a session
HELLO = 0x02  # board -> host: capabilities
PING = 0x03  # host -> board: heartbeat with a token
PONG = 0x04  # board -> host: the token back, plus board health
ACK = 0x05  # link level: every reliable frame up to seq received
NAK = 0x06  # link level: frame seq missing, send again from there
GET_LINK_STATS = 0x07  # host -> board: ask for LINK_STATS
LINK_STATS = 0x08  # board -> host: the board's link health counters (LINK_COUNTERS)
GET_READER_STATS = 0x09  # host -> board: ask for READER_STATS
READER_STATS = 0x0A  # board -> host: error counters of the readers that have any (READER_COUNTERS)
GET_SUPPLY = 0x0B  # host -> board: ask for SUPPLY
SUPPLY = 0x0C  # board -> host: the LED rail as the ADC reads it, and the LED current estimated now
SLOT = 0x10  # board -> host: a tag arrived in / left a slot
BUTTON = 0x11  # board -> host: a button was pressed, released or long-pressed
TOUCH = 0x12  # board -> host: an arena cell was touched
TAG_WRITTEN = 0x13  # board -> host: the outcome of WRITE_TAG
CENSUS_DONE = 0x14  # board -> host: the census after HELLO_REQ is complete
SET_CELLS = 0x20  # host -> board: sparse cell states, 4 bytes each
SET_RANGE = 0x21  # host -> board: consecutive cell states, 2 bytes each
SET_PALETTE = 0x22  # host -> board: palette entries, 3 bytes (RGB) each
GET_STATE = 0x23  # host -> board: ask for STATE
STATE = 0x24  # board -> host: what the cells show now (chunks of a range)
SET_CONFIG = 0x25  # host -> board: one setting (see CONFIG_* below)
SET_PRIORITY = 0x26  # host -> board: slot indices to scan first
WRITE_TAG = 0x27  # host -> board: write a tile payload to the tag on a slot's reader
LOG = 0x30  # either way: a log line
ERROR = 0x31  # either way: something was wrong; code, what it concerns, words
REPL = 0x32  # host -> board: stop the firmware and hand the port to the REPL

# field kinds, reliable (acknowledged and retransmitted); the names of the
# messages and their fields are the host's alone (botboard/link/fields.py):
# 4 KB the board keeps free
CATALOGUE = {
    HELLO_REQ: ("BBBBt", False),
    HELLO: ("BttHHBBIHB", False),
    PING: ("I", False),
    PONG: ("III", False),
    ACK: ("B", False),
    NAK: ("B", False),
    GET_LINK_STATS: ("", False),
    LINK_STATS: ("r", False),
    GET_READER_STATS: ("", False),
    READER_STATS: ("r", False),
    GET_SUPPLY: ("", False),
    SUPPLY: ("HHH", False),
    SLOT: ("BBbb", True),
    BUTTON: ("BB", True),
    TOUCH: ("H", True),
    TAG_WRITTEN: ("BBb", True),
    CENSUS_DONE: ("r", True),
    SET_CELLS: ("r", True),
    SET_RANGE: ("Hr", True),
    SET_PALETTE: ("Br", True),
    GET_STATE: ("B", True),
    STATE: ("HHr", True),
    SET_CONFIG: ("BH", True),
    SET_PRIORITY: ("r", True),
    WRITE_TAG: ("Bb", True),
    LOG: ("Bt", True),
    ERROR: ("BHt", True),
    REPL: ("", True),
}


# LINK_STATS: one u32 per counter, in this order (board counters since boot,
# wrapping). New counters are only ever appended: a reader takes the ones it
# knows and ignores any after them, so old and new hosts and boards mix.
# Unreliable both ways: a lost answer is replaced by the next.
LINK_COUNTERS = ("crc_errors", "cobs_errors", "short_frames", "oversize", "version_errors",
                 "unknown_types", "retransmits", "duplicates", "naks_sent", "naks_received",
                 "stale_frames", "queue_full", "frames_in", "frames_out", "bytes_in",
                 "bytes_out", "events_dropped", "unsequenced")

# READER_STATS: 8 bytes per reader with a counter above 0 or over temperature
# now: slot u8, hot u8 (1: over temperature now), then u16 counters since boot
# (saturating at 65535): answers with a bad CRC, bit collisions, over-temperature
# episodes (their names: botboard/link/fields.py READER_COUNTERS)

# SLOT states (its "present" field): what a slot holds
SLOT_EMPTY = 0
SLOT_TAG = 1
SLOT_UNREADABLE = 2  # something answers, but its UID or payload never reads cleanly
SLOT_SEVERAL = 3  # two tags or more in the field
SLOT_CROSS = 4  # its reader hears a tile another slot holds (E_CROSS_READ says which)

# BUTTON actions
PRESS = 1
RELEASE = 2
LONG_PRESS = 3

# cell effects; a cell state is (palette index, look) with look = facing << 4 | effect
OFF = 0
SOLID = 1
BLINK = 2
PULSE = 3
SPIN = 4
NO_FACING = 15

# SET_CONFIG keys
CONFIG_BRIGHTNESS = 1  # 0..255
CONFIG_POWER_MA = 2  # LED current budget in mA
CONFIG_PRESENT_AFTER = 3  # polls reading a tag before it counts as present (board default 1)
CONFIG_ABSENT_AFTER = 4  # consecutive misses before a tag counts as gone
CONFIG_FRAME_MS = 5  # renderer frame period

# ERROR codes: what went wrong, and the ref field says which slot/button/cell
E_UNKNOWN_TYPE = 1
E_BAD_PAYLOAD = 2
E_BAD_CELL = 3
E_BAD_TAG = 4  # ref: slot; no or corrupt tile payload
E_READER = 5  # ref: slot; reader missing, not answering, or over temperature (its text says)
E_BUTTON_STUCK = 6  # ref: button
E_CONFIG = 7
E_VERSION = 8  # ref: frames dropped since the last report (at most one report a second)
E_OVERSIZE = 9  # ref: frames dropped since the last report (at most one report a second)
E_LED_CHAIN = 10  # ref: chain index
E_CROSS_READ = 11  # ref: slot; it hears the tile of another slot (its text names it): not a second tile

# TAG_WRITTEN status (the readers' status codes, bbfw/readers.py)
TAG_STATUS = ("ok", "timeout", "collision", "crc error", "protocol error", "nak",
              "reader not answering", "no tile payload", "corrupt tile payload")

LOG_DEBUG = 10
LOG_INFO = 20
LOG_WARNING = 30
LOG_ERROR = 40

_INTS = {"B": ">B", "H": ">H", "I": ">I"}
_SIZES = {"B": 1, "H": 2, "I": 4}


def look(facing, effect):
    return ((facing & 0x0F) << 4) | (effect & 0x0F)


def encode(mtype, *values):
    # The payload of a message of type mtype with the given field values.
    # Sized first, then packed into one buffer, with index loops (no zip, no
    # list of parts): on the board a slot event's payload makes about 100
    # bytes of garbage instead of 400, which counts at a host's HELLO_REQ.
    kinds = CATALOGUE[mtype][0]
    n = len(kinds)
    if len(values) != n:
        raise ValueError("wrong number of fields")
    size = 0
    for i in range(n):
        kind = kinds[i]
        if kind in _SIZES:
            size += _SIZES[kind]
            continue
        k = len(values[i].encode() if kind == "t" else values[i])
        if kind != "r":
            if k > 255:
                raise ValueError("field too long")
            size += 1
        size += k
    out = bytearray(size)
    pos = 0
    for i in range(n):
        kind = kinds[i]
        value = values[i]
        if kind in _SIZES:
            struct.pack_into(_INTS[kind], out, pos, value)
            pos += _SIZES[kind]
            continue
        if kind == "t":
            value = value.encode()
        k = len(value)
        if kind != "r":
            out[pos] = k
            pos += 1
        try:
            out[pos:pos + k] = value
        except TypeError:  # MicroPython: a list of ints is not a buffer
            out[pos:pos + k] = bytes(value)
        pos += k
    return bytes(out) if _COPY else out


def decode(mtype, payload):
    # The field values of a payload, as a tuple; ValueError if malformed.
    entry = CATALOGUE.get(mtype)
    if entry is None:
        raise ValueError("unknown message type")
    values = []
    pos = 0
    end = len(payload)
    for kind in entry[0]:
        if kind in _SIZES:
            size = _SIZES[kind]
            if pos + size > end:
                raise ValueError("payload too short")
            values.append(struct.unpack_from(_INTS[kind], payload, pos)[0])
            pos += size
        elif kind == "r":
            values.append(bytes(payload[pos:end]))
            pos = end
        else:
            if pos >= end or pos + 1 + payload[pos] > end:
                raise ValueError("payload too short")
            raw = bytes(payload[pos + 1:pos + 1 + payload[pos]])
            pos += 1 + payload[pos]
            values.append(str(raw, "utf-8") if kind == "t" else raw)
    if pos != end:
        raise ValueError("payload too long")
    return tuple(values)

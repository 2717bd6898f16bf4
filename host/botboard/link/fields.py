"""The names of the messages and of their fields, in catalogue order (bbshared.messages),
and the host's readers of the payloads that are more than fields.

Only the host names messages and fields (the trace, listeners, the console); the board
knows messages by number and reads payloads by position, so these stay off its heap.
"""

import struct

from bbshared import messages as m

MESSAGE_NAMES: dict[int, str] = {
    m.HELLO_REQ: "hello_req",
    m.HELLO: "hello",
    m.PING: "ping",
    m.PONG: "pong",
    m.ACK: "ack",
    m.NAK: "nak",
    m.GET_LINK_STATS: "get_link_stats",
    m.LINK_STATS: "link_stats",
    m.GET_READER_STATS: "get_reader_stats",
    m.READER_STATS: "reader_stats",
    m.GET_SUPPLY: "get_supply",
    m.SUPPLY: "supply",
    m.SLOT: "slot",
    m.BUTTON: "button",
    m.TOUCH: "touch",
    m.TAG_WRITTEN: "tag_written",
    m.CENSUS_DONE: "census_done",
    m.SET_CELLS: "set_cells",
    m.SET_RANGE: "set_range",
    m.SET_PALETTE: "set_palette",
    m.GET_STATE: "get_state",
    m.STATE: "state",
    m.SET_CONFIG: "set_config",
    m.SET_PRIORITY: "set_priority",
    m.WRITE_TAG: "write_tag",
    m.LOG: "log",
    m.ERROR: "error",
    m.REPL: "repl",
}

FIELD_NAMES: dict[int, tuple[str, ...]] = {
    # seen_epoch, seen_next: the board's frames the host took in its last
    # session (Link.delivery_mark), or 0, 0 when it took none or just started
    m.HELLO_REQ: ("protocol", "epoch", "seen_epoch", "seen_next", "host"),
    # epoch: of the HELLO_REQ answered; 0 when the board says it booted
    m.HELLO: ("protocol", "firmware", "layout", "cells", "leds", "slots", "buttons",
              "heap_free", "max_payload", "epoch"),
    m.PING: ("token",),
    m.PONG: ("token", "heap_free", "uptime_ms"),
    m.ACK: ("seq",),
    m.NAK: ("seq",),
    m.GET_LINK_STATS: (),
    m.LINK_STATS: ("counters",),
    m.GET_READER_STATS: (),
    m.READER_STATS: ("readers",),
    m.GET_SUPPLY: (),
    # rail_mv: the LED rail (or VSYS) in mV as the ADC reads it; led_ma: the current the
    # renderer estimates the LEDs draw now; budget_ma: its limit (docs/first-hour.md)
    m.SUPPLY: ("rail_mv", "led_ma", "budget_ma"),
    m.SLOT: ("slot", "present", "uid", "payload"),
    m.BUTTON: ("button", "action"),
    m.TOUCH: ("cell",),
    m.TAG_WRITTEN: ("slot", "status", "uid"),
    m.CENSUS_DONE: ("present",),  # bitmap, slot 0 in bit 0 of byte 0: the slots holding a tag
    m.SET_CELLS: ("cells",),
    m.SET_RANGE: ("start", "cells"),
    m.SET_PALETTE: ("start", "rgb"),
    m.GET_STATE: ("chunk",),  # cells per STATE message; 0: the board's default
    m.STATE: ("start", "total", "cells"),
    m.SET_CONFIG: ("key", "value"),
    m.SET_PRIORITY: ("slots",),
    m.WRITE_TAG: ("slot", "payload"),
    m.LOG: ("level", "text"),
    m.ERROR: ("code", "ref", "text"),
    m.REPL: (),
}


# READER_STATS entries (docs/protocol.md): slot u8, hot u8, then these u16 counters
READER_COUNTERS = ("crc_errors", "collisions", "over_temperature")
READER_ENTRY = 2 + 2 * len(READER_COUNTERS)


def reader_stats(payload: bytes) -> dict[int, dict[str, int]]:
    """READER_STATS payload -> {slot: {"hot": 0/1, counter: value}}; readers not named have none."""
    out = {}
    for at in range(0, len(payload) - READER_ENTRY + 1, READER_ENTRY):
        counts = struct.unpack_from(f">{len(READER_COUNTERS)}H", payload, at + 2)
        out[payload[at]] = {"hot": payload[at + 1], **dict(zip(READER_COUNTERS, counts))}
    return out


def name(mtype: int) -> str:
    return MESSAGE_NAMES.get(mtype, "unknown_0x%02x" % mtype)


def link_counters(payload: bytes) -> dict[str, int]:
    """LINK_STATS payload -> {counter name: value}; unknown trailing counters ignored."""
    count = min(len(m.LINK_COUNTERS), len(payload) // 4)
    return dict(zip(m.LINK_COUNTERS, struct.unpack_from(f">{count}I", payload)))


def census_holds(present: bytes, slot: int) -> bool:
    """CENSUS_DONE's bitmap: does it say that ``slot`` holds a tag?"""
    return slot < 8 * len(present) and present[slot >> 3] >> (slot & 7) & 1 == 1

# The host's requests for the board's counters, GET_LINK_STATS and
# GET_READER_STATS: a host asks for both every five seconds.  They are kept
# apart from rare.py because loading a module costs time in proportion to its
# size and names (reading it from flash, interning each name): rare.py took
# about 70 ms on an RP2040, a pause in which the button matrix went unscanned
# and a short press could be missed.  Loaded for the call, let go after
# (app.Board._counters), as rare.py is.
import struct

from bbshared import messages as m


def send(board, mtype):
    if mtype == m.GET_LINK_STATS:
        buf = board._stats_buf
        stats = board.link.stats
        for i, key in enumerate(m.LINK_COUNTERS):
            value = stats[key] if key in stats else getattr(board, key)
            struct.pack_into(">I", buf, 4 * i, value & 0xFFFFFFFF)
        board.link.send(m.LINK_STATS, buf)
        return
    # the readers with an error counted or over temperature now (docs/protocol.md)
    bank = board.hal.readers
    e = bank.errors
    out = bytearray()
    for s in range(bank.count):
        o = 3 * s
        if bank.hot[s] or e[o] or e[o + 1] or e[o + 2]:
            out += struct.pack(">BBHHH", s, bank.hot[s], e[o], e[o + 1], e[o + 2])
    board.link.send(m.READER_STATS, out)

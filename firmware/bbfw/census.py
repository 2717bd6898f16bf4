# What a board says when a host opens a session (HELLO_REQ): HELLO, then the
# census of its slots and its boot errors.  Sessions open seldom, so app.Board
# loads this module for the handshake and lets it go once the census is sent
# (hal.forget): about 1 KB of a Pico's heap the rest of the time.
from bbshared import messages as m


_CENSUS = (m.SLOT, m.CENSUS_DONE)  # what a census says again
# HELLO is not acknowledged: sent twice, one of them gets through a damaged line
# nearly twice as often (the host takes the first of an epoch and ignores the other)
_HELLO_COPIES = 2


def hello_req(board, payload):
    board.session = True
    link = board.link
    if payload[0] != m.PROTOCOL_VERSION:
        # the host reads our version in HELLO and says what to do
        link.reset(payload[1] if len(payload) > 1 else 0, True)
        link.send(m.HELLO, board.hello())
        return
    _, epoch, seen_epoch, seen_next, _ = m.decode(m.HELLO_REQ, payload)
    # What the host took of the last session is not sent again; a host
    # that took nothing from any session (it just started) gets no old
    # events either: the census below tells it what the slots hold.
    if seen_epoch:
        link.settle(seen_epoch, seen_next)
    # slot events still unsent, and the census of an earlier try, are
    # superseded by this census: a host that keeps retrying gets one census
    link.reset(epoch, seen_epoch != 0, _CENSUS)
    board._events = [e for e in board._events if e[0] not in _CENSUS]
    link.send(m.HELLO, board.hello(), _HELLO_COPIES)
    board._census_at = 0  # (re)started: a host that retries gets one census
    board._flush_events()


def _counts(board, slot):
    # a slot the census tells of: it holds a tag, or trouble keeps it from counting
    return board.holds(slot) or board.scanner.trouble[slot]


def go_on(board):
    # Every slot that counts, then the bitmap of them (the host takes the
    # slots outside it as empty, whatever it heard before), then the boot
    # errors.  Sent a slot at a time while the link has a free place in its
    # window, so that 36 encoded slots never wait in memory at once.  A
    # slot that changes meanwhile says so in its own event; the bitmap is
    # taken at the end, so it agrees with everything said before it.
    # True once the census is over.
    link = board.link
    slots = board.cfg["slots"]
    while board._census_at >= 0 and link.pending < link.window and not (board._events or board.waiting):
        slot = board._census_at
        if slot < slots:
            board._census_at += 1
            if _counts(board, slot):
                board._send_slot(slot, True)
            continue
        board._census_at = -1
        present = bytearray((slots + 7) // 8)
        for s in range(slots):
            if _counts(board, s):
                present[s >> 3] |= 1 << (s & 7)
        board.send(m.CENSUS_DONE, bytes(present), census=True)
        for code, ref, text in board.hal.boot_errors:
            board.error(code, ref, text)
    return board._census_at < 0

# What the board does seldom, kept out of the heap between uses: the host's
# requests for settings (its statistics requests: counters.py), tile writing, the REPL handoff, and
# the words of the rarer errors.  app.Board loads this module for one call
# and lets it go again (hal.forget): on a Pico its code and texts would
# otherwise sit in the heap for a whole game (about 2 KB; the names it
# interns stay).  Each function takes the Board first (write_payload: the
# reader bank, whose method it is).

from bbshared import messages as m
from bbshared import tilecheck
from bbshared.frame import MAX_WIRE
from .drivers.mfrc522 import OK, PROTOCOL_ERROR


def handle(board, mtype, payload):
    # a host message of a type in app.RARE
    _HANDLERS[mtype](board, payload)


def _set_config(board, payload):
    key, value = m.decode(m.SET_CONFIG, payload)
    if key == m.CONFIG_BRIGHTNESS:
        board.renderer.brightness = min(value, 255)
    elif key == m.CONFIG_POWER_MA:
        ceiling = board.power_ceiling
        if ceiling and not 0 < value <= ceiling:
            board.error(m.E_CONFIG, key, "LED limit %d mA: the supply gives %d mA; kept at %d mA"
                        % (value, ceiling, board.renderer.budget_ma))
            return
        board.renderer.budget_ma = value
    elif key == m.CONFIG_PRESENT_AFTER:
        board.scanner.present_after = max(1, value)
    elif key == m.CONFIG_ABSENT_AFTER:
        board.scanner.absent_after = max(1, value)
    elif key == m.CONFIG_FRAME_MS:
        board.frame_ms = min(max(value, 5), 1000)
    else:
        board.error(m.E_CONFIG, key, "unknown setting")


def _write_tag(board, payload):
    # Write a tile payload to the tag on a slot's reader (botboard tiles
    # write); the answer says how it went, and a good write is announced
    # as a fresh arrival so the host sees the tile it now is.
    slot, data = m.decode(m.WRITE_TAG, payload)
    if slot >= board.cfg["slots"]:
        raise ValueError("no slot %d" % slot)
    status = board.hal.readers.write_payload(slot, data)
    uid = board.tag_in(slot)[0]
    board.send(m.TAG_WRITTEN, slot, status, uid)
    if status == 0 and uid:
        board._on_slot(slot, True, uid, data)


def _get_supply(board, payload):
    # the LED rail now (botboard bringup's supply check): the host lights the
    # arena and asks; the estimate says what the LEDs draw at that moment
    r = board.renderer
    board.link.send(m.SUPPLY, m.encode(m.SUPPLY, min(board.hal.supply_mv(), 0xFFFF),
                                       min(r.current_ma, 0xFFFF), min(r.budget_ma, 0xFFFF)))


def _repl(board, payload):
    board.handoff = True
    board.running = False  # main() returns: the REPL gets the port


_HANDLERS = {
    m.SET_CONFIG: _set_config,
    m.WRITE_TAG: _write_tag,
    m.REPL: _repl,
    m.GET_SUPPLY: _get_supply,
}


def drop_report(board, code, count):
    # ERROR for frames the link dropped (app.Board._report_drops)
    if code == m.E_OVERSIZE:
        text = ("%d frame(s) dropped: over %d bytes without a 0x00 delimiter. Is another "
                "program writing to this port, or is the baud rate wrong?" % (count, MAX_WIRE))
    else:
        text = ("%d frame(s) of protocol %d dropped; this board speaks %d. Update the "
                "host, or the firmware with botboard deploy" % (
                    count, board.link.last_version, m.PROTOCOL_VERSION))
    board.error(code, min(count, 0xFFFF), text)


def reader_hot(board, slot, hot):
    if hot:
        board.error(m.E_READER, slot, "slot %d: reader over temperature, antenna off: let it "
                    "cool; check its 3.3 V supply and antenna" % slot)
    else:
        board.send(m.LOG, m.LOG_INFO, "slot %d: reader cooled, antenna on" % slot)


def wrong_game(board, slot, game):
    # a tile of another game laid on this board; the board knows games by their
    # payload ids only (the host names them), so a new game never changes the firmware
    board.error(m.E_BAD_TAG, slot, "slot %d: a tile of game %d, not of this board's game %d" % (
        slot, game, board.game))


def write_payload(bank, slot, payload):
    # ReaderBank.write_payload (readers.py says what it returns): here, out of
    # the heap between writes; it uses the bank's own parts as a method would
    n = len(payload)
    if n == 0 or n % 4 or n > 144:
        raise ValueError("payload must be 4..144 bytes, a multiple of 4; got %d" % n)
    # the other groups' fields off while it writes: a tile in a neighbour's
    # slot, powered by its own field, would answer this reader too and could
    # be the one written; they come back (guard time kept) when it is done
    g = bank.groups
    off = [s for s in range(bank.count) if g is not None and bank.on[s] and g[s] != g[slot]]
    for s in off:
        bank.field(s, False)
    was_on = bank.on[slot]
    bank.field(slot, True)
    bank.settle(slot)
    d = bank._d[slot]  # after the switches: a shared driver is pointed at the slot last asked for
    st = bank._activate(slot, d)
    page = tilecheck.FIRST_PAGE
    mv = memoryview(payload)
    for p in range(n // 4):
        if st != OK:
            break
        st = d.write(page + p, mv[4 * p:4 * p + 4])
    for p in range(0, n // 4, 4):  # read back, 4 pages at a time
        if st != OK:
            break
        st = d.read(page + p)
        for i in range(min(16, n - 4 * p)):
            if d.data[i] != payload[4 * p + i]:
                st = PROTOCOL_ERROR
    if st != OK:
        bank._selected[slot] = 0
    if d.errors:
        bank._count(slot)
    bank.status[slot] = st
    if g is not None and not was_on:
        bank.field(slot, False)  # as the scanner left it: it switches only the fields it knows on
    for s in off:
        bank.field(s, True)
    for s in off:
        bank.settle(s)
    return st

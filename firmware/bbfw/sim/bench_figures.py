# The figures half of the firmware benchmark (bench.py): memory by stage,
# allocation per main-loop iteration, interpreter times, event counts.
# Imported only in those modes, so that the load runs carry none of it.
# Sim-only code (unix port).
import gc
import time

from bbshared import messages as m
from bbfw.sim.box import Box, PAYLOAD, animate, uid as _uid

_rough = [False]  # a quick run: one run of a tenth of the calls (figures in seconds, rough)


def _per_call_us(fn, n, reps=5):
    # the fastest of several runs: the machine is shared, and noise only adds
    if _rough[0]:
        n, reps = max(1, n // 10), 1
    best = None
    for _ in range(reps):
        t0 = time.ticks_us()
        for _ in range(n):
            fn()
        t = time.ticks_diff(time.ticks_us(), t0) / n
        best = t if best is None or t < best else best
    return best


def figures(config, iterations, mem_at_import, quick=False):
    _rough[0] = quick
    out = {}
    gc.collect()
    mem = dict(mem_at_import)
    a = gc.mem_alloc()
    box = Box(config)
    gc.collect()
    board = box.board
    cfg = board.cfg
    mem["hal_and_board"] = gc.mem_alloc() - a
    box.hello()
    box.send(m.SET_PRIORITY, bytes(range(6)))
    for s in (0, 7, 20):
        box.field.place(s, _uid(s), PAYLOAD)
    box.steps(60)
    animate(box, cfg["cells"])
    box.steps(20)
    gc.collect()
    mem["steady_state_total"] = gc.mem_alloc()
    mem["heap_free"] = gc.mem_free()
    out["memory"] = mem
    out["slot_events"] = len(box.said(m.SLOT))

    # allocation per main-loop iteration: link, input and render steps with
    # the collector off, so every byte allocated shows in mem_alloc
    def iteration():
        now = time.ticks_ms()
        board.link_step(now)
        board.input_step(now)
        board.render_step(now)

    for _ in range(100):
        iteration()
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(iterations):
        iteration()
    allocated = gc.mem_alloc() - before
    gc.enable()
    out["iterations"] = iterations
    out["alloc_per_iteration_bytes"] = allocated / iterations
    out["frames_drawn"] = box.hal.strip.frames
    out["time_us"] = _times(box, board, cfg)
    return out


def _times(box, board, cfg):
    # interpreter time on this machine (driver + chip model for the polls)
    t = {}
    sc = board.scanner
    t["input_step"] = _per_call_us(lambda: board.input_step(time.ticks_ms()), 500)
    r = board.renderer
    t["render_frame_all_animated"] = _per_call_us(lambda: r.frame(time.ticks_ms()), 200)
    for i in range(r.n):
        r.set_cell(i, 1 + i % 14, i % 6, m.SOLID)
    r.frame(time.ticks_ms())
    t["render_frame_static"] = _per_call_us(lambda: r.frame(time.ticks_ms()), 500)
    t["link_step_idle"] = _per_call_us(lambda: board.link_step(time.ticks_ms()), 500)
    t["buttons_scan"] = _per_call_us(lambda: board.buttons.scan(time.ticks_ms()), 500)
    box.steps(5)
    t["slot_event_send"] = _per_call_us(  # encode, frame, queue, write
        lambda: board._on_slot(5, True, _uid(5), PAYLOAD), 4)
    box.steps(5)
    del sc
    return t


def _counts(config):
    # SPI bytes and RF bits per event on the reference wiring (readers'
    # chip selects on a 74HC595 chain), driver-only interpreter time by
    # replaying recorded MISO bytes through a do-nothing SPI
    from bbfw.sim.spi_model import SimReaderField
    from bbfw.drivers.ntag_reader import NtagReader
    from bbfw.sim.mfrc522_model import MFRC522Model as Model
    from bbfw.readers import ReaderBank, RECHECK_EVERY

    n = 36
    f = SimReaderField(n, chain=True)
    bank = ReaderBank([NtagReader(f.spi, f.cs(i)) for i in range(n)])
    bank.init()
    c = {}

    def measure(name, fn):
        b0, fr0, tx0, rx0 = f.spi.bytes, Model.frames, Model.tx_bits, Model.rx_bits
        fn()
        c[name] = {"spi_bytes": f.spi.bytes - b0, "rf_frames": Model.frames - fr0,
                   "rf_tx_bits": Model.tx_bits - tx0, "rf_rx_bits": Model.rx_bits - rx0}

    bank.poll(1)
    measure("empty_slot_poll", lambda: bank.poll(2))
    f.place(3, _uid(3), PAYLOAD)

    measure("tag_select", lambda: bank.poll(3))  # first read: WUPA, anticollision, select
    measure("payload_read", lambda: bank.read_payload(3))  # the confirming read
    c["tag_arrival"] = {k: c["tag_select"][k] + c["payload_read"][k] for k in c["tag_select"]}
    bank.poll(4)
    measure("present_tag_poll", lambda: bank.poll(3))
    # one poll in RECHECK_EVERY of a selected tag halts it and selects it again
    bank._checks[3] = RECHECK_EVERY - 1
    measure("tag_recheck_poll", lambda: bank.poll(3))
    # its field off and on again: the tag is idle, its UID known (no
    # anticollision), then the REQA only a second tag would answer
    bank.field(3, False)
    bank.field(3, True)
    measure("tag_reselect", lambda: bank.poll(3))
    f.remove(3)
    measure("tag_gone_poll", lambda: bank.poll(3))  # FAST_READ unanswered, then WUPA
    measure("field_switch", lambda: bank.field(2, False))  # a reader's carrier off (or on)
    bank.field(2, True)
    c["driver_us"] = _driver_times(f, bank)
    c["buttons_scan_us"] = _buttons_time()
    c["buttons_scan_held_us"] = _buttons_time(held=True)
    c["scanner_overhead_us"] = _scanner_overhead()
    c["scanner_arrival_extra_us"] = _scanner_arrival(c["scanner_overhead_us"])
    c["zoned_step_extra_us"] = _zoned_step_extra(config, c["scanner_overhead_us"])
    c["link_bytes_slot_arrival"] = _frame_len(m.SLOT, 3, 1, _uid(3), PAYLOAD)
    c["link_bytes_slot_departure"] = _frame_len(m.SLOT, 3, 0, _uid(3), b"")
    c["link_bytes_ack"] = _frame_len(m.ACK, 0)
    return c


class _NullPin:
    def __init__(self):
        self.v = 1

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v

    def __call__(self, v=None):
        return self.value(v)


class _Recorder:
    # passes SPI traffic to the bus model and keeps what MISO answered
    def __init__(self, spi):
        self.spi = spi
        self.answers = []

    def write(self, buf):
        self.spi.write(buf)

    def write_readinto(self, w, r):
        self.spi.write_readinto(w, r)
        self.answers.append(bytes(r))


class _Replay:
    # plays recorded MISO answers back: the driver runs, nothing else does
    def __init__(self, answers):
        self.answers = answers
        self.i = 0

    def write(self, buf):
        pass

    def write_readinto(self, w, r):
        a = self.answers[self.i]
        self.i += 1
        for k in range(len(a)):
            r[k] = a[k]


class _Gpio:
    # a Pico GPIO (machine.Pin): its value() is C code there, so a built-in
    # function stands for it here (an instance attribute: not a bound method),
    # and no Python call is priced for a pin write
    def __init__(self):
        self.value = abs


def _driver_times(f, bank):
    # Interpreter time of each reader operation as the Pico runs it: the
    # bank's poll through SharedReaders, one driver whose chip select is the
    # 74HC595 chain's /OE pin (boot_rp2.make_readers), the chain shifted to
    # the slot each time (consecutive polls are of other readers).  The chip
    # model's answers are recorded once, then replayed: the firmware runs,
    # the models do not.
    from bbfw.drivers.hc595 import HC595
    from bbfw.drivers.ntag_reader import NtagReader
    from bbfw.drivers.mfrc522 import STATE_BYTES
    from bbfw.readers import ReaderBank, SharedReaders, RECHECK_EVERY
    from bbshared.tilecheck import FIRST_PAGE

    def timed(slot, live_op, selected, bank_op, checks=0, n=200, reps=9):
        rec = _Recorder(f.spi)
        live = NtagReader(rec, f.cs(slot))
        live._u[:] = bank._d[slot]._u
        start = bytes(live._u)
        live_op(live)
        rp = _Replay(rec.answers)
        oe = _Gpio()
        chain = HC595(rp, _Gpio(), oe, bank.count)
        shared = SharedReaders(NtagReader(rp, oe), chain, bank.count)
        pico = ReaderBank(shared)
        pico.alive[slot] = pico.on[slot] = 1
        pico._on_at[0] = 0xFFFF  # readers._SETTLED: the guard time is over
        at = STATE_BYTES * slot
        states = shared._states

        def setup():
            rp.i = 0
            states[at:at + STATE_BYTES] = start
            chain.selected = -1  # the last poll was another reader's
            pico._selected[slot] = selected
            pico._checks[slot] = checks
            pico.on[slot] = 1

        def once():
            setup()
            bank_op(pico, slot)
        # the fastest of more runs than elsewhere: the commonest operations
        # price a whole wait, and one noisy run of 40 calls moved it by a tenth
        return max(0, _per_call_us(once, n // 5, reps) - _per_call_us(setup, n // 5, reps))

    def poll(b, s):
        b.poll(s)
    sel, known = 1, 2  # readers._SELECTED, readers._KNOWN
    t = {"empty_poll": timed(2, lambda d: d.detect(True), 0, poll)}
    f.place(6, _uid(6), PAYLOAD)
    bank.poll(6)  # selected by the bank's driver: the present-tag check works
    t["present_poll"] = timed(6, lambda d: d.still_there(), sel, poll)
    f.place(6, _uid(6), PAYLOAD)  # a fresh tag, idle: a full select
    t["arrival_select"] = timed(6, lambda d: d.detect(True), 0, poll)
    t["payload_read_and_crc"] = timed(6, lambda d: d.read(FIRST_PAGE), sel,
                                      lambda b, s: b.read_payload(s))
    t["recheck"] = timed(6, lambda d: (d.halt(), d.detect(True)), sel, poll, RECHECK_EVERY - 1)
    f.place(6, _uid(6), PAYLOAD)  # idle again, its UID the driver's last
    t["reselect"] = timed(6, lambda d: (d.reselect(), d.wake_others()), known, poll)
    f.remove(6)
    t["gone"] = timed(6, lambda d: (d.still_there(), d.detect(True)), sel, poll)
    # a reader's carrier off and on: the mean of the two
    t["field_switch"] = timed(2, lambda d: (d.antenna(False), d.antenna(True)), 0,
                              lambda b, s: (b.field(s, False), b.field(s, True))) / 2
    return t


def _buttons_time(held=False):
    # the matrix driver with its rows on a 74HC595 chain (the reference
    # wiring), SPI and pins replaced by do-nothing objects; idle (every key
    # up: one look with all rows low), or with a key held down (row by row,
    # the held key's row sampled)
    from bbfw.drivers.buttons import ButtonMatrix, GpioColumns
    from bbfw.drivers.hc595 import HC595

    rows_chain = HC595(_Replay([]), _NullPin(), None, 15)
    rows = rows_chain.rows(15)
    # as hal_rp2 reads them: GPIO_IN loaded once a row (a dict stands for mem32:
    # both a subscript done in C), the reference wiring's GP10-15 and GP26-27
    cols = GpioColumns({0xD0000004: 0x3FFFFFFF}, [10, 11, 12, 13, 14, 15, 26, 27])
    bm = ButtonMatrix(rows, cols, lambda k, a: None)
    for t in range(bm.debounce):
        bm.scan(t)  # the boot scans

    def hold():
        # key 24 (row 3) down, its column read high this scan (a bounce:
        # the key's count moves, no event)
        bm._idle = False
        bm._busy[3] = 1
        bm._flags[24] = 1  # buttons._F_DOWN
        bm._count[24] = 0
    if not held:
        return _per_call_us(lambda: bm.scan(time.ticks_ms()), 200)
    return max(0, _per_call_us(lambda: (hold(), bm.scan(time.ticks_ms())), 200)
               - _per_call_us(hold, 200))


class _NoTags:
    def __init__(self, n, groups=None, zones=None):
        self.status = bytearray(n)
        self.collided = bytearray(n)
        self.on = bytearray(n)
        self.groups = groups
        self.zones = zones

    def field(self, slot, on):
        self.on[slot] = 1 if on else 0

    def poll(self, slot):
        return None

    def read_payload(self, slot):
        return None


def _scanner_overhead():
    # SlotScanner + bank bookkeeping per poll, without the driver
    from bbfw.scanner import SlotScanner

    sc = SlotScanner(_NoTags(36), 36, lambda *a: None)
    sc.set_priority(range(6))
    return _per_call_us(lambda: sc.step(4), 500) / 4


class _OneTag(_NoTags):
    # every slot answers with the same tile
    def poll(self, slot):
        return self.uid

    def read_payload(self, slot):
        return PAYLOAD


def _scanner_arrival(per_poll):
    # The scanner's own work for a tile arriving, beyond a poll's bookkeeping:
    # its UID kept, the check that no other slot holds it (12 tiles on the
    # board), the event; the bank's calls here cost next to nothing
    from bbfw.scanner import SlotScanner

    def ntag(i):
        # UIDs as NXP's come off a roll: 04, the serial's fast bytes, a
        # shared tail (two tags of the NTAG21x data sheet and NXP's forum end 28 80)
        return bytes((4, (37 * i) & 0xFF, 0x5A, 0x33, 0x91, 0x28, 0x80))

    bank = _OneTag(36)
    bank.uid = ntag(5)
    sc = SlotScanner(bank, 36, lambda *a: None)
    sc.present_after = 1
    for s in range(12, 24):
        sc._keep(s, ntag(s))
        sc.present[s] = 1

    def setup():
        sc.present[5] = 0
        sc._hits[5] = 0

    def once():
        setup()
        sc._poll(5)
    return max(0, _per_call_us(once, 200) - _per_call_us(setup, 200) - per_poll)


def _zoned_step_extra(config, per_poll):
    # What a step under the layout's field groups costs beyond its polls'
    # bookkeeping (per_poll each): the tracks' field plans and rotations.  The
    # first station listed, the board's budget (its slots + 1); 0 without groups.
    import json
    from bbfw.scanner import SlotScanner

    with open(config) as f:
        cfg = json.load(f)
    if "fields" not in cfg:
        return 0
    n = cfg["slots"]
    digits = lambda text: bytearray(ord(ch) - 48 for ch in text)  # noqa: E731
    bank = _NoTags(n, digits(cfg["fields"]), digits(cfg["zones"]) if "zones" in cfg else None)
    sc = SlotScanner(bank, n, lambda *a: None)
    sc.set_priority(range(6))
    polls = sc.step(7)
    step = _per_call_us(lambda: sc.step(7), 500)
    return max(0, step - polls * per_poll)


def _frame_len(mtype, *fields):
    from bbshared.frame import build

    return len(build(m.PROTOCOL_VERSION, mtype, 0, 1, m.encode(mtype, *fields)))


def _calibration():
    # the same loop can be timed on a Pico to find its speed relative to here
    best = None
    for _ in range(5):
        t0 = time.ticks_us()
        x = 0
        for i in range(200000):
            x += i & 7
        t = time.ticks_diff(time.ticks_us(), t0)
        best = t if best is None or t < best else best
    return best

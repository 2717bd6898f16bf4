# The firmware's heap in a 32-bit MicroPython: run by `botboard bench
# firmware` in the webassembly port (host/botboard/bench/heap32.py), whose
# words and GC blocks are the Pico's size (4 and 16 bytes).  The board runs
# as on the Pico: the Pico HAL (hal_rp2) and the main-loop steps, on the
# stand-in machine and rp2 modules (rp2stubs, on sys.path) with the simulated
# reader field wired behind SPI and the chip-select 595 chain's pins, so the
# readers answer and tiles arrive.  The chip models and the host stand-in
# (Box without its Board: deframer, line buffer) share the heap: they are
# built first and their share is measured apart.  Sim-only code.
#
#   from bbfw.sim import heap32
#   run = heap32.Run(CONFIG_PATH, LOOPS)
#   then run.step() from the top level until it returns False
#
# This port collects garbage only between calls from JavaScript (it cannot
# see the pointers held in WebAssembly locals), so the work is cut into
# stages, each one call: boot in steps, then the main loop's link, input and
# render steps, one per call.  The host is another machine: its turns are calls
# of their own (it puts a message on the line; it reads one frame the board
# wrote and acknowledges it), then a link step takes the ACKs, so its garbage
# is not counted in the board's stages (it is in the heap the bisection
# needs: host turns make little).  Readings are taken at the start of a stage, after
# the collection; the most in use at the end of a stage, before the
# collection, is the high-water mark (an upper bound of what the Pico needs:
# it can also collect within a stage).  Boots with a tile in every slot,
# opens a host session, runs rounds until every slot's event came, animates
# every cell, runs LOOPS full scans of the slots, then the tiles leave.  The last stage prints one
# JSON object: heap by stage, the steady heap with all tiles present, and
# the sim-only share.
import gc
import json
import time

MAX_ROUNDS_PER_SLOT = 8  # main-loop rounds allowed per slot for the events to come


def _used():
    return gc.mem_alloc()


def _stages(config_path, loops, run):
    heap = {}
    a = _used()
    import machine
    import rp2
    import binascii  # noqa: F401  (the rp2 port's is built in, in C: none of it in the heap)

    machine.log = None  # the stand-ins record nothing: a long run would grow their logs
    rp2.log = None
    yield "stand-ins"
    heap["stand_ins"] = _used() - a
    a = _used()
    from bbshared import messages as m
    yield "import messages"
    from bbfw import app  # noqa: F401  (measured: the firmware main.py starts)
    yield "import app"
    from bbfw import hal_rp2
    yield "import hal_rp2"
    heap["board_imports"] = _used() - a
    a = _used()
    from bbfw.sim.box import Box, PAYLOAD, animation, uid
    from bbfw.sim.spi_model import SimReaderField
    yield "sim imports"
    heap["sim_imports"] = _used() - a
    a = _used()
    with open(config_path) as f:
        slots = json.load(f)["slots"]
    field = SimReaderField(slots, chain=True)
    for s in range(slots):
        # a stage per tile: the garbage of making a tag model is collected
        # before the next is made, instead of leaving small holes between the
        # models that the Pico, which has no models, would not have
        field.place(s, uid(s), PAYLOAD)
        yield "chip models"
    pins = hal_rp2.PINS
    machine.wire(field.spi, {pins["cs_latch"]: field.shift.latch_pin,
                             pins["cs_oe"]: field.shift.oe_pin})
    yield "chip models"
    heap["chip_models_and_tiles"] = _used() - a
    a = _used()
    hal = hal_rp2.Hal(config_path)
    hal.field = field
    yield "Hal"
    heap["hal"] = _used() - a
    a = _used()
    box = Box(config_path, hal=hal, board=False)  # the host stand-in: its memory is not the board's
    line = _Line(box)
    yield "host stand-in"
    heap["host_stand_in"] = _used() - a
    a = _used()
    board = box.start_board()
    # The board's tasks as app.Board.run makes them, but not run: this port's
    # asyncio runs on JavaScript promises, unlike the Pico's; the rounds below
    # are what the tasks' loops do.  A coroutine's frame is allocated when it
    # is made, so it is counted.
    tasks = [board.input_task(), board.render_task(), board.link_task()]
    tasks += hal.extra_tasks(board)
    yield "Board"
    heap["hal_and_board"] = heap["hal"] + _used() - a
    said = {}

    def host():
        # The host's turn, in stages of its own, one piece of what the board
        # wrote each: it reads it (counted and dropped: the host stand-in
        # keeps nothing) and acknowledges it.  Its garbage is not the board's.
        while line.deliver_one():
            for mtype, _ in box.got:
                said[mtype] = said.get(mtype, 0) + 1
            box.forget()
            yield "host"

    def rounds(label, until, limit):
        # One main-loop round: the link, input and render steps, a stage each
        # (on the Pico they are separate tasks, and the GC can collect between
        # them), the host's turn, then a link step that takes its ACKs.
        n = 0
        while not until() and n < limit:
            now = time.ticks_ms()
            # the host stand-in is always there: on a loaded machine the stages
            # can take longer than the board's 3 s of host silence (it would
            # then show the waiting pattern and drop its events)
            board.last_host = now
            board.link_step(now)
            yield label
            board.input_step(now)
            yield label
            board.render_step(now)
            yield label
            yield from host()
            board.link_step(time.ticks_ms())
            yield label
            n += 1

    def message(label, mtype, *fields):
        # the host puts one message on the line; a round takes it
        box.queue(mtype, *fields)
        yield "host"
        yield from rounds(label, lambda: not box._inbox, 1)

    def slot_events(n):
        return lambda: said.get(m.SLOT, 0) >= n

    limit = MAX_ROUNDS_PER_SLOT * slots
    box.queue_hello()  # no SET_PRIORITY: the scanner visits every slot in turn
    yield "host"
    yield from rounds("hello", lambda: not box._inbox, 1)
    yield from rounds("tiles arrive", slot_events(slots), limit)
    arrived = said.get(m.SLOT, 0) >= slots
    for payload in animation(board.cfg["cells"]):
        yield from message("animate", m.SET_CELLS, payload)
    start = board.scanner.polls
    yield from rounds("scan loops", lambda: board.scanner.polls - start >= loops * slots,
                      limit * loops)
    yield from message("GET_STATE", m.GET_STATE, 0)
    yield from message("PING", m.PING, 7)
    yield from rounds("GET_STATE, PING", lambda: said.get(m.PONG, 0) >= 1, limit)
    heap["steady_total"] = _used()
    for s in range(slots):
        field.remove(s)
    yield from rounds("tiles leave", slot_events(2 * slots), limit)
    sim = (heap["stand_ins"] + heap["sim_imports"] + heap["chip_models_and_tiles"]
           + heap["host_stand_in"])
    heap["sim_only"] = sim
    heap["steady_board_only"] = heap["steady_total"] - sim
    ok = arrived and said.get(m.SLOT, 0) >= 2 * slots and said.get(m.STATE, 0) > 0
    heap["high_water_total"] = run.high
    heap["high_water_board_only"] = run.high - sim
    print(json.dumps({"ok": ok, "slots": slots, "loops": loops, "polls": board.scanner.polls,
                      "high_water_stage": run.high_at, "grew_at": run.grew_at,
                      "tasks": len(tasks), "said": said, "heap": heap,
                      "boot_errors": [e[0] for e in hal.boot_errors]}))


class _Line:
    # The serial line between the board and the host stand-in: what the board
    # writes waits here (the bytes it already made) for the host's own stage,
    # instead of being read back within the board's.
    def __init__(self, box):
        self._box = box
        self._host = box._df
        self._waiting = []
        box._df = self

    def feed(self, data):  # the board writes
        self._waiting.append(data)

    def deliver_one(self):  # the host reads the oldest piece; False if none
        if not self._waiting:
            return False
        self._host.feed(self._waiting.pop(0))
        return True


class Run:
    # drives the stages, one per call from JavaScript, and keeps the high-water mark
    def __init__(self, config_path, loops):
        self.high = 0
        self.high_at = None
        self.grew_at = None  # the first stage after which the port had to add a heap area
        self._total = 0
        self._label = None
        self._stages = _stages(config_path, loops, self)

    def step(self):
        try:
            label = next(self._stages)
        except StopIteration:
            return False
        used = gc.mem_alloc()
        total = used + gc.mem_free()  # every heap area: grows where the Pico would fail
        if self._total and total > self._total and self.grew_at is None:
            self.grew_at = self._label
        self._total = total
        self._label = label
        if used > self.high:
            self.high = used
            self.high_at = label
        gc.collect()  # in this port: a collection when this call returns
        return True

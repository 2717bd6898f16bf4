# The firmware: three asyncio tasks around one Board object.
#   link   reads the serial port, runs the reliable link, answers the host
#   input  polls the slot readers and the buttons, sends events
#   render draws the cell states at a steady frame rate
# The HAL (hal_rp2 on the Pico, hal_sim on the unix port) supplies the
# serial port, readers, buttons, LED strip and clock; everything here runs
# unchanged on both.  Each task's body is one method (link_step, input_step,
# render_step) so that the benchmark can run and measure exactly what the
# tasks run (a step allocates nothing in steady state).
#
# Errors the board finds about itself (config refused, readers or LED chains
# missing: hal.boot_errors) are sent after HELLO and again after every
# HELLO_REQ, so a host that connects late still learns about them.
#
# Frames the link drops for being oversize or of another protocol version
# are reported as ERROR at most once a second per kind, with the number
# dropped since the last report: a noisy line cannot flood the link with
# errors, and no drop goes unmentioned. The counters themselves are sent on
# request (GET_LINK_STATS), so a real board's link health is visible too.
import gc
import struct
import time

import asyncio
from micropython import const
from bbshared import messages as m
from bbshared.crc32 import crc32
from bbshared.link import Link

from . import FIRMWARE_VERSION
from .render import Renderer
from .scanner import SlotScanner
from .watchdog import INPUT_TASK, LINK_TASK, RENDER_TASK

_HOST_SILENT_MS = const(3000)  # no frame from the host for this long: show the waiting pattern
_SCAN_BUDGET = const(4)  # reader polls per input step with no priorities set (3 + 1 other)
_PRESENT_EVERY = const(4)  # a priority slot holding a tag is checked on one visit in 4
# A tile arrives on the poll that first selects it: the select reads its UID
# (the SAK answer CRC-checked) and the payload READ (CRC-checked) follows at
# once, two reads of the tag.  Waiting for a later poll to confirm it cost a
# whole round of the other slots (docs/benchmarks.md, tag to event); the host
# may ask for more polls (SET_CONFIG present_after).
_PRESENT_AFTER = const(1)
_BUTTON_MS = const(8)  # matrix scan period: with 3 agreeing scans, a 24 ms debounce
_FRAME_MS = const(20)  # renderer period: 50 frames/s
_TAG_RECORD = const(28)  # uid length, 10 uid bytes, payload length, 16 payload bytes
_WAITING_PALETTE = const(15)
_MAX_EVENTS = const(16)  # events waiting for room on the link, at most
_COLLECT_EVERY_MS = const(5000)  # a PING's heap figure is taken at most this often:
# collecting and counting walk the whole heap (ms on a Pico), and the host pings
# twice a second
_ERROR_EVERY_MS = const(1000)  # at most one ERROR per kind of dropped frame in this time
# (counter in link.stats, ERROR code) of the drops reported as ERROR
_DROP_REPORTS = (("oversize", m.E_OVERSIZE), ("version_errors", m.E_VERSION))
# host messages handled by rare.py, loaded when one comes (Board._rarely)
RARE = (m.GET_LINK_STATS, m.GET_READER_STATS, m.SET_CONFIG, m.WRITE_TAG, m.REPL, m.GET_SUPPLY)
_RARE_MODULES = ("rare",)
_COUNTER_MODULES = ("counters",)
_CENSUS_MODULES = ("census",)


class Board:
    def __init__(self, hal):
        cfg = hal.config
        self.hal = hal
        self.cfg = cfg
        self.cell_count = cfg["cells"]
        self.cells = bytearray(2 * self.cell_count)  # (palette, look) per cell, as the host set them
        # what each slot holds, for the census after HELLO_REQ: per slot one
        # record [uid length, uid (10), payload length, payload (16)] in one
        # buffer (36 slots: 1 KB, allocated once, instead of a dict of tuples)
        self._tags = bytearray(_TAG_RECORD * cfg["slots"])
        self._tagv = memoryview(self._tags)
        self.events_dropped = 0  # events not queued: no host reading (see send)
        self.started = time.ticks_ms()
        self.last_host = self.started
        self.waiting = False
        self.running = True
        self.handoff = False  # the host asked for the REPL
        self.session = False  # a host opened a session (HELLO_REQ) since boot
        self.link = Link(hal.write, time.ticks_ms, self._on_message)
        self.renderer = Renderer(self.cell_count, hal.strip, cfg["leds_per_cell"])
        # the layout's LED current budget from the first frame (config.check
        # fills in the defaults): a board that boots (or reboots) without a
        # host never draws more than its supply gives
        self.renderer.budget_ma = cfg["power_ma"]
        # what the supply gives: the host may lower the budget, never raise it past this
        self.power_ceiling = self.renderer.budget_ma
        self.renderer.set_chains([c[1] for c in cfg["chains"]] or [0], cfg["chain_ma"])
        self.scanner = SlotScanner(hal.readers, cfg["slots"], self._on_slot,
                                   on_error=self._on_reader_error, on_trouble=self._on_trouble)
        hal.readers.on_hot = self._on_reader_hot
        self.buttons = hal.make_buttons(self._on_key, self._on_button_error)
        self.game = cfg.get("game", 0)  # tilepayload game id of this board's tiles, 0: any
        self.frame_ms = _FRAME_MS
        self.scan_budget = _SCAN_BUDGET
        self.scanner.present_every = _PRESENT_EVERY
        self.scanner.present_after = _PRESENT_AFTER
        self._next_buttons = self.started
        self._prepared = False  # the renderer worked a frame out, not yet drawn (render_step)
        self._rx = bytearray(256)
        self._rxv = memoryview(self._rx)
        self._events = []  # messages the link could not take yet (queue full)
        self._census_at = -1  # next slot of the census being sent; -1: none under way
        self.cell_updates = 0  # SET_CELLS messages applied, and an order-sensitive checksum
        self.cell_updates_check = 0  # of them: proves none was lost, doubled or swapped
        self._reported = [0] * len(_DROP_REPORTS)  # counter values already reported
        self._reported_at = [time.ticks_add(self.started, -_ERROR_EVERY_MS)] * len(_DROP_REPORTS)
        self._stats_buf = bytearray(4 * len(m.LINK_COUNTERS))
        self._collected_at = time.ticks_add(self.started, -_COLLECT_EVERY_MS)
        self._heap_free = 0  # after the last collection (PING)

    # -- to the host ----------------------------------------------------
    def send(self, mtype, *values, census=False):
        if not self.session:
            # No host has opened a session: nothing would acknowledge these,
            # and the census after its first HELLO_REQ brings it up to date.
            # (A host only silent a while, a noisy cable or a starved host,
            # gets them: kept, bounded, and resent when it returns.)
            self.events_dropped += 1
            return
        payload = m.encode(mtype, *values)
        if self._events or not self.link.send(mtype, payload):
            if len(self._events) >= _MAX_EVENTS and not census:
                # (the census is kept whole: at most one SLOT a slot and CENSUS_DONE)
                # Nobody is reading (no host, or it stalled): memory must not
                # grow without end. What is lost is recovered: slots by the
                # census after HELLO_REQ, cells by the host's resync.
                self.events_dropped += 1
                return
            self._events.append((mtype, payload))  # kept, in order, until the link has room

    def _flush_events(self):
        while self._events and self.link.send(*self._events[0]):
            self._events.pop(0)
        if self._census_at >= 0 and not self._events:
            from . import census

            if census.go_on(self):
                self.hal.forget(_CENSUS_MODULES)

    def error(self, code, ref, text):
        self.send(m.ERROR, code, ref, text if len(text) <= 200 else text[:200])

    def hello(self):
        cfg = self.cfg
        gc.collect()
        return m.encode(m.HELLO, m.PROTOCOL_VERSION, FIRMWARE_VERSION, cfg["layout"],
                        self.cell_count, self.cell_count * cfg["leds_per_cell"], cfg["slots"],
                        cfg["buttons"], gc.mem_free(), 500, self.link.epoch)

    def _keep_tag(self, slot, uid, payload):
        t = self._tags
        o = _TAG_RECORD * slot
        uid = uid or b""
        payload = payload or b""
        t[o] = len(uid)
        t[o + 1:o + 1 + len(uid)] = uid
        t[o + 11] = len(payload)
        t[o + 12:o + 12 + len(payload)] = payload

    def tag_in(self, slot):
        # (uid, payload) of the tag in the slot; empty bytes when none
        t = self._tags
        o = _TAG_RECORD * slot
        return bytes(t[o + 1:o + 1 + t[o]]), bytes(t[o + 12:o + 12 + t[o + 11]])

    def holds(self, slot):
        return self._tags[_TAG_RECORD * slot]  # the tag's UID length: 0 for none

    def present_slots(self):
        return [s for s in range(self.cfg["slots"]) if self.holds(s)]

    def _on_slot(self, slot, present, uid, payload):
        self._keep_tag(slot, uid if present else b"", payload if present else b"")
        self._send_slot(slot)
        if present and payload and self.game and payload[2] != self.game:
            self._rarely("wrong_game", slot, payload[2])

    def _send_slot(self, slot, census=False):
        # what a slot holds: the tag, or the trouble that keeps it from counting
        # (views into the record, not copies: encode copies them once)
        t = self._tags
        o = _TAG_RECORD * slot
        uid = self._tagv[o + 1:o + 1 + t[o]]
        payload = self._tagv[o + 12:o + 12 + t[o + 11]]
        trouble = self.scanner.trouble[slot]
        if trouble:
            self.send(m.SLOT, slot, trouble, uid, b"", census=census)
        else:
            self.send(m.SLOT, slot, m.SLOT_TAG if uid else m.SLOT_EMPTY, uid, payload, census=census)

    def _on_trouble(self, slot, state):
        self._send_slot(slot)

    def _on_reader_error(self, slot, code, text):
        self.error(code, slot, text)

    def _on_reader_hot(self, slot, hot):
        self._rarely("reader_hot", slot, hot)

    def _rarely(self, name, *args):
        # run rare.<name>(self, *args): code the board seldom needs, loaded
        # for the call and let go after (hal.forget)
        from . import rare

        try:
            getattr(rare, name)(self, *args)
        finally:
            self.hal.forget(_RARE_MODULES)

    def _counters(self, mtype):
        # the host's counters requests (every 5 s): a small module, quick to
        # load, not rare.py (counters.py says why)
        from . import counters

        try:
            counters.send(self, mtype)
        finally:
            self.hal.forget(_COUNTER_MODULES)

    def _on_key(self, key, action):
        # keys past the station buttons are the arena cells' touch pads
        buttons = self.cfg["buttons"]
        if key < buttons:
            self.send(m.BUTTON, key, action)
        elif action == m.PRESS:
            self.send(m.TOUCH, key - buttons)

    def _on_button_error(self, key, code, text):
        self.error(code, key, text)

    # -- from the host ----------------------------------------------------
    def _on_message(self, mtype, payload, version):
        self.last_host = time.ticks_ms()
        if self.waiting:
            self.waiting = False
            self._show_all()
        handler = _HANDLERS.get(mtype)
        if handler is None and mtype not in RARE:
            if mtype in m.CATALOGUE:  # the link counted the uncatalogued ones already
                self.link.stats["unknown_types"] += 1
            self.error(m.E_UNKNOWN_TYPE, mtype, "message type not handled by the board")
            return
        try:
            if mtype == m.GET_LINK_STATS or mtype == m.GET_READER_STATS:
                self._counters(mtype)
            elif handler is None:
                self._rarely("handle", mtype, payload)
            else:
                handler(self, payload)
        except (ValueError, IndexError) as err:
            self.error(m.E_BAD_PAYLOAD, mtype, "bad message 0x%02x: %s" % (mtype, err))

    def _hello_req(self, payload):
        # a session opens: HELLO, then the census (census.py: loaded while one
        # is under way, let go after)
        from . import census

        census.hello_req(self, payload)

    def _ping(self, payload):
        token = struct.unpack(">I", payload)[0]
        now = time.ticks_ms()
        if time.ticks_diff(now, self._collected_at) >= _COLLECT_EVERY_MS:
            self._collected_at = now
            gc.collect()  # so heap_free means free, not "not yet collected"
            self._heap_free = gc.mem_free()  # (it walks the heap too)
        self.link.send(m.PONG, m.encode(m.PONG, token, self._heap_free,
                                        time.ticks_diff(time.ticks_ms(), self.started) & 0xFFFFFFFF))

    def _report_drops(self, now):
        if not self.session or self.waiting:
            return  # kept until a host listens: the first report then counts them all
        stats = self.link.stats
        for i in range(len(_DROP_REPORTS)):
            key, code = _DROP_REPORTS[i]
            count = stats[key] - self._reported[i]
            if count and time.ticks_diff(now, self._reported_at[i]) >= _ERROR_EVERY_MS:
                self._reported[i] = stats[key]
                self._reported_at[i] = now
                self._rarely("drop_report", code, count)

    def _set_cells(self, payload):
        if len(payload) % 4:
            raise ValueError("set_cells needs 4 bytes per cell")
        self.cell_updates += 1
        self.cell_updates_check = (self.cell_updates_check * 31 + crc32(payload)) & 0xFFFFFFFF
        for i in range(0, len(payload), 4):
            cell = (payload[i] << 8) | payload[i + 1]
            self._set(cell, payload[i + 2], payload[i + 3])
            if i & 127 == 124:  # a whole arena takes a Pico 15 ms: the keys between
                self.keys(time.ticks_ms())

    def _set_range(self, payload):
        start = (payload[0] << 8) | payload[1]
        if len(payload) % 2:
            raise ValueError("set_range needs 2 bytes per cell")
        for i in range(2, len(payload), 2):
            self._set(start + (i - 2) // 2, payload[i], payload[i + 1])

    def _set(self, cell, palette, look):
        if cell >= self.cell_count:
            self.error(m.E_BAD_CELL, cell, "no such cell on this board")
            return
        self.cells[2 * cell] = palette
        self.cells[2 * cell + 1] = look
        if not self.waiting:
            self.renderer.set_cell(cell, palette, look >> 4, look & 0x0F)

    def _show_all(self):
        cells = self.cells
        for i in range(self.cell_count):
            look = cells[2 * i + 1]
            self.renderer.set_cell(i, cells[2 * i], look >> 4, look & 0x0F)

    def _set_palette(self, payload):
        start = payload[0]
        for i in range(1, len(payload) - 2, 3):
            self.renderer.set_palette(start + (i - 1) // 3, payload[i], payload[i + 1], payload[i + 2])

    def _get_state(self, payload):
        # cells per STATE message: the host's choice (small frames get through
        # a damaged line), else 200, well under the frame limit
        chunk = payload[0] if payload and payload[0] else 200
        cells = memoryview(self.cells)  # encode copies the cells once, not thrice
        for start in range(0, self.cell_count, chunk):
            end = min(start + chunk, self.cell_count)
            self.send(m.STATE, start, self.cell_count, cells[2 * start:2 * end])

    def _set_priority(self, payload):
        # every priority slot (the active station) polled in each input step,
        # plus one slow poll (one of the others, or a tag check) so that nothing
        # starves; one only: each can be a select, and the next tile waits for it
        slots = [s for s in payload if s < self.cfg["slots"]]
        self.scanner.set_priority(slots)
        self.scan_budget = len(slots) + 1 if slots else _SCAN_BUDGET

    # -- tasks: each loop runs one step method ----------------------------
    def link_step(self, now):
        # Returns the bytes read: 0 when the line was idle, None once closed.
        self.keys(now)
        n = self.hal.read_into(self._rx)
        if n:
            self.link.feed(self._rxv[:n])
            self.keys(time.ticks_ms())  # (what came may have taken a while)
        elif n is None:
            self.running = False  # the serial port is gone (simulated board: stdin closed)
        if self.renderer.pending:
            # the host changed cells: drawn now, not on the render task's next
            # tick (up to 20 ms away); the current limits are the renderer's,
            # as for any frame, and a frame still going out defers it to the
            # next link step (1 ms on the Pico)
            self.render_step(now)
        self.link.poll()
        self._report_drops(now)
        self._flush_events()
        if not self.waiting and time.ticks_diff(now, self.last_host) > _HOST_SILENT_MS:
            self._show_waiting()
        return n

    def keys(self, now):
        # the button matrix, when its scan is due.  A press is seen only if a
        # scan falls within it, so the scan is not left to the input task's
        # turns alone: every step calls this, and between its longer pieces
        # (on an RP2040 a busy frame and a step of reader polls took 15 and
        # 7 ms; between two input steps the matrix went 40-80 ms unscanned)
        if time.ticks_diff(now, self._next_buttons) >= 0:
            self._next_buttons = time.ticks_add(now, _BUTTON_MS)
            self.buttons.scan(now)

    def input_step(self, now):
        # the buttons first: a press goes to the host before the reader polls
        # (a step's worth of them on a Pico: 14-20 ms mid-game), not after
        self.keys(now)
        self.scanner.step(self.scan_budget)
        self.keys(time.ticks_ms())
        self.scanner.watch()

    def render_step(self, now):
        # False while the last frame is still going out of strip.buf (drawing
        # now would tear it): nothing drawn.  The frame is worked out at once
        # all the same (Renderer.prepare does not touch strip.buf), and drawn
        # when the strip is free: on an RP2040 the working out takes most of a
        # busy frame's time, and waiting for the strip to start it made a frame
        # period its working out plus the 11 ms the big arena's chains take
        strip = self.hal.strip
        if not self._prepared or self.renderer.pending:  # (a change since: in this frame)
            self.renderer.prepare(now)
            self._prepared = True
            self.keys(time.ticks_ms())
        if strip.busy():
            return False
        self._prepared = False
        if self.renderer.draw():
            strip.show()
        self.keys(time.ticks_ms())  # (the frame took a while)
        return True

    async def link_task(self):
        hal = self.hal
        while self.running:
            if self.link_step(time.ticks_ms()):
                # bytes keep coming: still let the renderer, the inputs and the
                # watchdog run after every chunk (at most len(_rx) bytes), or a
                # flood of input would starve them
                await asyncio.sleep_ms(0)
            else:
                await hal.wait_readable(20)
            hal.watchdog_checkin(LINK_TASK)  # a link loop that stops stops the feeding

    def _show_waiting(self):
        # A slow blue pulse on every cell says "waiting for the host"; the
        # host's full-state resync on return restores the game.
        self.waiting = True
        self.renderer.set_palette(_WAITING_PALETTE, 0, 0, 40)
        for i in range(self.cell_count):
            self.renderer.set_cell(i, _WAITING_PALETTE, m.NO_FACING, m.PULSE)

    async def input_task(self):
        # hal.input_period_ms: 0 on the Pico (poll again as soon as the other
        # tasks had their turn), a few ms in the simulated board (a shared CPU)
        hal = self.hal
        while self.running:
            self.input_step(time.ticks_ms())
            hal.watchdog_checkin(INPUT_TASK)
            await asyncio.sleep_ms(hal.input_period_ms)

    async def render_task(self):
        # frames on a fixed schedule: the drawing time is not added to the period
        hal = self.hal
        due = time.ticks_ms()
        while self.running:
            hal.watchdog_checkin(RENDER_TASK)
            if not self.render_step(time.ticks_ms()):
                # a frame drawn at once by the link step is still going out:
                # this tick's frame follows it, not a whole period later
                await asyncio.sleep_ms(1)
                continue
            due = time.ticks_add(due, self.frame_ms)
            wait = time.ticks_diff(due, time.ticks_ms())
            if wait < 0:  # fell behind: start afresh rather than rush
                due = time.ticks_ms()
                wait = 0
            await asyncio.sleep_ms(wait)

    async def run(self):
        self.link.send(m.HELLO, self.hello())  # a board that boots says so at once
        tasks = [asyncio.create_task(self.input_task()), asyncio.create_task(self.render_task())]
        for extra in self.hal.extra_tasks(self):
            tasks.append(asyncio.create_task(extra))
        await self.link_task()
        for task in tasks:
            task.cancel()
        self.link.poll()  # the last ACK goes out before the port changes hands
        await asyncio.sleep_ms(50)


_HANDLERS = {
    m.HELLO_REQ: Board._hello_req,
    m.PING: Board._ping,
    m.SET_CELLS: Board._set_cells,
    m.SET_RANGE: Board._set_range,
    m.SET_PALETTE: Board._set_palette,
    m.SET_PRIORITY: Board._set_priority,
    m.GET_STATE: Board._get_state,
}


def main():
    try:
        import rp2  # noqa: F401  only on the Pico

        from . import hal_rp2 as hal_module
    except ImportError:
        from . import hal_sim as hal_module
    hal = hal_module.Hal()
    board = Board(hal)
    try:
        asyncio.run(board.run())
    finally:
        # After the REPL message the port goes back to the REPL for good (deploy);
        # after a crash only the keyboard interrupt comes back, and the watchdog,
        # no longer fed, restarts the firmware.
        hal.release(board.handoff)

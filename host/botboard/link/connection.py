"""One board, kept connected: handshake, heartbeat, reconnect and resync.

``BoardConnection.run()`` loops forever: open the port, say HELLO_REQ, check
the board's protocol version, push the full image, then ping every half
second. A board silent for two seconds, or a port that vanishes, is closed
and reopened (after a resync nothing the host holds is lost). Everything a
person needs to know is in ``status()``, including the board's own link
counters (asked for with GET_LINK_STATS every five seconds); decoded frames go to
``trace``.
Settings made with ``configure`` (brightness, the LED power limit) are kept
and sent again after every handshake: a board that rebooted boots with its
layout's defaults and would otherwise lose them.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from collections import deque
from dataclasses import asdict, dataclass
from typing import Any, Callable

import serial

from bbshared import messages as m
from bbshared.link import Link

from .. import __version__
from ..patience import load_factor
from . import fields
from .fields import FIELD_NAMES, reader_stats
from .image import MAX_PAYLOAD, BoardImage, CellState
from .transport import PortError, open_port

log = logging.getLogger("botboard.link")

HELLO_TIMEOUT_S = 3.0
HELLO_RETRY_S = 0.25  # a new HELLO_REQ this often until HELLO: on a damaged line most are lost
# ... and half again as long after each HELLO that came for an earlier HELLO_REQ, up to this:
# a board slower to answer than the wait would otherwise see every HELLO it sends overtaken
# by the next HELLO_REQ's new epoch, forever (a loaded host, a busy board, the emulated Pico:
# slow is not wrong). Only then: on a fast but damaged line, quick retries are what get through.
HELLO_RETRY_MAX_S = 2.0
# ... and so after this many HELLO_REQs in a row with no HELLO at all: a board still starting
# reads them all later and answers each (the epochs, 1 to 15, would come round meanwhile)
HELLOS_UNHEARD = 8
SILENT_AFTER_S = 2.0
PING_EVERY_S = 0.5
RECONNECT_EVERY_S = 0.5
# the board's link and reader counters: each answer loads the firmware's rare.py from its
# flash, tens of ms on a Pico (docs/firmware.md), so not every second once the first came
BOARD_STATS_EVERY_S = 5.0
FRAME_OVERHEAD = 11  # bytes a frame adds to its payload: header 4, CRC 4, COBS 2, delimiter 1
MIN_PAYLOAD = 8  # two cells of SET_CELLS: a frame smaller than this is not worth its overhead

# ERROR codes in words, for the log and the per-kind counts in status()
ERROR_KINDS = {
    m.E_UNKNOWN_TYPE: "unknown message type", m.E_BAD_PAYLOAD: "bad payload",
    m.E_BAD_CELL: "no such cell", m.E_BAD_TAG: "bad tile payload", m.E_READER: "reader fault",
    m.E_BUTTON_STUCK: "button stuck", m.E_CONFIG: "bad setting", m.E_VERSION: "protocol version",
    m.E_OVERSIZE: "oversize frame", m.E_LED_CHAIN: "LED chain short",
    m.E_CROSS_READ: "tile heard by two readers",
}


class HandshakeError(ConnectionError):
    """The port opened but no compatible board answered."""


@dataclass(frozen=True)
class BoardInfo:
    protocol: int
    firmware: str
    layout: str
    cells: int
    leds: int
    slots: int
    buttons: int
    heap_free: int
    max_payload: int
    epoch: int  # of the HELLO_REQ it answers; 0: said at boot


@dataclass(frozen=True)
class Message:
    """A decoded message, as the trace and listeners see it."""

    t: float  # time.time()
    direction: str  # "in" (from the board) or "out"
    type: int
    name: str
    fields: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        fields = {k: (v.hex() if isinstance(v, bytes) else v) for k, v in self.fields.items()}
        return {"t": round(self.t, 3), "dir": self.direction, "type": self.name, **fields}


def decode(direction: str, mtype: int, payload: bytes) -> Message:
    names = FIELD_NAMES.get(mtype, ())
    values = m.decode(mtype, payload)
    if mtype == m.LINK_STATS:  # counters by name, for the trace and status()
        values = (fields.link_counters(values[0]),)
    elif mtype == m.READER_STATS:
        values = (reader_stats(values[0]),)
    return Message(time.time(), direction, mtype, fields.name(mtype), dict(zip(names, values)))


class BoardConnection:
    def __init__(self, port: str, image: BoardImage | None = None, trace_size: int = 2000,
                 layout: str | None = None, patience: float = 1.0) -> None:
        self.port_name = port
        # how many times longer than a Pico this board may take to answer or be silent (the
        # emulated Pico: chip.board.ChipBoard.SLOWER)
        self.patience = patience
        self.layout = layout  # the layout the host drives: a board set up for another is refused
        self.image = image
        self.state_listeners: list[Callable[[str], None]] = []  # called with each new state
        self._state = "closed"
        self.info: BoardInfo | None = None
        self.last_error = ""
        self.rtt_ms: float | None = None
        self.board_heap_free: int | None = None
        self.reconnects = 0
        self.decode_errors = 0
        self.invalid_messages = 0  # decoded, but naming a slot/button/cell the board lacks
        self.board_errors = 0
        self.board_error_kinds: dict[str, int] = {}  # ERROR_KINDS word -> ERRORs the board sent
        self.board_link: dict[str, int] | None = None  # the board's LINK_STATS, latest
        self.board_link_supported = True  # False: the firmware predates GET_LINK_STATS
        # the board's READER_STATS, latest: {slot: {"hot", "crc_errors", "collisions",
        # "over_temperature"}} for the readers that have any; None until it answered
        self.board_readers: dict[int, dict[str, int]] | None = None
        self.board_readers_supported = True  # False: the firmware predates GET_READER_STATS
        self._board_link_waiters: list[asyncio.Future[dict[str, int]]] = []
        self.trace: deque[Message] = deque(maxlen=trace_size)
        self.listeners: list[Callable[[Message], None]] = []
        self.shown: list[CellState] = []  # what the board reports it shows
        self.settings: dict[int, int] = {}  # SET_CONFIG key -> value, re-sent at every resync
        # bad frames per byte received, smoothed: "in" as the host counts what it
        # receives, "out" as the board counts what the host sends (its LINK_STATS)
        self.damage = {"in": 0.0, "out": 0.0}
        self._damage_seen: dict[str, tuple[int, int, int]] = {}
        self._epoch = 0
        self._seen = (0, 0)  # the board's frames taken in the last session that had any
        self._port: serial.Serial | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._last_rx = 0.0
        self._hello: asyncio.Future[BoardInfo] | None = None
        self._late_hellos = 0  # HELLOs that answered an earlier HELLO_REQ: the board is slow
        self._pongs: dict[int, asyncio.Future[float]] = {}
        self._lost = asyncio.Event()
        # the host never refuses to queue: memory is plenty, and a full resync
        # replaces the queue on reconnect anyway
        self.link = Link(self._write, _now_ms, self._on_message, max_queue=1 << 30)

    # -- public -------------------------------------------------------------
    @property
    def state(self) -> str:
        return self._state

    @state.setter
    def state(self, value: str) -> None:
        if value != self._state:
            self._state = value
            for listener in list(self.state_listeners):
                listener(value)

    def status(self) -> dict[str, Any]:
        stats = dict(self.link.stats)
        return {
            "port": self.port_name, "state": self.state, "connected": self.state == "connected",
            "board": asdict(self.info) if self.info else None,
            "rtt_ms": self.rtt_ms, "heap_free": self.board_heap_free,
            "reconnects": self.reconnects, "last_error": self.last_error,
            "checksum_errors": stats["crc_errors"] + stats["cobs_errors"],
            "decode_errors": self.decode_errors, "invalid_messages": self.invalid_messages,
            "board_errors": self.board_errors,
            "frames_in": stats["frames_in"], "frames_out": stats["frames_out"],
            "retransmits": stats["retransmits"], "link": stats,
            "board_error_kinds": dict(self.board_error_kinds),
            "board_link": dict(self.board_link) if self.board_link is not None else None,
            "board_link_supported": self.board_link_supported,
            "board_readers": ({str(k): dict(v) for k, v in self.board_readers.items()}
                              if self.board_readers is not None else None),
            "board_readers_supported": self.board_readers_supported,
            "damage": {way: round(rate, 5) for way, rate in self.damage.items()},
            "max_payload": self._budget(),
        }

    def send(self, mtype: int, *values: Any) -> None:
        self.send_raw(mtype, m.encode(mtype, *values))

    def send_raw(self, mtype: int, payload: bytes) -> None:
        self._record(decode("out", mtype, payload))
        if self.state in ("connected", "handshake") or not m.CATALOGUE[mtype][1]:
            self.link.send(mtype, payload)

    def configure(self, key: int, value: int) -> None:
        """A board setting (SET_CONFIG): sent now if connected, and again after every reconnect."""
        self.settings[key] = value
        if self.state == "connected":
            self.send(m.SET_CONFIG, key, value)

    def set_cells(self, changes: dict[int, CellState]) -> None:
        """Change what cells show; sent now if connected, else at the next resync."""
        if self.image is None:
            raise RuntimeError("no board image yet")
        for mtype, payload in self.image.update(changes, self._budget()):
            if self.state == "connected":
                self.send_raw(mtype, payload)

    def ask_state(self) -> None:
        """GET_STATE, in STATE messages small enough for the damage seen on the way back."""
        self.send(m.GET_STATE, min(200, self._budget() // 2))

    async def run(self) -> None:
        """Stay connected forever (until cancelled), reconnecting as needed."""
        while True:
            try:
                await self.connect()
                await self._serve()
            except (PortError, HandshakeError) as err:
                self._fail(str(err))
            self._close()
            self.reconnects += 1
            await asyncio.sleep(RECONNECT_EVERY_S)

    async def connect(self, timeout: float | None = None) -> BoardInfo:
        """Open the port and do the handshake; PortError or HandshakeError if not."""
        timeout = HELLO_TIMEOUT_S * self.patience if timeout is None else timeout
        self._loop = asyncio.get_running_loop()
        self.state = "opening"
        self._port = open_port(self.port_name)
        self._port.reset_input_buffer()  # bytes from before we listened are stale
        self._lost = asyncio.Event()
        threading.Thread(target=self._reader, args=(self._port, self._lost), daemon=True,
                         name=f"serial-{self.port_name}").start()
        self.state = "handshake"
        self.board_link = None  # counters of this board, not of the one before
        self.board_link_supported = True
        self.board_readers = None
        self.board_readers_supported = True
        info = await self._handshake(timeout)
        self.info = info
        if info.protocol != m.PROTOCOL_VERSION:
            self.state = "incompatible"
            raise HandshakeError(
                f"the board on {self.port_name} speaks protocol {info.protocol} (firmware "
                f"{info.firmware}) but this host speaks {m.PROTOCOL_VERSION}: update the firmware "
                f"with `botboard deploy --port {self.port_name}`, or the host to a matching version")
        if self.layout and info.layout != self.layout:
            self.state = "incompatible"
            raise HandshakeError(
                f"the board on {self.port_name} is set up for layout {info.layout}, but this host "
                f"drives {self.layout}: start the host with --layout {info.layout}, or set the board "
                f"up for {self.layout} with `botboard deploy --layout {self.layout} --port "
                f"{self.port_name}`")
        self.state = "connected"
        self.last_error = ""
        log.info("board on %s: firmware %s, layout %s, %d cells, %d slots", self.port_name,
                 info.firmware, info.layout, info.cells, info.slots)
        self._resync(info)
        return info

    async def ping(self, timeout: float = 1.0) -> float:
        """Round-trip time in ms of one PING/PONG."""
        assert self._loop is not None
        token = int(time.monotonic() * 1000) & 0xFFFFFFFF
        while token in self._pongs:
            token = (token + 1) & 0xFFFFFFFF
        future = self._loop.create_future()
        self._pongs[token] = future
        sent = time.perf_counter()
        self.link.send(m.PING, m.encode(m.PING, token))
        try:
            await asyncio.wait_for(future, timeout)
        finally:
            self._pongs.pop(token, None)
        self.rtt_ms = (time.perf_counter() - sent) * 1000
        return self.rtt_ms

    async def board_link_stats(self, timeout: float = 1.0) -> dict[str, int]:
        """The board's link counters, asked for now (GET_LINK_STATS)."""
        assert self._loop is not None
        future: asyncio.Future[dict[str, int]] = self._loop.create_future()
        self._board_link_waiters.append(future)
        self.link.send(m.GET_LINK_STATS)
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            if future in self._board_link_waiters:
                self._board_link_waiters.remove(future)

    def close(self) -> None:
        self._close()
        self.state = "closed"

    # -- internals ----------------------------------------------------------
    async def _handshake(self, timeout: float) -> BoardInfo:
        assert self._loop is not None
        self._hello = self._loop.create_future()
        deadline = time.monotonic() + timeout
        # a board `patience` times slower answers that much later: retried as often as a Pico
        # would be, on its clock (the emulated Pico's boot otherwise meets a HELLO_REQ storm)
        retry_s, unheard = HELLO_RETRY_S * self.patience, 0
        try:
            while time.monotonic() < deadline:
                self._new_session()
                self.send(m.HELLO_REQ, m.PROTOCOL_VERSION, self._epoch, *self._seen,
                          f"botboard {__version__}")
                lost: asyncio.Future[Any] = asyncio.ensure_future(self._lost.wait())
                waiting: list[asyncio.Future[Any]] = [self._hello, lost]
                late = self._late_hellos
                await asyncio.wait(waiting, timeout=min(retry_s, deadline - time.monotonic()))
                unheard = unheard + 1 if self._late_hellos == late and not self._hello.done() else 0
                if self._late_hellos != late or unheard >= HELLOS_UNHEARD:
                    retry_s = min(retry_s * 1.5, HELLO_RETRY_MAX_S * self.patience)
                lost.cancel()
                if self._hello.done():
                    return self._hello.result()
                if self._lost.is_set():
                    raise PortError(f"{self.port_name} closed during the handshake: {self.last_error}")
        finally:
            self._hello = None
        raise HandshakeError(
            f"no botboard answered on {self.port_name} within {timeout:.0f} s: is it the board's "
            "port, is the firmware running (a board in safe mode or at the REPL does not answer; "
            "`botboard deploy` installs it), or is this another device?")

    def _new_session(self) -> None:
        """A fresh epoch for each HELLO_REQ: a late HELLO or frame of an earlier try is
        never taken for this one. What the board sent in the session left behind and
        we took goes in the HELLO_REQ, so that the board does not send it again."""
        mark = self.link.delivery_mark()
        if mark is not None:
            self._seen = mark
        self._epoch = self._epoch % 15 + 1
        self.link.reset(self._epoch, keep_pending=False)  # the resync after HELLO supersedes it

    def _resync(self, info: BoardInfo) -> None:
        if self.image is None or len(self.image.cells) != info.cells:
            self.image = BoardImage.blank(info.cells)
        self.shown = [CellState()] * info.cells
        for key, value in self.settings.items():  # before the cells: no frame over the budget
            self.send(m.SET_CONFIG, key, value)
        for mtype, payload in self.image.full_sync(self._budget()):
            self.send_raw(mtype, payload)
        self.ask_state()

    async def _serve(self) -> None:
        self._last_rx = last_turn = time.monotonic()
        next_ping = next_stats = 0.0
        while not self._lost.is_set():
            now = time.monotonic()
            if now - last_turn > PING_EVERY_S:  # this host was starved of CPU meanwhile (a
                self._last_rx += now - last_turn  # loaded machine): not the board's silence
            last_turn = now
            if now - self._last_rx > SILENT_AFTER_S * self.patience \
                    and now - self._last_rx > SILENT_AFTER_S * self.patience * load_factor():
                # (a loaded machine starves a simulated board, and this host's reader, for
                # seconds: slow is not silent; the load is read only when it could matter)
                raise HandshakeError(f"the board on {self.port_name} went silent for "
                                     f"{now - self._last_rx:.0f} s; reconnecting")
            if now >= next_ping:
                # pings and counters requests as often as a Pico gets them, on its clock: a board
                # `patience` times slower (the emulated Pico) would spend that much more of its
                # time answering them, and its figures would be a host's artefact
                next_ping = now + PING_EVERY_S * self.patience
                asyncio.ensure_future(self._quiet_ping())
            if now >= next_stats:
                # every second until this session's first answer (it may be lost), then less often
                answered = self.board_link is not None or not self.board_link_supported
                next_stats = now + (BOARD_STATS_EVERY_S if answered else 1.0) * self.patience
                self._note_damage("in", self.link.stats)
                if self.board_link_supported:
                    self.link.send(m.GET_LINK_STATS)  # the answer updates board_link
                if self.board_readers_supported:
                    self.link.send(m.GET_READER_STATS)  # ... and board_readers
            self.link.poll()
            try:
                await asyncio.wait_for(self._lost.wait(), 0.01)
            except asyncio.TimeoutError:
                pass
        raise PortError(f"lost {self.port_name}: {self.last_error} (unplugged?); reconnecting")

    async def _quiet_ping(self) -> None:
        try:
            await self.ping()
        except (asyncio.TimeoutError, ConnectionError):
            pass

    def _reader(self, port: serial.Serial, lost: asyncio.Event) -> None:
        """Thread: blocking reads, handed to the event loop."""
        assert self._loop is not None
        loop = self._loop
        try:
            while not lost.is_set():
                data = port.read(max(1, getattr(port, "in_waiting", 0)))
                if data:
                    loop.call_soon_threadsafe(self._on_bytes, data)
        except (serial.SerialException, OSError, TypeError, AttributeError) as err:
            # TypeError/AttributeError: pyserial's read on a port closed under it
            if not lost.is_set() and not loop.is_closed():
                loop.call_soon_threadsafe(self._port_lost, str(err))
        except RuntimeError:
            # the event loop closed while bytes were still arriving (its owner
            # stopped without closing the port first): nobody is left to hand them to
            if not loop.is_closed():
                raise

    def _on_bytes(self, data: bytes) -> None:
        self._last_rx = time.monotonic()
        self.link.feed(data)

    def _port_lost(self, why: str) -> None:
        self.last_error = why
        self._lost.set()

    def _write(self, data: bytes) -> None:
        port = self._port
        if port is None or self._lost.is_set():
            return
        try:
            port.write(data)
        except (serial.SerialException, OSError) as err:
            self._port_lost(str(err))

    def _on_message(self, mtype: int, payload: bytes, version: int) -> None:
        try:
            msg = decode("in", mtype, payload)
        except ValueError as err:
            if mtype == m.HELLO and payload and payload[0] != m.PROTOCOL_VERSION:
                self._other_protocol(payload[0])  # its version comes first, whatever follows
                return
            self.decode_errors += 1
            log.warning("undecodable %s from the board (%s): a firmware newer or older than "
                        "this host? `botboard probe` shows its version", fields.name(mtype), err)
            return
        self._record(msg)
        wrong = self._off_the_board(msg)
        if wrong:
            self.invalid_messages += 1
            log.warning("the board sent %s %s, but %s: ignored (a firmware set up for another "
                        "layout? `botboard probe` shows it)", msg.name, msg.fields, wrong)
            return
        self._handle(msg)
        for listener in list(self.listeners):
            try:
                listener(msg)
            except Exception:  # one listener's fault must not cost the others this message
                log.exception("handling %s from the board", msg.name)

    def _other_protocol(self, protocol: int) -> None:
        if self._hello is not None and not self._hello.done():
            self._hello.set_result(BoardInfo(protocol, "?", "?", 0, 0, 0, 0, 0, 0, self._epoch))

    def _off_the_board(self, msg: Message) -> str:
        """Why a message names a slot, button or cell the board said it lacks ('' if not)."""
        info, f = self.info, msg.fields
        if info is None or self.state != "connected":
            return ""
        for field, count in (("slot", info.slots), ("button", info.buttons), ("cell", info.cells)):
            if field in f and msg.type != m.STATE and not 0 <= f[field] < count:
                return f"the board has {count} {field}s (0 to {count - 1})"
        return ""

    def _handle(self, msg: Message) -> None:
        f = msg.fields
        if msg.type == m.HELLO:
            info = BoardInfo(**f)
            if info.epoch == self._epoch and self._hello is not None and not self._hello.done():
                self._hello.set_result(info)
            elif info.epoch == 0 and self.state == "connected":
                # the board restarted under us (it says HELLO at boot): new session
                self._port_lost("the board restarted")
            elif self.state == "connected":
                # a board slow to start (the emulated Pico on a loaded host) answers every
                # HELLO_REQ that waited in its input, in order: one answered after ours means
                # it left our session for that one (with 15 epochs, the one we took may even
                # have been an earlier round's of the same number), so ours begins again
                self._port_lost("the board took an earlier hello after ours (it was slow to start)")
            else:  # the answer to an earlier HELLO_REQ, come late: the next one is awaited
                self._late_hellos += 1
        elif msg.type == m.PONG:
            self.board_heap_free = f["heap_free"]
            future = self._pongs.get(f["token"])
            if future is not None and not future.done():
                future.set_result(time.perf_counter())
        elif msg.type == m.STATE:
            cells = f["cells"]
            for i in range(len(cells) // 2):
                if f["start"] + i < len(self.shown):
                    self.shown[f["start"] + i] = CellState.from_bytes(cells[2 * i], cells[2 * i + 1])
        elif msg.type == m.LINK_STATS:
            self.board_link = f["counters"]
            self._note_damage("out", self.board_link)  # what the host sends, as the board got it
            for waiter in self._board_link_waiters:
                if not waiter.done():
                    waiter.set_result(self.board_link)
        elif msg.type == m.READER_STATS:
            self.board_readers = f["readers"]
        elif msg.type == m.ERROR:
            self._board_error(f["code"], f["ref"], f["text"])
        elif msg.type == m.LOG:
            log.log(f["level"], "board: %s", f["text"])

    def _note_damage(self, way: str, counters: dict[str, int]) -> None:
        """Update the damage rate of one direction from a receiver's counters: it rises
        at once (frames must shrink before they stop getting through) and falls by
        halves (one clean second does not mean a mended cable)."""
        now = (sum(counters.get(k, 0) for k in ("crc_errors", "cobs_errors", "short_frames")),
               counters.get("frames_in", 0), counters.get("bytes_in", 0))
        seen, self._damage_seen[way] = self._damage_seen.get(way), now
        if seen is None or now[2] - seen[2] < 200:
            if seen is not None:
                self._damage_seen[way] = seen  # too few bytes yet: keep counting from before
            return
        bad, good, got = (a - b for a, b in zip(now, seen))
        if bad + good == 0:
            return
        # a frame of L bytes is spoilt with chance 1 - (1 - r)^L: r from the share spoilt
        frame = got / (bad + good)
        sample = 1 - (1 - min(bad / (bad + good), 0.99)) ** (1 / max(frame, 1.0))
        self.damage[way] = max(sample, (self.damage[way] + sample) / 2)

    def _budget(self) -> int:
        """Payload budget for either way: a cable that damages one way mostly damages both,
        and the board's counters (LINK_STATS) are the first thing a bad line loses."""
        return payload_budget(max(self.damage.values()))

    def _board_error(self, code: int, ref: int, text: str) -> None:
        if code == m.E_UNKNOWN_TYPE and ref == m.GET_LINK_STATS:
            # firmware older than GET_LINK_STATS: stop asking, say how to get the counters
            if self.board_link_supported:
                log.info("the board's firmware does not report its link counters; `botboard "
                         "deploy --port %s` updates it", self.port_name)
            self.board_link_supported = False
            return
        if code == m.E_UNKNOWN_TYPE and ref == m.GET_READER_STATS:
            self.board_readers_supported = False  # firmware older than it: stop asking
            return
        kind = ERROR_KINDS.get(code, f"error code {code}")
        self.board_errors += 1
        self.board_error_kinds[kind] = self.board_error_kinds.get(kind, 0) + 1
        if code in (m.E_OVERSIZE, m.E_VERSION):
            log.warning("board dropped frames from the host: %s, %d since its last report: %s",
                        kind, ref, text)
        else:
            log.warning("board error: %s (code %d, ref %d): %s", kind, code, ref, text)

    def _record(self, msg: Message) -> None:
        if msg.type not in (m.PING, m.PONG, m.GET_LINK_STATS, m.LINK_STATS, m.GET_READER_STATS,
                            m.READER_STATS):
            log.debug("%s %s %s", msg.direction, msg.name, msg.fields)
        self.trace.append(msg)

    def _fail(self, why: str) -> None:
        if why != self.last_error:
            log.warning("%s", why)
        self.last_error = why

    def _close(self) -> None:
        self._lost.set()
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass
        if self.state != "incompatible":
            self.state = "waiting"


def payload_budget(damage: float) -> int:
    """The largest payload whose frame still gets through one try in three when
    ``damage`` of the bytes are damaged (a damaged byte spoils its frame)."""
    if damage <= 0:
        return MAX_PAYLOAD
    frame = math.log(1 / 3) / math.log(1 - min(damage, 0.5))
    return max(MIN_PAYLOAD, min(MAX_PAYLOAD, int(frame) - FRAME_OVERHEAD))


def _now_ms() -> int:
    return int(time.monotonic() * 1000)


def info_json(info: BoardInfo, rtt_ms: float) -> dict[str, Any]:
    return {"firmware_version": info.firmware, "protocol_version": info.protocol,
            "layout": info.layout, "cells": info.cells, "leds": info.leds, "slots": info.slots,
            "buttons": info.buttons, "heap_free": info.heap_free, "rtt_ms": round(rtt_ms, 3)}



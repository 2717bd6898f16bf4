"""Bad input on the link: clear words, counted, and nothing crashes on either side."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path
from typing import Any

import pytest

from bbshared import frame
from bbshared import messages as m
from bbshared.link import Link
from botboard.link.connection import BoardConnection, HandshakeError
from botboard.link.tags import TagWriteError, write_tag
from botboard.link.transport import PortError, open_port

from ..simboard import SimProcess
from .running import connected, until
from ..patience import aquiet, scaled

BOTBOARD = str(Path(sys.executable).parent / "botboard")


class FakeBoard:
    """The master side of a pty playing a board that says what we tell it to."""

    def __init__(self, protocol: int = m.PROTOCOL_VERSION, garbage: bytes = b"") -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self._slave = slave
        self.protocol = protocol
        self.garbage = garbage
        self.link = Link(self._write, lambda: 0, self._on_message)
        self._stop = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _on_message(self, mtype: int, payload: bytes, version: int) -> None:
        if mtype == m.HELLO_REQ:  # what it says next is of this session
            self.link.reset(payload[1])
            os.write(self.master, self.garbage)
            self.link.send(m.HELLO, m.encode(m.HELLO, self.protocol, "9.9.9", "ttb-small", 61, 427,
                                             24, 16, 1000, 500, payload[1]))

    def _write(self, data: bytes) -> None:
        try:
            os.write(self.master, data)
        except OSError:
            pass  # closed at the end of the test

    def _serve(self) -> None:
        while not self._stop:
            try:
                data = os.read(self.master, 1024)
            except OSError:
                return
            self.link.feed(data)

    def close(self) -> None:
        self._stop = True
        os.close(self._slave)
        os.close(self.master)


def test_a_board_with_another_protocol_version_is_refused_with_what_to_do() -> None:
    board = FakeBoard(protocol=99)
    conn = BoardConnection(board.port)
    try:
        with pytest.raises(HandshakeError) as err:
            asyncio.run(conn.connect(2.0))
        assert "protocol 99" in str(err.value) and "botboard deploy" in str(err.value)
        assert conn.state == "incompatible"
    finally:
        conn.close()
        board.close()


def test_a_board_of_protocol_1_is_refused_with_what_to_do_though_its_hello_is_shorter() -> None:
    board = FakeBoard()

    def old_hello(mtype: int, payload: bytes, version: int) -> None:
        if mtype == m.HELLO_REQ:  # protocol 1's HELLO had no epoch field
            board.link.send(m.HELLO, m.encode(m.HELLO, 1, "0.0.9", "ttb-small", 61, 427, 24, 16,
                                              1000, 500, 0)[:-1])

    board.link._on_message = old_hello
    conn = BoardConnection(board.port)
    try:
        with pytest.raises(HandshakeError) as err:
            asyncio.run(conn.connect(2.0))
        assert "speaks protocol 1" in str(err.value) and "botboard deploy" in str(err.value)
    finally:
        conn.close()
        board.close()


def test_a_board_slower_to_answer_than_the_hello_retry_still_gets_its_session() -> None:
    """A board that answers each HELLO_REQ 0.6 s late (a busy Pico, a loaded host; found on the
    emulated RP2040): every answer used to be overtaken by the next HELLO_REQ's new epoch, 0.25 s
    on, and the host never connected. The retries now wait longer each time, so one is answered."""
    board = FakeBoard()
    answer = board._on_message

    def late(mtype: int, payload: bytes, version: int) -> None:
        def now() -> None:
            try:
                answer(mtype, payload, version)
            except OSError:
                pass  # the test is over: the port is closed
        threading.Timer(0.6, now).start()  # the board's own slowness, not a wait
    board.link._on_message = lambda mtype, payload, version: late(mtype, bytes(payload), version)
    conn = BoardConnection(board.port)
    try:
        info = asyncio.run(conn.connect(scaled(20)))
        assert info.firmware == "9.9.9" and conn.state == "connected"
    finally:
        conn.close()
        board.close()


def test_a_message_naming_a_slot_the_board_lacks_never_reaches_the_game() -> None:
    board = FakeBoard()  # 24 slots, 16 buttons, 61 cells

    async def scenario() -> None:
        async with connected(board.port) as conn:
            heard: list[str] = []

            def faulty(msg: Any) -> None:
                raise RuntimeError("a bug in one listener")

            conn.listeners += [faulty, lambda msg: heard.append(msg.name)]
            for mtype, values in ((m.SLOT, (40, 1, b"\x04\x01", b"")), (m.BUTTON, (16, m.PRESS)),
                                  (m.TOUCH, (61,)), (m.SLOT, (23, 1, b"\x04\x02", b""))):
                board.link.send(mtype, m.encode(mtype, *values))
            await until(lambda: "slot" in heard, 5, "the good SLOT")
            assert heard.count("slot") == 1 and "button" not in heard and "touch" not in heard
            assert conn.status()["invalid_messages"] == 3

    try:
        asyncio.run(scenario())
    finally:
        board.close()


def test_a_board_set_up_for_another_layout_is_refused_with_what_to_do() -> None:
    board = FakeBoard()  # says ttb-small
    conn = BoardConnection(board.port, layout="ttb-big")
    try:
        with pytest.raises(HandshakeError) as err:
            asyncio.run(conn.connect(2.0))
        assert "set up for layout ttb-small, but this host drives ttb-big" in str(err.value)
        assert "--layout ttb-small" in str(err.value) and "botboard deploy --layout ttb-big" in str(err.value)
        assert conn.state == "incompatible"
    finally:
        conn.close()
        board.close()
    board = FakeBoard()
    same = BoardConnection(board.port, layout="ttb-small")
    try:
        assert asyncio.run(same.connect(2.0)).layout == "ttb-small"
    finally:
        same.close()
        board.close()


def test_garbage_before_the_answer_is_counted_and_survived() -> None:
    board = FakeBoard(garbage=os.urandom(3000) + b"\x00" + b"\x05" * 600 + b"\x00")
    conn = BoardConnection(board.port)
    try:
        info = asyncio.run(conn.connect(3.0))
        assert info.firmware == "9.9.9"
        status = conn.status()
        assert status["checksum_errors"] + conn.link.stats["oversize"] + \
            conn.link.stats["short_frames"] > 0
    finally:
        conn.close()
        board.close()


def test_the_board_survives_garbage_unknown_types_and_oversize_frames() -> None:
    sim = SimProcess()

    async def scenario() -> None:
        async with connected(sim.port) as conn:
            errors: list[dict[str, Any]] = []
            conn.listeners.append(lambda msg: errors.append(msg.fields) if msg.type == m.ERROR else None)
            conn._write(os.urandom(2000))  # noise straight onto the wire
            conn._write(b"\x07" * 900 + b"\x00")  # longer than any frame
            conn._write(frame.build(m.PROTOCOL_VERSION, 0x7A, 0, 0, b"?"))  # a type it does not know
            conn._write(frame.build(7, m.PING, 0, 0, bytes(4)))  # a protocol it does not speak
            codes = lambda: {e["code"]: e for e in errors}  # noqa: E731
            await until(lambda: {m.E_UNKNOWN_TYPE, m.E_OVERSIZE, m.E_VERSION} <= set(codes()),
                        what="the board's ERRORs for each")
            assert codes()[m.E_UNKNOWN_TYPE]["ref"] == 0x7A
            assert "0x00 delimiter" in codes()[m.E_OVERSIZE]["text"]
            assert "protocol 7" in codes()[m.E_VERSION]["text"] and codes()[m.E_VERSION]["ref"] == 1
            stats = sim.control("stats")["link"]
            assert stats["oversize"] >= 1 and stats["unknown_types"] == 1 and stats["version_errors"] == 1
            # every drop reported (the noise may have made more than one: one report a second)
            await until(lambda: sum(e["ref"] for e in errors if e["code"] == m.E_OVERSIZE)
                        == stats["oversize"], 5, "reports of every oversize frame")
            assert stats["crc_errors"] + stats["cobs_errors"] + stats["short_frames"] > 0
            # the same counters, as the board reports them over the link
            reported = await conn.board_link_stats()
            assert reported["oversize"] == stats["oversize"] and reported["version_errors"] == 1
            assert reported["unknown_types"] == 1
            kinds = conn.status()["board_error_kinds"]
            assert kinds["oversize frame"] >= 1 and kinds["protocol version"] == 1
            assert kinds["unknown message type"] == 1
            rtt = await conn.ping()  # still answering
            assert rtt > 0 and conn.state == "connected"

    try:
        asyncio.run(scenario())
    finally:
        sim.stop()


def test_missing_and_busy_ports_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(PortError, match="no port .*plug the board in"):
        open_port(str(tmp_path / "ttyACM9"))
    board = FakeBoard()
    first = open_port(board.port)
    try:
        with pytest.raises(PortError, match="busy"):
            open_port(board.port)
    finally:
        first.close()
        board.close()


def test_probe_prints_the_board_and_fails_clearly_without_one() -> None:
    sim = SimProcess()
    try:
        out = subprocess.run([BOTBOARD, "probe", "--port", sim.port], capture_output=True,
                             text=True, timeout=scaled(30))
        assert out.returncode == 0, out.stderr
        info = json.loads(out.stdout)
        assert info["layout"] == "ttb-small" and info["cells"] == 61 and info["leds"] == 427
        assert info["slots"] == 24 and info["buttons"] == 16
        assert info["protocol_version"] == m.PROTOCOL_VERSION and info["rtt_ms"] > 0
        assert {"firmware_version", "protocol_version"} <= set(info)
    finally:
        sim.stop()
    silent = FakeBoard()
    silent.link = Link(lambda b: None, lambda: 0, lambda *a: None)  # hears, never answers
    try:
        out = subprocess.run([BOTBOARD, "probe", "--port", silent.port], capture_output=True,
                             text=True, timeout=scaled(30))
        assert out.returncode != 0 and out.stdout == ""
        assert "no botboard answered" in out.stderr
    finally:
        silent.close()


def test_a_malformed_set_cells_and_a_cell_off_the_board_are_errors_and_the_board_goes_on() -> None:
    sim = SimProcess()

    def cells() -> bytes:
        return bytes.fromhex(sim.control("cells")["cells"])

    async def scenario() -> None:
        async with connected(sim.port) as conn:
            errors: list[dict[str, Any]] = []
            conn.listeners.append(lambda msg: errors.append(msg.fields) if msg.type == m.ERROR else None)
            solid = m.look(m.NO_FACING, m.SOLID)
            assert cells()[10:12] != bytes((2, solid))
            conn.send_raw(m.SET_CELLS, bytes((0, 5, 2, solid, 9)))  # 5 bytes: not 4 per cell
            await until(lambda: errors, what="E_BAD_PAYLOAD")
            assert errors[0]["code"] == m.E_BAD_PAYLOAD and errors[0]["ref"] == m.SET_CELLS
            assert "set_cells needs 4 bytes per cell" in errors[0]["text"]
            # nothing of the bad message applied (the cell's own look may still
            # change meanwhile: the board leaves its waiting pulse when the host says hello)
            assert cells()[10:12] != bytes((2, solid))
            # cell 61 is off the 61-cell board; cell 7 in the same message is fine
            conn.send_raw(m.SET_CELLS, bytes((0, 61, 3, solid, 0, 7, 3, solid)))
            await until(lambda: len(errors) == 2, what="E_BAD_CELL")
            assert errors[1]["code"] == m.E_BAD_CELL and errors[1]["ref"] == 61
            await until(lambda: cells()[14:16] == bytes((3, solid)), what="the good cell applied")
            # and the board keeps working: answers, takes the next update, no more errors
            assert await conn.ping() > 0
            conn.send_raw(m.SET_CELLS, bytes((0, 5, 2, solid)))
            await until(lambda: cells()[10:12] == bytes((2, solid)), what="the next update")
            assert len(errors) == 2 and conn.state == "connected"

    try:
        asyncio.run(scenario())
    finally:
        sim.stop()


def test_the_board_reports_its_link_counters_and_they_match_its_own() -> None:
    # 1% of bytes damaged both ways: the board sees bad frames and resends
    sim = SimProcess("--damage", "0.01")

    async def scenario() -> None:
        async with connected(sim.port, timeout=30) as conn:
            for i in range(40):  # reliable events from the board, some damaged on the way
                sim.control("button", button=i % 16)
            await until(lambda: sim.control("stats")["link"]["retransmits"] > 0, 20,
                        "the board to resend something")
            await until(lambda: conn.status()["board_link"], 10, "LINK_STATS in status()")
            # before the first request: a late answer to an earlier try may be the one taken
            before = sim.control("stats")["link"]
            for _ in range(10):  # the request or the answer may be damaged too
                try:
                    reported = await conn.board_link_stats(1.0)
                except asyncio.TimeoutError:
                    continue
                after = sim.control("stats")["link"]
                break
            else:
                raise AssertionError("no LINK_STATS answer in 10 tries")
            assert set(reported) == set(m.LINK_COUNTERS)
            for key in m.LINK_COUNTERS:
                if key in before:  # counters only grow: the answer lies between
                    assert before[key] <= reported[key] <= after[key], key
            assert reported["crc_errors"] + reported["cobs_errors"] + reported["short_frames"] > 0
            assert reported["retransmits"] > 0 and reported["frames_out"] > 40
            assert conn.status()["board_link_supported"] is True

    try:
        asyncio.run(scenario())
    finally:
        sim.stop()


def test_oversize_frames_give_one_error_a_second_at_most_and_every_drop_is_counted() -> None:
    sim = SimProcess()

    async def scenario() -> None:
        async with connected(sim.port) as conn:
            seen: list[tuple[float, dict[str, Any]]] = []
            conn.listeners.append(lambda msg: seen.append((time.monotonic(), msg.fields))
                                  if msg.type == m.ERROR else None)
            start = time.monotonic()
            while time.monotonic() - start < 2.5:  # pace: 50 oversize frames in 2.5 s
                conn._write(b"\x07" * 700 + b"\x00")
                await asyncio.sleep(0.05)
            sent = sim.control("stats")["link"]["oversize"]
            assert sent >= 40
            await until(lambda: sum(f["ref"] for _, f in seen) == sent, 5,
                        "reports covering every dropped frame")
            times = [t for t, f in seen if f["code"] == m.E_OVERSIZE]
            assert len(times) == len(seen) and 2 <= len(times) <= 4, seen
            gaps = [b - a for a, b in zip(times, times[1:])]
            assert min(gaps) > 0.8, gaps  # the board's limit is 1 s; the host reads with jitter
            assert conn.status()["board_error_kinds"] == {"oversize frame": len(times)}
            assert conn.state == "connected" and await conn.ping() > 0

    try:
        asyncio.run(scenario())
    finally:
        sim.stop()


def test_a_hello_for_an_earlier_request_after_the_session_began_begins_it_again(
        caplog: pytest.LogCaptureFixture) -> None:
    """A board slow to start (the emulated Pico on a loaded host) answers every HELLO_REQ
    that waited in its input, in order: one answered after ours means it left our session
    for that one. The host begins again rather than talk past it (before, it counted the
    answer as late and went on: the game stalled for good)."""
    from botboard.link.connection import Message

    board = FakeBoard()

    async def scenario() -> None:
        async with connected(board.port) as conn:
            reconnects = conn.reconnects
            other = conn._epoch % 15 + 1  # noqa: SLF001 (an epoch not ours)
            hello = {"protocol": m.PROTOCOL_VERSION, "firmware": "9.9.9", "layout": "ttb-small",
                     "cells": 61, "leds": 427, "slots": 24, "buttons": 16, "heap_free": 1000,
                     "max_payload": 500, "epoch": other}
            conn._handle(Message(time.time(), "in", m.HELLO, "hello", hello))  # noqa: SLF001
            await until(lambda: conn.reconnects > reconnects and conn.state == "connected", 10,
                        "the session begun again")
            assert "the board took an earlier hello after ours" in caplog.text

    try:
        asyncio.run(scenario())
    finally:
        board.close()


def test_a_board_too_old_to_report_its_link_counters_is_asked_once_and_not_an_error() -> None:
    board = FakeBoard()
    asked: list[int] = []

    def on_message(mtype: int, payload: bytes, version: int) -> None:
        if mtype == m.GET_LINK_STATS:  # what firmware before GET_LINK_STATS answers
            asked.append(mtype)
            board.link.send(m.ERROR, m.encode(m.ERROR, m.E_UNKNOWN_TYPE, mtype, "not handled"))
        elif mtype == m.PING:
            board.link.send(m.PONG, m.encode(m.PONG, m.decode(m.PING, payload)[0], 1000, 5))
        else:
            FakeBoard._on_message(board, mtype, payload, version)

    board.link._on_message = on_message

    async def scenario() -> None:
        async with connected(board.port) as conn:
            await until(lambda: not conn.status()["board_link_supported"], 5, "the old firmware noticed")
            await aquiet(2.5)  # no second ask meanwhile
            status = conn.status()
            assert status["board_link"] is None and status["board_errors"] == 0
            assert len(asked) == 1

    try:
        asyncio.run(scenario())
    finally:
        board.close()


def test_a_flood_of_bytes_from_the_host_starves_nothing_on_the_board() -> None:
    # bytes arrive faster than the board reads them, for the whole test: its
    # link task must still let buttons, the renderer and the control socket run
    sim = SimProcess()
    stop = threading.Event()

    def flood() -> None:
        noise = bytes(1 + b % 255 for b in os.urandom(255)) + b"\x00"  # bad frames, cleanly ended
        fd = os.open(sim.port, os.O_WRONLY | os.O_NOCTTY)
        try:
            while not stop.is_set():
                os.write(fd, noise)
        except OSError:
            pass  # the board went away at the end of the test
        finally:
            os.close(fd)

    async def scenario() -> None:
        async with connected(sim.port) as conn:
            buttons: list[dict[str, Any]] = []
            conn.listeners.append(lambda msg: buttons.append(msg.fields) if msg.type == m.BUTTON else None)
            pulse = m.look(m.NO_FACING, m.PULSE)  # a pulsing cell: the renderer draws every frame
            conn.send_raw(m.SET_CELLS, bytes((0, 5, 2, pulse)))
            await until(lambda: sim.control("cells")["cells"][20:24] == bytes((2, pulse)).hex(), 10,
                        "the pulsing cell")
            flooding = threading.Thread(target=flood, daemon=True)
            flooding.start()
            await until(lambda: sim.control("stats")["link"]["crc_errors"]
                        + sim.control("stats")["link"]["cobs_errors"] > 50, 20, "the flood to arrive")
            frames = sim.control("leds")["frames"]
            sim.control("button", button=3)  # a click: pressed, held briefly, released
            await until(lambda: any(b["action"] == m.RELEASE for b in buttons), 10,
                        "the click, during the flood")
            assert [(b["button"], b["action"]) for b in buttons] == [(3, m.PRESS), (3, m.RELEASE)]
            await until(lambda: sim.control("leds")["frames"] > frames + 5, 5,
                        "the renderer still drawing")
            assert flooding.is_alive() and sim.control("stats")["link"]["bytes_in"] > 20_000

    try:
        asyncio.run(scenario())
    finally:
        stop.set()
        sim.stop()


def test_a_firmware_that_cannot_write_tags_is_named_at_once_not_after_the_long_wait() -> None:
    board = FakeBoard()

    def old_firmware(mtype: int, payload: bytes, version: int) -> None:
        if mtype == m.WRITE_TAG:  # as bbfw.app answers a type it does not handle
            board.link.send(m.ERROR, m.encode(m.ERROR, m.E_UNKNOWN_TYPE, m.WRITE_TAG, "message type not handled"))
        else:
            FakeBoard._on_message(board, mtype, payload, version)

    board.link._on_message = old_firmware

    async def scenario() -> None:
        async with connected(board.port) as conn:
            with pytest.raises(TagWriteError) as err:  # the long wait would say "did not answer"
                await write_tag(conn, 3, b"\x01\x02")
            assert "botboard deploy" in str(err.value) and "cannot write tags" in str(err.value)

    try:
        asyncio.run(scenario())
    finally:
        board.close()


def test_bytes_arriving_after_the_event_loop_closed_end_the_reader_thread_quietly() -> None:
    # a daemon stopped without closing its port first: the reader thread still gets
    # bytes, and must end without an unhandled exception (no traceback in the log)
    board = FakeBoard()
    conn = BoardConnection(board.port)
    loop = asyncio.new_event_loop()
    loop.close()
    conn._loop = loop
    port = open_port(board.port)
    crashes: list[Any] = []
    before = threading.excepthook
    threading.excepthook = crashes.append
    try:
        reader = threading.Thread(target=conn._reader, args=(port, asyncio.Event()), daemon=True)
        reader.start()
        os.write(board.master, b"\x00late bytes\x00")
        reader.join(scaled(5))
        assert not reader.is_alive() and crashes == []
    finally:
        threading.excepthook = before
        port.close()
        board.close()

"""Bad input on the link: clear words, counted, and nothing crashes on either side."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import tty
from pathlib import Path
from typing import Any

import pytest

from bbshared import frame
from bbshared import messages as m
from bbshared.link import Link
from botboard.link.connection import BoardConnection, HandshakeError
from botboard.link.transport import PortError, open_port

from ..simboard import SimProcess
from .running import connected, until

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
        self.link = Link(lambda b: os.write(self.master, b), lambda: 0, self._on_message)
        self._stop = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _on_message(self, mtype: int, payload: bytes, version: int) -> None:
        if mtype == m.HELLO_REQ:
            os.write(self.master, self.garbage)
            self.link.send(m.HELLO, m.encode(m.HELLO, self.protocol, "9.9.9", "ttb-small", 61, 427,
                                             24, 16, 1000, 500))

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
            await until(lambda: errors, what="the board's ERROR")
            assert errors[0]["code"] == m.E_UNKNOWN_TYPE and errors[0]["ref"] == 0x7A
            stats = sim.control("stats")["link"]
            assert stats["oversize"] >= 1 and stats["unknown_types"] == 1
            assert stats["crc_errors"] + stats["cobs_errors"] + stats["short_frames"] > 0
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
                             text=True, timeout=30)
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
                             text=True, timeout=30)
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
            blank = cells()[10:12]
            assert blank != bytes((2, solid))
            conn.send_raw(m.SET_CELLS, bytes((0, 5, 2, solid, 9)))  # 5 bytes: not 4 per cell
            await until(lambda: errors, what="E_BAD_PAYLOAD")
            assert errors[0]["code"] == m.E_BAD_PAYLOAD and errors[0]["ref"] == m.SET_CELLS
            assert "set_cells needs 4 bytes per cell" in errors[0]["text"]
            assert cells()[10:12] == blank  # nothing of the bad message applied
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

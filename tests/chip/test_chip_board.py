"""The firmware on MicroPython's own rp2 build, on an emulated RP2040 with the chips on its pins.

Each test is a claim only the emulated Pico can check: the real port's boot, USB CDC, heap,
PIO and DMA, under a host that talks to it exactly as to a Pico on /dev/ttyACM0.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bbshared import messages as m
from bbshared import tilepayload as tp

from botboard import __version__
from botboard.board.sim import SimBoard
from botboard.chip.board import ChipBoard
from botboard.chip.waveform import violations
from botboard.link.connection import BoardConnection
from botboard.link.image import BoardImage, CellState
from botboard.resources import ROOT
from tests.chip.conftest import PATIENCE_S, control, needs_chip
from tests.patience import scaled, until, wait_for

# a hang guard only (pytest-timeout): the waits inside scale with load
pytestmark = [needs_chip, pytest.mark.timeout(3600)]
BOTBOARD = str(Path(sys.executable).parent / "botboard")
RED = 2  # the firmware's default palette: index 2 is red, 3 green (render.PALETTE)
LIT = {0: CellState(RED, effect=m.SOLID), 7: CellState(RED, facing=2, effect=m.SOLID),
       30: CellState(RED + 1, effect=m.SOLID)}


def test_probe_knocking_from_the_moment_the_port_appears_gets_the_layout_and_version(
        chip: ChipBoard) -> None:
    """The host sends HELLO_REQ as soon as the port opens, while the Pico is still booting:
    before main.py turned Ctrl-C off, a frame's 0x03 byte stopped the boot and the board
    never answered (found here; a Pico under a running service meets the same)."""
    done = subprocess.run([BOTBOARD, "probe", "--port", chip.port, "--timeout", f"{scaled(PATIENCE_S):.0f}"],
                          capture_output=True, text=True, timeout=scaled(2 * PATIENCE_S))
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    assert info["layout"] == "ttb-small" and info["firmware_version"] == __version__
    assert 100_000 < info["heap_free"] < 264 * 1024  # the rp2 port's own heap, in the RP2040's RAM
    assert chip.resets == []  # it came up once, and stayed up


async def _lit(board: SimBoard) -> bytes:
    """Connect a host to the board, show LIT, and return the LEDs once cell 0 is lit."""
    conn = BoardConnection(board.port, BoardImage.blank(61),
                           patience=ChipBoard.SLOWER if isinstance(board, ChipBoard) else 1.0)
    link = asyncio.create_task(conn.run())
    try:
        await until(lambda: conn.state == "connected", PATIENCE_S, "a session with the board")
        conn.set_cells(LIT)

        def lit() -> bytes | None:
            leds = bytes.fromhex(control(board, "leds")["leds"])
            return leds if any(leds[:21]) and any(leds[30 * 21:31 * 21]) else None
        leds: bytes = await until(lit, PATIENCE_S, "cells 0 and 30 lit")
        return leds
    finally:
        link.cancel()
        conn.close()


def test_the_leds_read_off_the_data_pins_are_what_the_unix_port_board_draws(chip: ChipBoard) -> None:
    """The same cells sent to both boards: the colours decoded from the emulated Pico's pins
    (PIO and DMA of the real port) equal, byte for byte, the buffer the unix-port firmware drew."""
    on_chip = asyncio.run(_lit(chip))
    unix = SimBoard("ttb-small")
    unix.start()
    try:
        on_unix = asyncio.run(_lit(unix))
    finally:
        unix.stop()
    assert len(on_chip) == 427 * 3
    assert on_chip == on_unix


def test_every_bit_on_the_led_pins_lies_in_both_parts_windows(chip: ChipBoard) -> None:
    asyncio.run(_lit(chip))
    timing = wait_for(lambda: (t := control(chip, "stats")["ws2812"]).get("T1L") and t, PATIENCE_S, "a lit frame")
    assert violations(timing) == []
    assert timing["T1H"]["min"] == timing["T1H"]["max"] == 800  # 50 PIO cycles of 16 ns, no jitter


def test_a_t1l_one_cycle_long_in_ws2812_py_is_caught_on_the_pin(tmp_path: Path) -> None:
    """T1L binds both ways: 37 PIO cycles give 592 ns, 8 ns under the classic part's 600 ns
    maximum and 12 over the V5's 580 minimum. 38 give 608 ns (36 cannot be assembled: the
    zero's low would need a 16-cycle delay)."""
    firmware = tmp_path / "firmware"
    shutil.copytree(ROOT / "firmware", firmware, ignore=shutil.ignore_patterns("__pycache__"))
    driver = firmware / "bbfw" / "drivers" / "ws2812.py"
    text = driver.read_text()
    assert "_T1L = const(37)" in text
    driver.write_text(text.replace("_T1L = const(37)", "_T1L = const(38)"))
    board = ChipBoard("ttb-small", firmware=firmware)
    board.start()
    try:
        asyncio.run(_lit(board))
        timing = wait_for(lambda: (t := control(board, "stats")["ws2812"]).get("T1L") and t, PATIENCE_S, "a lit frame")
    finally:
        board.stop()
    found = violations(timing)
    assert found == ["T1L 608-608 ns is outside the WS2812B's 300-600 ns"], found


def test_a_tile_laid_on_the_emulated_board_reaches_the_host(chip: ChipBoard) -> None:
    payload = bytes(tp.encode(1, 3, 1, 77))

    async def lay() -> dict[str, Any]:
        conn = BoardConnection(chip.port, BoardImage.blank(61), patience=ChipBoard.SLOWER)
        heard: list[dict[str, Any]] = []
        conn.listeners.append(lambda msg: heard.append(msg.fields) if msg.type == m.SLOT else None)
        link = asyncio.create_task(conn.run())
        try:
            await until(lambda: conn.state == "connected", PATIENCE_S, "a session with the board")
            assert control(chip, "place", slot=9, uid="04a1b2c3d4e5f6", payload=payload.hex())["ok"]
            found: dict[str, Any] = await until(
                lambda: next((f for f in heard if f["slot"] == 9 and f["present"]), None),
                PATIENCE_S, "the tile's SLOT event")
            return found
        finally:
            link.cancel()
            conn.close()
            control(chip, "remove", slot=9)

    slot = asyncio.run(lay())
    assert slot["uid"] == bytes.fromhex("04a1b2c3d4e5f6") and slot["payload"] == payload

"""The emulated Pico's tests: MicroPython's own rp2 build in rp2040js, the chips on its pins.

They need the recorded rp2 image and boot ROM (botboard/chip/image.json), which are not in
the repository (docs/firmware.md, "The emulated RP2040"): where they are absent, these tests
are skipped with that reason, and test_image.py still checks the record and the errors.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from botboard.chip import image
from botboard.chip.board import NODE_DIR, ChipBoard
from botboard.session.selfplay import load_factor

needs_chip = pytest.mark.skipif(
    not image.available() or not (NODE_DIR / "node_modules" / "rp2040js").is_dir(),
    reason="the emulated Pico needs the recorded rp2 image and boot ROM in "
           f"{image.directory()} (docs/firmware.md) and bash .ci/setup's npm packages")

# How long the emulated Pico may take, host seconds, before load is counted: it runs a
# Pico at a fifth to a tenth of real time on two quiet cores.
PATIENCE_S = 120.0


def patience() -> float:
    return PATIENCE_S * load_factor()


def control(board: ChipBoard, op: str, **fields: Any) -> dict[str, Any]:
    """One request to the board's control socket, its reply."""
    with socket.create_connection(("127.0.0.1", board.control_port), timeout=patience()) as s:
        s.sendall((json.dumps({"op": op, **fields}) + "\n").encode())
        reply: dict[str, Any] = json.loads(s.makefile().readline())
    return reply


def until(check: Callable[[], Any], what: str) -> Any:
    """Wait (a deadline scaled by load) until check() gives something true, and return it."""
    deadline = time.monotonic() + patience()
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out after {patience():.0f} s waiting for {what}")


@pytest.fixture(scope="module")
def chip() -> Iterator[ChipBoard]:
    """One emulated Pico for a module's tests, started as `botboard sim --chip rp2040` does."""
    board = ChipBoard("ttb-small")
    board.start()
    try:
        yield board
    finally:
        board.stop()

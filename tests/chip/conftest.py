"""The emulated Pico's tests: MicroPython's own rp2 build in rp2040js, the chips on its pins.

They need the recorded rp2 image and boot ROM (botboard/chip/image.json), which are not in
the repository (docs/firmware.md, "The emulated RP2040"): where they are absent, these tests
are skipped with that reason, and test_image.py still checks the record and the errors.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from botboard.chip import image
from botboard.chip.board import NODE_DIR, ChipBoard
from tests.patience import scaled

needs_chip = pytest.mark.skipif(
    not image.available() or not (NODE_DIR / "node_modules" / "rp2040js").is_dir(),
    reason="the emulated Pico needs the recorded rp2 image and boot ROM in "
           f"{image.directory()} (docs/firmware.md) and bash .ci/setup's npm packages")

# What the emulated Pico may take on an idle machine (host seconds; tests/patience.py
# stretches it by the load): rp2040js runs a Pico at a fifth to a tenth of real time.
PATIENCE_S = 120.0


def control(board: ChipBoard, op: str, **fields: Any) -> dict[str, Any]:
    """One request to the board's control socket, its reply."""
    with socket.create_connection(("127.0.0.1", board.control_port), timeout=scaled(PATIENCE_S)) as s:
        s.sendall((json.dumps({"op": op, **fields}) + "\n").encode())
        reply: dict[str, Any] = json.loads(s.makefile().readline())
    return reply


@pytest.fixture(scope="module")
def chip() -> Iterator[ChipBoard]:
    """One emulated Pico for a module's tests, started as `botboard sim --chip rp2040` does."""
    board = ChipBoard("ttb-small")
    board.start()
    try:
        yield board
    finally:
        board.stop()

"""The 32-bit heap measurement (host/botboard/bench/heap32.py): MicroPython's
webassembly port under node, with the compiled firmware on the Pico HAL and
chip models behind stand-in machine/rp2 modules."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from botboard.bench import heap32
from botboard.board import firmware_build, layouts

try:
    heap32.node()
except heap32.Heap32Unavailable as err:  # pragma: no cover - setup installs both
    pytest.skip(str(err), allow_module_level=True)


def test_the_webassembly_port_is_32_bit() -> None:
    lines, report = heap32.run_wasm("import sys\nprint(sys.maxsize, sys.implementation.name)",
                                    64 * 1024)
    assert lines == [f"{2**31 - 1} micropython"]
    assert report["ok"] and not report["grew"]


def test_the_heap_grows_past_a_heap_too_small_and_the_peak_is_found_between() -> None:
    build = firmware_build.build()
    with tempfile.TemporaryDirectory() as tmp:
        config = str(Path(tmp) / "board.json")
        Path(config).write_text(json.dumps(layouts.load("ttb-small").board_config()))
        small = heap32.run_board(build, config, 48 * 1024, loops=1)
        peak = heap32.peak_bytes(build, config, loops=1, low_k=64, high_k=192, step_k=32)
        at_peak = heap32.run_board(build, config, peak, loops=1)
    # 48 KB does not even hold the board's modules: the port had to add heap
    assert small["ok"] and not small["fits"]
    assert small["grew_at"] in ("stand-ins", "import messages", "import app", "import hal_rp2")
    assert at_peak["ok"] and at_peak["fits"] and at_peak["slots"] == 24
    assert at_peak["grew_at"] is None
    heap = at_peak["heap"]
    assert heap["board_imports"] > 30_000  # the compiled firmware is loaded, not a stub
    assert 0 < heap["steady_board_only"] < heap["high_water_board_only"]
    assert heap["high_water_total"] < peak  # what was in use fitted the heap it was given

"""Run code in the real MicroPython unix port with a Pico-sized heap.

Firmware and shared code are tested in the interpreter that the simulated
board uses, not in CPython: ``run_mpy(code)`` executes a snippet with
``firmware/`` and ``shared/`` on the module path and returns its stdout.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from botboard.board.sim import micropython_binary

ROOT = Path(__file__).resolve().parent.parent
# The RP2040 Pico has about 190 KB free for the MicroPython heap, and objects
# on this 64-bit port take up to twice their size there: 176 KB here is still
# stricter than the board. (160 KB until Nov 2026, when the big arena's board
# with the reader error counters no longer fitted it; 168 KB until 27 Nov, when
# the field groups left a test's own 1 KB list no room on a fragmented heap in
# CI: the firmware alone peaks at 162 KB here). The 32-bit heap peak,
# docs/benchmarks.md, is the figure that tracks the firmware's growth.
HEAP = "176K"


def mpy_env() -> dict[str, str]:
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join([str(ROOT / "firmware"), str(ROOT / "shared"), ".frozen"])
    return env


def run_mpy(code: str, *, stdin: bytes | None = None, timeout: float = 60,
            heap: str = HEAP) -> str:
    """Run ``code`` in MicroPython; raise AssertionError with its output if it fails."""
    proc = subprocess.run(
        [micropython_binary(), "-X", f"heapsize={heap}", "-c", code],
        input=stdin, capture_output=True, timeout=timeout, env=mpy_env(), cwd=ROOT,
    )
    out = proc.stdout.decode(errors="replace")
    if proc.returncode != 0:
        raise AssertionError(f"micropython exited {proc.returncode}:\n{out}\n"
                             f"{proc.stderr.decode(errors='replace')}")
    return out

"""The firmware's heap on a 32-bit MicroPython: the webassembly port under node.

The Pico runs a 32-bit MicroPython (4-byte words, 16-byte GC blocks); the
unix port the simulated board uses is 64-bit. MicroPython's webassembly port
(npm ``@micropython/micropython-webassembly-pyscript``, pinned in
``wasm/package.json``, installed by ``bash .ci/setup``) is a 32-bit build:
``wasm/heap32.mjs`` loads it with a given heap, copies the compiled firmware
(the same ``.mpy`` files deploy copies) into its file system and drives
``firmware/bbfw/sim/heap32.py``: the Pico HAL on stand-in ``machine``/``rp2``
modules with the chip models behind the SPI bus, a tile in every slot.

This port collects garbage only between calls from JavaScript, so the
workload is cut into stages (boot steps, then one main-loop round each, the
host stand-in's turns in stages of their own); its heap grows where the Pico
would raise MemoryError. The peak is the smallest
heap in which no stage makes it grow, found by bisection: an upper bound of
what the Pico needs, which can also collect within a stage.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .. import patience
from ..board import firmware_build

WASM = Path(__file__).parent / "wasm"
SCRIPT = WASM / "heap32.mjs"
PACKAGE = WASM / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
INSTALL_HINT = "run `bash .ci/setup` (it runs `npm ci` in host/botboard/bench/wasm; needs node >= 18)"
_SETUP = """
import sys
sys.path.insert(0, "/lib")
sys.path.insert(0, "/lib/bbfw/sim/rp2stubs")
from bbfw.sim import heap32
_step = heap32.Run("/cfg/board.json", %d).step
"""


class Heap32Unavailable(RuntimeError):
    """node or the webassembly MicroPython package is missing."""


def node() -> str:
    exe = shutil.which("node")
    if exe is None:
        raise Heap32Unavailable("node is not installed: the 32-bit heap figures need it; "
                                "install Node.js (Debian: apt-get install nodejs), then "
                                + INSTALL_HINT)
    if not (PACKAGE / "package.json").exists():
        raise Heap32Unavailable("the MicroPython webassembly port is not installed: " + INSTALL_HINT)
    return exe


def run_wasm(code: str, heap_bytes: int, dirs: list[tuple[Path, str]] | None = None,
             step: str | None = None, timeout: float = 300) -> tuple[list[str], dict[str, Any]]:
    """Run code (then step() until false) in the 32-bit port: (printed lines, heap report)."""
    spec = {"heapsize": heap_bytes, "dirs": [[str(src), dest] for src, dest in dirs or []],
            "code": code, "step": step}
    proc = patience.run([node(), str(SCRIPT)], "the webassembly MicroPython", timeout,
                        input=json.dumps(spec), cwd=WASM)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"the webassembly MicroPython failed: {proc.stderr.strip()[-600:]}")
    report: dict[str, Any] = json.loads(lines[-1])
    report["grew"] = report["heap_total_end"] > report["heap_total_start"]
    return lines[:-1], report


def run_board(build: firmware_build.Build, config: str, heap_bytes: int,
              loops: int) -> dict[str, Any]:
    """One run of the workload; the harness's figures plus whether the heap had to grow."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(config, Path(tmp) / "board.json")
        lines, report = run_wasm(_SETUP % loops, heap_bytes,
                                 [(build.directory, "/lib"), (Path(tmp), "/cfg")], step="_step")
    if report["error"] or not lines:
        raise RuntimeError(f"the 32-bit heap run failed: {report['error']}")
    result: dict[str, Any] = json.loads(lines[-1])
    result["fits"] = result["ok"] and not report["grew"]
    return result


def peak_bytes(build: firmware_build.Build, config: str, loops: int, low_k: int = 32,
               high_k: int = 256, step_k: int = 1) -> int:
    """Smallest heap (bytes, a multiple of step_k KB) in which the workload runs without growing."""
    if not run_board(build, config, high_k * 1024, loops)["fits"]:
        raise RuntimeError(f"the 32-bit workload does not fit {high_k} KB")
    while high_k - low_k > step_k:
        mid = (low_k + high_k) // 2
        if run_board(build, config, mid * 1024, loops)["fits"]:
            high_k = mid
        else:
            low_k = mid
    return high_k * 1024


def figures(config: str, loops: int = 2, bisect: bool = True) -> dict[str, Any]:
    """32-bit heap figures of the board described by config (a board.json path)."""
    build = firmware_build.build()
    run = run_board(build, config, 256 * 1024, loops)
    heap = run["heap"]
    sim = heap["sim_only"]
    peak = peak_bytes(build, config, loops) if bisect else None
    return {
        "port": "MicroPython webassembly port (32-bit), npm "
                "@micropython/micropython-webassembly-pyscript " + _package_version(),
        "heap_peak_bytes": peak - sim if peak else None,
        "heap_peak_total_bytes": peak,
        "heap_high_water_bytes": heap["high_water_board_only"],
        "heap_high_water_stage": run["high_water_stage"],
        "heap_steady_bytes": heap["steady_board_only"],
        "heap_sim_only_bytes": sim,
        "heap_by_stage": heap,
        "slots_with_tiles": run["slots"], "scan_loops": run["loops"], "polls": run["polls"],
    }


def _package_version() -> str:
    data: dict[str, Any] = json.loads((PACKAGE / "package.json").read_text())
    return str(data["version"])

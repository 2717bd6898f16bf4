"""What only the chip can show, measured on the emulated Pico (``botboard bench firmware --chip rp2040``).

Every time here is emulated time on the RP2040 at 125 MHz, read from the emulator's clock,
never the host's: the figures do not move with the host's load.

- ``heap_free_at_hello``: ``gc.mem_free()`` on the rp2 port's own heap once the firmware is
  up (its HELLO); ``heap_free_busy``: the lowest the board reported while it drew a busy scene
- ``tag_to_event_ms``: a tile laid on a slot until the SLOT frame left on the USB
- ``button_to_event_ms``: a key down until its BUTTON frame left
- ``command_to_frame_ms``: a SET_CELLS reaching the Pico's USB until the first frame that
  shows it latched in the LEDs (the board's share of confirm -> first frame)
- ``led_frames_per_s``: frames the LED pins carried while every cell blinked or pulsed
- ``watchdog_gap_max_ms``, ``matrix_scan_gap_max_ms``: the longest the firmware went without
  feeding the watchdog, and without scanning the button matrix (``gaps_by_phase``: from boot
  to the end of the session's census, while tiles and keys were measured, while every cell was
  animated); the feeder runs every
  500 ms, against the RP2040 watchdog's 8.3 s at most
- ``calibration_loop_us``: the loop every priced figure is scaled by, on a blank Pico's REPL
  (bench/firmware.py PICO_LOOP_US is this figure)
- ``ws2812``: the shortest and longest of each bit time on the data pins, and any that leaves
  a part's window (waveform.py)
"""

from __future__ import annotations

import ast
import asyncio
import json
import socket
import statistics
import subprocess
import time
from typing import Any

from bbshared import messages as m
from bbshared import tilepayload as tp
from bbshared.frame import Deframer

import serial

from ..board import deploy, layouts
from ..resources import ROOT
from ..link.connection import BoardConnection
from ..link.image import BoardImage, CellState
from . import waveform
from .board import ChipBoard

BUSY_EMULATED_S = 3.0  # how long the busy scene runs, on the Pico's clock
SAMPLES = 3  # tiles laid (each on its own slot), keys pressed


class Control:
    """The emulated Pico's control socket, one request at a time."""

    def __init__(self, port: int, patience_s: float) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=patience_s)
        self.lines = self.sock.makefile("rwb")

    def __call__(self, op: str, **fields: Any) -> dict[str, Any]:
        self.lines.write((json.dumps({"op": op, **fields}) + "\n").encode())
        self.lines.flush()
        reply: dict[str, Any] = json.loads(self.lines.readline())
        if not reply.get("ok"):
            raise RuntimeError(f"the emulated Pico refused {op}: {reply.get('error')}")
        return reply

    def close(self) -> None:
        self.sock.close()


def first_frame_after(ctl: Control, since_us: int, wanted: Any, patience_s: float) -> int:
    """The emulated time (us) the first frame the board sent after since_us for which
    wanted(type, payload) holds left the USB."""
    deadline = time.monotonic() + patience_s
    while time.monotonic() < deadline:
        found: list[int] = []
        for at, chunk in ctl("sent", since_us=since_us)["sent"]:
            Deframer(lambda v, t, seq, flags, payload, at=at: found.append(at)
                     if wanted(t, bytes(payload)) else None, lambda reason: None).feed(bytes.fromhex(chunk))
            if found:
                return found[0]
        time.sleep(0.05)
    raise RuntimeError(f"the emulated Pico sent no such frame within {patience_s:.0f} s")


async def _until(predicate: Any, patience_s: float, what: str) -> Any:
    """predicate()'s first true value, looked at every 50 ms for patience_s at most."""
    deadline = time.monotonic() + patience_s
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} within {patience_s:.0f} s")
        await asyncio.sleep(0.05)
    return value


async def _session_settled(conn: BoardConnection, patience_s: float) -> None:
    """Until the board's census is over (CENSUS_DONE) and the host's resync acknowledged: a
    session's start loads census.py from flash, and a tile laid meanwhile waits for it."""
    await _until(lambda: any(msg.type == m.CENSUS_DONE for msg in conn.trace) and conn.link.pending == 0,
                 patience_s, "the emulated Pico's census did not end")


def _slower(ctl: Control, since: dict[str, Any]) -> float:
    """How many times slower than a Pico the emulated one ran since `since` (a stats answer)."""
    now = ctl("stats")
    emulated_us = now["emulated_us"] - since["emulated_us"]
    host_ms = now["host_ms"] - since["host_ms"]
    return max(ChipBoard.SLOWER, host_ms * 1000 / emulated_us) if emulated_us > 0 else ChipBoard.SLOWER


async def _pace(conn: BoardConnection, ctl: Control) -> None:
    """The host's pings, counters requests and HELLO retries as a Pico gets them on its own
    clock, however loaded this machine (BoardConnection.patience): at a fixed patience a
    loaded host's requests, several times as many per emulated second, were in the figures."""
    while True:
        since = ctl("stats")
        await asyncio.sleep(1.0)
        conn.patience = _slower(ctl, since)


async def measure(layout_name: str, patience_s: float) -> dict[str, Any]:
    layout = layouts.load(layout_name)
    board = ChipBoard(layout.id)
    board.start()
    ctl = Control(board.control_port, patience_s)
    since = ctl("stats")
    await asyncio.sleep(1.0)
    conn = BoardConnection(board.port, BoardImage.blank(len(layout.cells)), patience=_slower(ctl, since))
    link = asyncio.create_task(conn.run())
    pace = asyncio.create_task(_pace(conn, ctl))
    try:
        await _until(lambda: conn.state == "connected", patience_s, "no session with the emulated Pico")
        assert conn.info is not None
        heap_at_hello = conn.info.heap_free
        await _session_settled(conn, patience_s)
        gaps = {"boot_and_session_start": _gaps(ctl)}
        tag = _tag_to_event(ctl, layout, patience_s)
        key = _button_to_event(ctl, patience_s)
        frame = await _command_to_frame(conn, ctl, layout, patience_s)
        gaps["tags_and_keys"] = _gaps(ctl)
        busy = await _busy_scene(conn, ctl, layout, patience_s)
        gaps["every_cell_animated"] = _gaps(ctl)
        stats = ctl("stats")
    finally:
        pace.cancel()
        link.cancel()
        conn.close()
        ctl.close()
        board.stop()
    timing = stats["ws2812"]
    return {
        "layout": layout.id, "clock_mhz": 125,
        "heap_free_at_hello": heap_at_hello, "heap_free_busy": busy["heap_free_min"],
        "tag_to_event_ms": tag, "button_to_event_ms": key, "command_to_frame_ms": frame,
        "led_frames_per_s": busy["frames_per_s"],
        "watchdog_gap_max_ms": max(g["watchdog_gap_max_ms"] for g in gaps.values()),
        "matrix_scan_gap_max_ms": max(g["matrix_scan_gap_max_ms"] for g in gaps.values()),
        "gaps_by_phase": gaps,
        "ws2812": {"times_ns": timing, "outside_windows": waveform.violations(timing)},
        "emulated_s_per_host_s": round(stats["emulated_us"] / 1e3 / stats["host_ms"], 3),
        "resets": stats["resets"],
    }


def calibration_loop_us(patience_s: float) -> int:
    """The priced figures' calibration loop (bbfw/sim/bench_figures.py ``_calibration``), run on
    a blank emulated Pico's REPL with the real mpremote: the RP2040's side of the price."""
    path = ROOT / "firmware" / "bbfw" / "sim" / "bench_figures.py"
    source = path.read_text()
    loop = next(node for node in ast.parse(source).body
                if isinstance(node, ast.FunctionDef) and node.name == "_calibration")
    code = f"import time\n{ast.get_source_segment(source, loop)}\nprint(_calibration())\n"
    board = ChipBoard(deployed=False)
    board.start()
    try:
        _repl_up(board.port, patience_s)
        done = subprocess.run([deploy.mpremote(), "connect", board.port, "exec", code],
                              capture_output=True, text=True, timeout=patience_s)
    finally:
        board.stop()
    if done.returncode:
        raise RuntimeError(f"the calibration loop failed on the emulated Pico: {done.stderr.strip()}")
    return int(done.stdout.split()[-1])


def _repl_up(port: str, patience_s: float) -> None:
    # a blank Pico's _boot.py may still be making its filesystem: mpremote's Ctrl-C would stop it
    deadline = time.monotonic() + patience_s
    with serial.Serial(port, 115200, timeout=0.2) as ser:
        seen = b""
        while b">>> " not in seen:
            if time.monotonic() > deadline:
                raise RuntimeError(f"no REPL prompt from the blank emulated Pico within {patience_s:.0f} s")
            ser.write(b"\r")
            seen += ser.read(256)


def _gaps(ctl: Control) -> dict[str, float]:
    """The longest watchdog and matrix-scan gaps since the last call (then measured afresh)."""
    stats = ctl("stats", peaks="reset")
    return {"watchdog_gap_max_ms": round(stats["watchdog_gap_max_us"] / 1000, 1),
            "matrix_scan_gap_max_ms": round(stats["matrix_gap_max_us"] / 1000, 1)}


def _spread(values: list[float]) -> dict[str, float]:
    return {"min": round(min(values), 1), "median": round(statistics.median(values), 1),
            "max": round(max(values), 1)}


def _tag_to_event(ctl: Control, layout: layouts.Layout, patience_s: float) -> dict[str, float]:
    times = []
    for k in range(SAMPLES):
        slot = (k * 7) % layout.slot_count
        payload = bytes(tp.encode(1, 3, 1, 100 + k))
        placed = ctl("place", slot=slot, uid=f"04a1b2c3d4e5{k:02x}", payload=payload.hex())["emulated_us"]
        left = first_frame_after(ctl, placed, lambda t, p, s=slot: t == m.SLOT and p[0] == s and p[1] == 1,
                                 patience_s)
        times.append((left - placed) / 1000)
        ctl("remove", slot=slot)
    return _spread(times)


def _button_to_event(ctl: Control, patience_s: float) -> dict[str, float]:
    times = []
    for k in range(SAMPLES):
        pressed = ctl("button", button=k, action="click")["emulated_us"]
        left = first_frame_after(ctl, pressed, lambda t, p, b=k: t == m.BUTTON and p[0] == b and p[1] == m.PRESS,
                                 patience_s)
        times.append((left - pressed) / 1000)
    return _spread(times)


async def _command_to_frame(conn: BoardConnection, ctl: Control, layout: layouts.Layout,
                            patience_s: float) -> dict[str, float]:
    """From a SET_CELLS reaching the Pico's USB to the first frame that shows it on the LEDs:
    the board's share of confirm -> first frame (the host's share is its own bench)."""
    lpc = layout.board_config()["leds_per_cell"]
    times = []
    for k in range(SAMPLES):
        cell = (k * 11) % len(layout.cells)
        ctl("watch_led", led=cell * lpc)  # the cell's centre LED: cells lie in order on the chains
        conn.set_cells({cell: CellState(2 + k % 6, effect=m.SOLID)})
        seen = await _until(lambda: (w := ctl("watched"))["shown_us"] is not None and w, patience_s,
                            f"cell {cell} was not shown")
        times.append((seen["shown_us"] - seen["arrived_us"]) / 1000)
    return _spread(times)


async def _busy_scene(conn: BoardConnection, ctl: Control, layout: layouts.Layout,
                      patience_s: float) -> dict[str, Any]:
    """Every cell lit, half blinking and half pulsing, with facings: the renderer's worst."""
    cells = {i: CellState(2 + i % 6, facing=i % 6, effect=m.BLINK if i % 2 else m.PULSE)
             for i in range(len(layout.cells))}
    conn.set_cells(cells)
    first = ctl("stats")
    start_frames, start_us = _frames(ctl), first["emulated_us"]
    heap = []
    deadline = time.monotonic() + patience_s
    while ctl("stats")["emulated_us"] - start_us < BUSY_EMULATED_S * 1e6:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the busy scene did not run {BUSY_EMULATED_S} emulated s "
                               f"within {patience_s:.0f} s")
        if conn.board_heap_free is not None:
            heap.append(conn.board_heap_free)
        await asyncio.sleep(0.2)
    end = ctl("stats")["emulated_us"]
    frames = _frames(ctl) - start_frames
    return {"frames_per_s": round(frames / ((end - start_us) / 1e6), 1),
            "heap_free_min": min(heap) if heap else None}


def _frames(ctl: Control) -> int:
    return int(ctl("leds")["frames"])

"""Firmware figures: heap, allocation per loop, event counts, tag latency, frame rate.

Runs the real firmware (precompiled as deploy puts it on the board) in the
MicroPython unix port (firmware/bbfw/sim/bench.py) and converts what it counts
into time on the reference hardware: SPI at 10 Mbit/s, ISO 14443-A at 106
kbit/s, WS2812 at 33.4 us per LED (every bit a 1), the link at 115200 baud or USB full speed.
Interpreter time on the Pico is the time measured here scaled by a calibration
loop (the Pico's time for it is an assumption until measured on a board: see
docs/benchmarks.md). The unix port's heap peak is the smallest ``-X heapsize``
in which the workload still runs, found by bisection; it is 64-bit, so the
figures that stand for the Pico come from the 32-bit webassembly port
(heap32.py), measured the same way.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .. import patience
from ..board import firmware_build, layouts
from ..board.sim import micropython_binary
from . import scan_trace as st
from . import scan_worst as sw
from . import heap32
from ..cli import values

SPI_US_PER_BYTE = 0.8  # 10 Mbit/s
RF_US_PER_BIT = 9.44  # 106 kbit/s
RF_PARITY = 9 / 8  # a parity bit after every byte on the air
FDT_US = 86  # tag answer delay after a frame (ISO/IEC 14443-3, 1172/fc)
# the driver's timer when no tag answers a READ or FAST_READ, and a REQA or WUPA (ISO/IEC
# 14443-3 fixes its answer's delay): reload + 1 ticks of 25 us (mfrc522.py _TICKS_SHORT,
# ntag_reader.py _TICKS_ISO; MFRC522 data sheet 8.5)
NO_ANSWER_US = 21 * 25
REQUEST_NO_ANSWER_US = 7 * 25
WS2812_NS_PER_LED = 24 * 1392  # 24 bits of at most 1392 ns (firmware ledchain.BIT_NS)
WS2812_LATCH_US = 300
UART_US_PER_BYTE = 10 / 115200 * 1e6
USB_FRAME_US = 1000  # full speed: a CDC packet waits for the next 1 ms frame at worst
# Time of the calibration loop (bench.py _calibration: 200,000 iterations of
# `x += i & 7`) on the boards. RP2040: measured on MicroPython v1.28.0's own rp2
# build in the emulated RP2040 at 125 MHz (`bench firmware --chip rp2040`,
# calibration_loop_us; docs/benchmarks.md), about 730 cycles an iteration; the
# emulator counts no flash wait states, so a real Pico is as fast or slower (the
# 480,000 assumed before it was measured was 2.4 times too quick). RP2350 (no
# emulator): that figure over 1.9, how much faster MicroPython runs on it at 150 MHz.
PICO_LOOP_US = 1_166_410
PICO2_LOOP_US = 614_000
# The unix port's heap for these runs: 64-bit objects plus the chip models of
# 36 readers and the harness no longer fit 160 KB on the big arena (MemoryError
# in the load run since the firmware grew); the Pico's figures are the 32-bit ones.
UNIX_HEAP_K = 256
HEAP_TARGET_BYTES = 88 * 1024  # what the firmware may use of the Pico's heap (issue 29; docs/firmware.md)
# firmware constants the worst case depends on (firmware/bbfw/app.py)
FRAME_MS = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--layout", default="ttb-big", help="layout to measure (default ttb-big)")
    parser.add_argument("--iterations", type=values.COUNT, default=10000,
                        help="main-loop iterations for the allocation count (default 10000)")
    parser.add_argument("--pico-loop-us", type=values.number(0.001, 10**6), default=PICO_LOOP_US,
                        help="the RP2040's time for the calibration loop, if measured")
    parser.add_argument("--pico2-loop-us", type=values.number(0.001, 10**6), default=PICO2_LOOP_US,
                        help="the RP2350's time for the calibration loop, if measured")
    parser.add_argument("--no-bisect", action="store_true", help="skip the heap-peak searches")
    parser.add_argument("--quick", action="store_true",
                        help="rough interpreter times in seconds (one run of a tenth of the calls, "
                        "a third of the poll order recorded), for checking the bench itself; the "
                        "allocation and byte counts are exact")
    parser.add_argument("--no-heap32", action="store_true",
                        help="skip the 32-bit (webassembly port) heap figures")
    parser.add_argument("--chip", choices=["rp2040"], default=None,
                        help="also measure on the emulated Pico (MicroPython's own rp2 build in "
                        "rp2040js): heap, tag and key to event, LED frames, watchdog and matrix "
                        "gaps, the WS2812 waveform, beside the priced figures (chip/figures.py)")
    parser.add_argument("--scan-loops", type=values.COUNT, default=2,
                        help="full scans of the slots in the 32-bit heap run (default 2)")


def _mpy(build: firmware_build.Build, heap_k: int, *args: str) -> dict[str, Any] | None:
    proc = patience.run(
        [micropython_binary(), "-X", f"heapsize={heap_k}K", "-m", "bbfw.sim.bench", *args],
        f"the MicroPython bench ({' '.join(args)}, {heap_k} KB)", 300, stdin=subprocess.DEVNULL,
        env={"MICROPYPATH": f"{build.directory}:.frozen", "PATH": "/usr/bin:/bin"})
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        return None
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def heap_peak_k(build: firmware_build.Build, config: str, high: int = UNIX_HEAP_K) -> int:
    """Smallest heap (KB) in which the load workload completes."""
    low = 32
    if not (_mpy(build, high, config, "load") or {}).get("ok"):
        raise RuntimeError(f"the workload does not run in {high} KB")
    while high - low > 1:
        mid = (low + high) // 2
        if (_mpy(build, mid, config, "load") or {}).get("ok"):
            high = mid
        else:
            low = mid
    return high


def heap_32bit(args: argparse.Namespace, config: str) -> dict[str, Any]:
    """The Pico-sized figures (32-bit port), with the margin under the target."""
    if getattr(args, "no_heap32", False):
        return {"skipped": "--no-heap32"}
    try:
        fig = heap32.figures(config, getattr(args, "scan_loops", 2), bisect=not args.no_bisect)
    except heap32.Heap32Unavailable as err:
        print(f"botboard bench firmware: no 32-bit heap figures: {err}", file=sys.stderr)
        return {"unavailable": str(err)}
    worst = fig["heap_peak_bytes"] or fig["heap_high_water_bytes"]
    fig["heap_target_bytes"] = HEAP_TARGET_BYTES
    fig["heap_margin_bytes"] = HEAP_TARGET_BYTES - worst
    return fig


def hw_us(count: dict[str, int], timeouts: int = 0, silent: int = 0, requests: int = 0) -> float:
    """Bus and air time of an operation from its SPI bytes and RF bits.

    ``timeouts``: READ / FAST_READ frames no tag answered, each waiting out the
    driver's timer; ``requests``: REQA / WUPA frames no tag answered (a shorter
    timer); ``silent``: frames that expect no answer (HLTA), sent without waiting.
    """
    air = (count["rf_tx_bits"] + count["rf_rx_bits"]) * RF_PARITY * RF_US_PER_BIT
    answered = count["rf_frames"] - timeouts - silent - requests
    return (count["spi_bytes"] * SPI_US_PER_BYTE + air + answered * FDT_US + timeouts * NO_ANSWER_US
            + requests * REQUEST_NO_ANSWER_US)


def op_costs(fig: dict[str, Any], counts: dict[str, Any], k: float, link_us: float) -> dict[str, float]:
    """Time (us) of each scanner operation on a board k times slower than here.

    Hardware time from the operation's SPI bytes and RF bits (the same on any
    board); interpreter time is the reader bank's and the driver's as the Pico
    wires them (bench_figures._driver_times), plus the scanner's bookkeeping,
    scaled by k (the calibration loop).
    """
    drv = counts["driver_us"]
    ovh = counts["scanner_overhead_us"]
    t = fig["time_us"]
    return {
        sw.EMPTY_POLL: hw_us(counts["empty_slot_poll"], requests=1) + (drv["empty_poll"] + ovh) * k,
        sw.PRESENT_POLL: hw_us(counts["present_tag_poll"]) + (drv["present_poll"] + ovh) * k,
        sw.RECHECK_POLL: hw_us(counts["tag_recheck_poll"], silent=1) + (drv["recheck"] + ovh) * k,
        sw.GONE_POLL: hw_us(counts["tag_gone_poll"], timeouts=1, requests=1) + (drv["gone"] + ovh) * k,
        sw.TAG_SELECT: hw_us(counts["tag_select"]) + (drv["arrival_select"] + ovh) * k,
        sw.TAG_RESELECT: hw_us(counts["tag_reselect"], requests=1) + (drv["reselect"] + ovh) * k,
        # the confirming read, and the scanner's part of an arrival (its UID checked
        # against the other slots')
        sw.PAYLOAD_READ: hw_us(counts["payload_read"])
        + (drv["payload_read_and_crc"] + counts["scanner_arrival_extra_us"]) * k,
        # the matrix scan every 8 ms and a frame every 20 ms: both, worst case
        sw.OTHER_TASKS: (t["render_frame_all_animated"] + counts["buttons_scan_us"]
                         + t["link_step_idle"]) * k,
        sw.SLOT_EVENT: t["slot_event_send"] * k + link_us,
        # a reader's carrier switched (field groups): two register accesses
        st.FIELD_ON: hw_us(counts["field_switch"]) + drv["field_switch"] * k,
        st.FIELD_OFF: hw_us(counts["field_switch"]) + drv["field_switch"] * k,
    }


def schedule_costs(fig: dict[str, Any], counts: dict[str, Any], k: float,
                   link_us: float, key_held: bool = False) -> dict[str, float]:
    """op_costs under the field groups: a step's field plans and rotations (beyond its
    polls' bookkeeping, which each poll carries) priced once a step, with the other tasks
    that mark the step's end in the recorded trace; with key_held, every matrix scan is
    one with a button held down (row by row) instead of an idle matrix's one look."""
    cost = op_costs(fig, counts, k, link_us)
    cost[sw.OTHER_TASKS] += counts["zoned_step_extra_us"] * k
    if key_held:
        cost[sw.OTHER_TASKS] += (counts["buttons_scan_held_us"] - counts["buttons_scan_us"]) * k
    return cost


def worst_case(fig: dict[str, Any], counts: dict[str, Any], k: float, link_us: float) -> dict[str, Any]:
    """Worst tag-to-event time (ms) per game phase, and the frame rate, on a board
    k times slower than here (the formula: bench/scan_worst.py)."""
    cost = op_costs(fig, counts, k, link_us)
    ms = {p.name: round(sw.worst_us(p, cost) / 1000, 2) for p in sw.PHASES}
    # a step in the middle of a game: the station's empty slots twice (step and
    # watch pass), a tile check, the other tasks; its worst, a recheck and a
    # tile landing in another station
    looks = 2 * sw.STATION_SLOTS * cost[sw.EMPTY_POLL]
    steady_step = looks + cost[sw.PRESENT_POLL] + cost[sw.OTHER_TASKS]
    worst_step = looks + cost[sw.RECHECK_POLL] + cost[sw.OTHER_TASKS]
    arrival = cost[sw.TAG_SELECT] + cost[sw.PAYLOAD_READ]
    wire = fig["longest_chain_leds"] * WS2812_NS_PER_LED / 1000 + WS2812_LATCH_US
    frame_us = max(FRAME_MS * 1000, wire, steady_step)
    return {"tag_to_event_ms_worst": max(ms.values()),
            "tag_to_event_ms_by_phase": ms,
            "worst_case_ops_by_phase": {p.name: sw.worst_ops(p, cost) for p in sw.PHASES},
            "op_ms": {op: round(us / 1000, 3) for op, us in cost.items()},
            "other_arrival_ms": round(arrival / 1000, 2),
            "steady_input_step_ms": round(steady_step / 1000, 2),
            "frame_rate_fps": round(1e6 / frame_us, 1),
            "frame_delay_ms_worst": round((worst_step + arrival) / 1000, 2)}


TRACE_STEPS = 120  # input steps recorded per phase: every slot looked at several times
QUICK_TRACE_STEPS = 40  # --quick: each slot still looked at more than once, the worst less sought


def traces(build: firmware_build.Build, config: str, slots: int,
           steps: int = TRACE_STEPS) -> dict[str, list[tuple[str, int]]]:
    """The firmware's recorded operations in each phase (scan_trace.py), as deployed."""
    def run_code(code: str, heap: str) -> str:
        proc = patience.run(
            [micropython_binary(), "-X", f"heapsize={heap}", "-c", code],
            "the poll-order recording in MicroPython", 300, stdin=subprocess.DEVNULL,
            env={"MICROPYPATH": f"{build.directory}:.frozen", "PATH": "/usr/bin:/bin"})
        if proc.returncode != 0:
            raise RuntimeError(f"the poll-order recording failed in MicroPython: {proc.stdout[-500:]}")
        return proc.stdout
    return {p.name: st.record(run_code, config, p, steps, slots=slots) for p in sw.PHASES}


def scheduled(recorded: dict[str, list[tuple[str, int]]], slots: int,
              cost: dict[str, float]) -> dict[str, Any]:
    """Tag to event (ms) from the recorded poll order: the acting station's empty slots in
    every phase, and any other slot (the idle phase, where the others are empty)."""
    def counted(ops: list[st.Op]) -> dict[str, int]:
        kinds = [kind for kind, _ in ops]
        return {k: kinds.count(k) for k in sorted(set(kinds))}

    acting, acting_ops = {}, {}
    for phase in sw.PHASES:
        us, (_, _, ops) = st.worst(recorded[phase.name], st.STATION[phase.station_tiles:], cost)
        acting[phase.name] = round(us / 1000, 2)
        acting_ops[phase.name] = counted(ops)
    others = range(sw.STATION_SLOTS, slots)
    any_us, (_, slot, ops) = st.worst(recorded["idle"], others, cost)
    return {"acting_ms": max(acting.values()), "acting_ms_by_phase": acting,
            "acting_ops_by_phase": acting_ops,
            "any_slot_ms": round(any_us / 1000, 2), "any_slot_worst": slot,
            "any_slot_ops": counted(ops)}


def run(args: argparse.Namespace) -> dict[str, Any]:
    figures = _priced(args)
    if getattr(args, "chip", None):
        from ..chip import figures as chip_figures
        from ..patience import load_factor

        # the emulated Pico's own clock times it; the host's patience only bounds the wait
        patience_s = 600 * load_factor()
        figures["chip_rp2040"] = asyncio.run(chip_figures.measure(args.layout, patience_s))
        figures["chip_rp2040"]["calibration_loop_us"] = chip_figures.calibration_loop_us(patience_s)
    return figures


def _priced(args: argparse.Namespace) -> dict[str, Any]:
    layout = layouts.load(args.layout)
    build = firmware_build.build()
    with tempfile.TemporaryDirectory() as tmp:
        config = str(Path(tmp) / "board.json")
        Path(config).write_text(json.dumps(layout.board_config()))
        mode = "quick" if getattr(args, "quick", False) else "figures"
        fig = _mpy(build, UNIX_HEAP_K, config, mode, str(args.iterations))
        counts_run = _mpy(build, UNIX_HEAP_K, config, "counts")
        if fig is None or counts_run is None:
            raise RuntimeError("the firmware benchmark failed in MicroPython")
        peak = None if args.no_bisect else heap_peak_k(build, config) * 1024
        pico_heap = heap_32bit(args, config)
        steps = QUICK_TRACE_STEPS if mode == "quick" else TRACE_STEPS
        recorded = traces(build, config, layout.slot_count, steps) if "fields" in layout.board_config() else None
    counts = counts_run["counts"]
    loop_us = counts_run["calibration_loop_us"]
    fig["longest_chain_leds"] = max(c["cells"] for c in layout.chains) * layout.leds_per_cell
    mem = fig["memory"]
    sim_only = mem["imports_sim_only"]
    arrival_bytes = counts["link_bytes_slot_arrival"]
    pico = worst_case(fig, counts, args.pico_loop_us / loop_us, USB_FRAME_US)
    pico_uart = worst_case(fig, counts, args.pico_loop_us / loop_us,
                           arrival_bytes * UART_US_PER_BYTE)
    pico2 = worst_case(fig, counts, args.pico2_loop_us / loop_us, USB_FRAME_US)
    leds = layout.led_count
    fields: dict[str, Any] = {"skipped": "the layout gives no slot places: every field stays on"}
    if recorded is not None:
        def on(loop: float) -> dict[str, Any]:
            k = loop / loop_us
            out = scheduled(recorded, layout.slot_count, schedule_costs(fig, counts, k, USB_FRAME_US))
            held = scheduled(recorded, layout.slot_count,
                             schedule_costs(fig, counts, k, USB_FRAME_US, key_held=True))
            out["with_a_key_held"] = {"acting_ms": held["acting_ms"], "any_slot_ms": held["any_slot_ms"]}
            return out
        fields = {
            "rp2040": on(args.pico_loop_us),
            "rp2350": on(args.pico2_loop_us),
            "note": "the firmware's own poll order under its field groups, recorded in the simulated "
                    "board (bench/scan_trace.py) and priced with op_ms, a step's field plans "
                    "(zoned_step_extra_us) with its other tasks; the guard time (5.1 ms after a zone's "
                    "field comes on) included where other work does not cover it; with_a_key_held: "
                    "every button scan in the wait a held key's (row by row)"}
    return {
        "layout": layout.id, "leds": leds, "slots": layout.slot_count,
        # the Pico's figures: 32-bit port, board only (docs/benchmarks.md)
        "heap_peak_bytes_32bit": pico_heap.get("heap_peak_bytes"),
        "heap_steady_bytes_32bit": pico_heap.get("heap_steady_bytes"),
        "heap_margin_bytes_32bit": pico_heap.get("heap_margin_bytes"),
        "heap_32bit": pico_heap,
        # the simulated board's own: 64-bit unix port
        "heap_peak_bytes_64bit": peak,
        "heap_note_64bit": "smallest -X heapsize in which boot, a session, 12 tags and every cell "
                           "animated run, on the 64-bit unix port, simulated chips included",
        "heap_steady_bytes_64bit": mem["steady_state_total"],
        "heap_sim_only_bytes_64bit": sim_only,
        "heap_peak_board_only_bytes_64bit": peak - sim_only if peak else None,
        "memory_by_stage_64bit": mem,
        "alloc_per_iteration_bytes": fig["alloc_per_iteration_bytes"],
        "iterations": fig["iterations"],
        # the reference board is the Pico 2 (hardware/README.md); the RP2040
        # Pico beside it, over USB and over a 115200 baud UART
        # under the field schedule (readers in groups: the layouts with slot places)
        "tag_to_event_ms_acting_rp2040": fields.get("rp2040", {}).get("acting_ms"),
        "tag_to_event_ms_acting_rp2350": fields.get("rp2350", {}).get("acting_ms"),
        "tag_to_event_ms_any_slot_rp2040": fields.get("rp2040", {}).get("any_slot_ms"),
        "tag_to_event_ms_any_slot_rp2350": fields.get("rp2350", {}).get("any_slot_ms"),
        "field_schedule": fields,
        # the formula for the scanner with every field on (bench/scan_worst.py)
        "tag_to_event_ms_worst": pico2["tag_to_event_ms_worst"],
        "tag_to_event_ms_worst_rp2040": pico["tag_to_event_ms_worst"],
        "tag_to_event_ms_worst_rp2040_uart_115200": pico_uart["tag_to_event_ms_worst"],
        "frame_rate_fps": min(pico["frame_rate_fps"], pico2["frame_rate_fps"]),
        "pico_rp2040": pico, "pico2_rp2350": pico2,
        "interpreter_slowdown": {"rp2040": round(args.pico_loop_us / loop_us, 1),
                                 "rp2350": round(args.pico2_loop_us / loop_us, 1),
                                 "calibration_loop_us_here": loop_us},
        "per_event": {
            "empty_slot_poll": _event(counts["empty_slot_poll"], 0, counts["driver_us"]["empty_poll"],
                                      requests=1),
            "present_tag_poll": _event(counts["present_tag_poll"], 0,
                                       counts["driver_us"]["present_poll"]),
            "tag_recheck_poll": _event(counts["tag_recheck_poll"], 0, counts["driver_us"]["recheck"],
                                       silent=1),
            "tag_gone_poll": _event(counts["tag_gone_poll"], 1, counts["driver_us"]["gone"],
                                    requests=1),
            "tag_arrival": _event(counts["tag_arrival"], 0,
                                  counts["driver_us"]["arrival_select"]
                                  + counts["driver_us"]["payload_read_and_crc"]),
            "link_bytes_slot_arrival": arrival_bytes,
            "link_bytes_slot_departure": counts["link_bytes_slot_departure"],
            "link_us_slot_arrival_uart_115200": round(arrival_bytes * UART_US_PER_BYTE),
            "link_us_slot_arrival_usb_worst": USB_FRAME_US,
            "led_bytes_per_frame": 3 * leds,
            "led_wire_ms_per_frame_one_chain": round(leds * WS2812_NS_PER_LED / 1e6, 2),
            "led_wire_ms_per_frame_parallel_chains": round(
                (fig["longest_chain_leds"] * WS2812_NS_PER_LED / 1000 + WS2812_LATCH_US) / 1000, 2),
            "render_frame_us_here": fig["time_us"]["render_frame_all_animated"],
            "input_step_us_here_with_chip_models": fig["time_us"]["input_step"],
            "buttons_scan_us_here": counts["buttons_scan_us"],
            "buttons_scan_key_held_us_here": counts["buttons_scan_held_us"],
            "zoned_step_extra_us_here": round(counts["zoned_step_extra_us"], 2),
        },
    }


def _event(count: dict[str, int], timeouts: int, interp_us: float, silent: int = 0,
           requests: int = 0) -> dict[str, Any]:
    return {**count, "spi_us": round(count["spi_bytes"] * SPI_US_PER_BYTE, 1),
            "bus_and_air_us": round(hw_us(count, timeouts, silent, requests), 1),
            "driver_interpreter_us_here": round(interp_us, 2)}

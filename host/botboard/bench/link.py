"""Link benchmark: round trip and throughput over the simulated board's pty.

Runs the real firmware in MicroPython behind a pseudo-terminal, unpaced and
paced like a 115200-baud UART, and measures from the host: PING/PONG round
trips, and how many reliable 2-cell updates per second get acknowledged.
Also counts the wire bytes of typical updates (exact, from the codec) and
converts them to UART time.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from bbshared import frame
from bbshared import messages as m

from ..link.connection import BoardConnection
from ..link.image import BoardImage, CellState, encode_sparse
from ..board.sim import SimBoard
from ..cli import values

UART_BAUD = 115200


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pings", type=values.COUNT, default=300, help="round trips to time per mode")
    p.add_argument("--updates", type=values.COUNT, default=1000, help="2-cell updates to send per mode")


def wire_bytes(mtype: int, payload: bytes) -> int:
    return len(frame.build(m.PROTOCOL_VERSION, mtype, 0, 0, payload))


def update_sizes(cells: int = 61) -> dict[str, int]:
    two = {0: CellState(2, 1, m.SOLID), 30: CellState(3, 4, m.BLINK)}
    every = {i: CellState(i % 16, i % 6, m.SOLID) for i in range(cells)}
    image = BoardImage.blank(cells)
    full = image.update(every)  # what the host really sends when every cell changes
    return {
        "bytes_update_2_cells": wire_bytes(m.SET_CELLS, encode_sparse(two)),
        "bytes_update_61_cells": sum(wire_bytes(t, p) for t, p in full),
        "bytes_ack": wire_bytes(m.ACK, b"\x00"),
        "bytes_slot_event": wire_bytes(m.SLOT, m.encode(m.SLOT, 3, 1, bytes(7), bytes(16))),
    }


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _measure(board: SimBoard, pings: int, updates: int) -> dict[str, Any]:
    conn = BoardConnection(board.port, BoardImage.blank(len(board.layout.cells)))
    await conn.connect()
    try:
        await asyncio.sleep(0.3)  # let the resync drain
        rtts = [await conn.ping(2.0) for _ in range(pings)]
        before = dict(conn.link.stats)
        started = time.perf_counter()
        for i in range(updates):
            cells = {i % 61: CellState(i % 16, i % 6, m.SOLID), (i + 30) % 61: CellState(3, 1, m.BLINK)}
            conn.send_raw(m.SET_CELLS, encode_sparse(cells))
        while conn.link.pending:
            conn.link.poll()
            await asyncio.sleep(0.001)
        elapsed = time.perf_counter() - started
        sent = conn.link.stats["bytes_out"] - before["bytes_out"]
        return {
            "rtt_ms_p50": round(statistics.median(rtts), 3),
            "rtt_ms_p99": round(_percentile(rtts, 0.99), 3),
            "frames_per_s": round(updates / elapsed, 1),
            "bytes_per_s": round(sent / elapsed, 1),
            "retransmits": conn.link.stats["retransmits"] - before["retransmits"],
        }
    finally:
        conn.close()


def _run_mode(baud: int | None, pings: int, updates: int) -> dict[str, Any]:
    board = SimBoard("ttb-small", baud=baud)
    board.start()
    try:
        return asyncio.run(_measure(board, pings, updates))
    finally:
        board.stop()


def run(args: argparse.Namespace) -> dict[str, Any]:
    sizes = update_sizes()
    unpaced = _run_mode(None, args.pings, args.updates)
    paced = _run_mode(UART_BAUD, max(50, args.pings // 3), max(100, args.updates // 5))
    uart_ms = {k.replace("bytes_", "uart_ms_"): round(v * 10 / UART_BAUD * 1000, 3)
               for k, v in sizes.items()}
    return {
        **unpaced, **sizes,
        "paced_115200": paced,
        "computed_at_115200": uart_ms,
        "notes": "rtt and throughput measured on this host through the simulated board "
                 "(MicroPython unix port, pty; paced = delayed like a 115200-baud 8N1 UART); "
                 "byte counts exact from the codec; uart_ms = bytes x 10 bits / 115200",
    }

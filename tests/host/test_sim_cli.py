"""`botboard sim` as a user runs it: a clean exit on SIGTERM, and --baud pacing."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest


from ..simboard import SimProcess
from .running import connected, numbered_lines, until
from ..patience import scaled, wait_for


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_sim_exits_with_status_0_on_sigterm_and_takes_the_firmware_with_it() -> None:
    sim = SimProcess()
    try:
        firmware = _children(sim.proc.pid)
        assert firmware and all(_alive(pid) for pid in firmware)  # the micropython process
        assert sim.control("stats")["heap_free"] > 0  # it runs
        sim.proc.send_signal(signal.SIGTERM)
        assert sim.proc.wait(scaled(15)) == 0
        wait_for(lambda: not any(_alive(pid) for pid in firmware), 5, "the firmware to end")
        with pytest.raises(ProcessLookupError):  # nothing at all left in the launcher's process group
            os.killpg(sim.proc.pid, 0)
    finally:
        sim.stop()


def test_baud_pacing_holds_the_link_to_the_uart_rate() -> None:
    baud = 9600  # 8N1: at most 960 bytes/s each way
    sim = SimProcess("--baud", str(baud))
    count = 250

    async def scenario() -> float:
        async with connected(sim.port, timeout=20) as conn:
            lines = numbered_lines(conn)
            before, started = conn.link.stats["bytes_in"], time.monotonic()
            sim.control("flood", count=count)
            await until(lambda: len(lines) >= count, timeout=60, what="the flood")
            elapsed = time.monotonic() - started
            moved = conn.link.stats["bytes_in"] - before
            assert lines == list(range(count))
            assert moved >= count * 10  # a LOG frame is at least 10 bytes on the wire
            return moved / elapsed

    try:
        rate = asyncio.run(scenario())
    finally:
        sim.stop()
    # generous: never faster than the UART (plus 20 % for timing slack), and
    # slower by far than the unpaced pty (tens of KB/s or more)
    assert rate <= baud / 10 * 1.2, f"{rate:.0f} bytes/s over a {baud} baud link"

"""10,000 messages each way over the real pty, 1% of bytes damaged: none lost or doubled."""

from __future__ import annotations

import asyncio
import signal
import zlib
from typing import Any

from bbshared import messages as m
from botboard.link.connection import BoardConnection

from ..simboard import SimProcess
from ..patience import aquiet
from .running import connected, numbered_lines, until

COUNT = 10_000
DAMAGE = "0.01"


def _connected_to_damaged_board(body: Any) -> None:
    sim = SimProcess("--damage", DAMAGE)

    async def scenario() -> None:
        async with connected(sim.port, timeout=20) as conn:
            await body(sim, conn)

    try:
        asyncio.run(scenario())
    finally:
        sim.stop()


def test_board_to_host_10000_events() -> None:
    async def body(sim: SimProcess, conn: BoardConnection) -> None:
        lines = numbered_lines(conn)
        sim.control("flood", count=COUNT)
        await until(lambda: len(lines) >= COUNT, timeout=240, what="all events")
        await aquiet(0.3)  # nothing doubled after the last
        assert lines == list(range(COUNT))  # none lost, none doubled, in order
        stats = conn.link.stats
        assert stats["crc_errors"] + stats["cobs_errors"] > 0  # the damage was real

    _connected_to_damaged_board(body)


def test_host_to_board_10000_commands() -> None:
    async def body(sim: SimProcess, conn: BoardConnection) -> None:
        check = 0
        for i in range(COUNT):
            payload = bytes((0, i % 61, i % 16, m.look(i % 6, m.SOLID)))
            check = (check * 31 + zlib.crc32(payload)) & 0xFFFFFFFF
            conn.send_raw(m.SET_CELLS, payload)
        await until(lambda: conn.link.pending == 0, timeout=240, what="all acknowledged")
        stats = sim.control("stats")
        assert stats["cell_updates"] == COUNT
        assert stats["cell_updates_check"] == check  # same messages, same order
        assert stats["link"]["crc_errors"] + stats["link"]["cobs_errors"] > 0

    _connected_to_damaged_board(body)


def test_5_percent_damage_stalls_and_a_cable_cut_lose_and_double_nothing(tmp_path: Any) -> None:
    # where Go-Back-N and whole-picture frames stopped: both ways, and across a
    # reconnect for what the board sends (what the host sends is resynced instead)
    # 300 lines and 300 updates each way: at 5 % of bytes damaged most frames are hit, so the
    # resends, the stalls and the cut are met hundreds of times (600 took twice as long for it)
    sim = SimProcess("--damage", "0.05", "--stall", "0.01", link=str(tmp_path / "tty"))
    count = 300

    async def scenario() -> None:
        async with connected(sim.port, timeout=30) as conn:
            lines = numbered_lines(conn)
            sim.control("flood", count=count)
            await until(lambda: len(lines) >= count // 3, 120, "a third of the lines")
            sim.proc.send_signal(signal.SIGUSR1)  # the cable pulled...
            await asyncio.sleep(1.0)  # pace: the cable out a while
            sim.proc.send_signal(signal.SIGUSR2)  # ...and put back
            await until(lambda: len(lines) >= count, 240, "every line")
            await aquiet(0.5)  # nothing doubled after the last
            assert lines == list(range(count))  # none lost, none doubled, in order
            assert conn.reconnects >= 1 and conn.status()["max_payload"] < 100  # frames shrank
            await _updates_arrive_once_in_order(sim, conn, count)

    try:
        asyncio.run(scenario())
    finally:
        sim.stop()


async def _updates_arrive_once_in_order(sim: SimProcess, conn: BoardConnection, count: int) -> None:
    """`count` raw updates sent on one connection reach the board once each, in order.

    What the host sends while the link is down is not queued but resynced (a whole picture)
    at the next handshake, so the claim is per connection: at 5 % damage with stalls the
    link may drop between or during the rounds, and a round it cut is played again.
    """
    for _ in range(5):
        await until(lambda: conn.state == "connected", 120, "the link back up")
        reconnects = conn.reconnects
        before = sim.control("stats")
        check = before["cell_updates_check"]
        for i in range(count):
            payload = bytes((0, i % 61, i % 16, m.look(i % 6, m.SOLID)))
            check = (check * 31 + zlib.crc32(payload)) & 0xFFFFFFFF
            conn.send_raw(m.SET_CELLS, payload)
        await until(lambda: conn.link.pending == 0, 240, "every update acknowledged")
        stats = sim.control("stats")
        if conn.reconnects != reconnects or conn.state != "connected":
            continue  # the link dropped during the round: what it cut was resynced, not resent
        assert stats["cell_updates"] - before["cell_updates"] == count
        assert stats["cell_updates_check"] == check  # the same updates, once, in order
        return
    raise AssertionError(f"the link dropped in each of 5 rounds of {count} updates: {conn.status()}")

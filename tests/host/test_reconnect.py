"""Exactly once across reconnects: lost ACKs and lost HELLOs around a reconnect,
between the real firmware (simulated board, real pty) and the real host link."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, AsyncIterator, Callable
from contextlib import asynccontextmanager

from bbshared import messages as m
from bbshared.frame import Deframer
from botboard.board import layouts
from botboard.link.connection import BoardConnection
from botboard.link.image import BoardImage
from botboard.session.host import make_session

from ..simboard import SimProcess
from ..patience import aquiet
from .running import until


@asynccontextmanager
async def running(conn: BoardConnection) -> AsyncIterator[BoardConnection]:
    task = asyncio.create_task(conn.run())
    try:
        await until(lambda: conn.state == "connected", 20, "the handshake")
        yield conn
    finally:
        task.cancel()
        conn.close()


def lose_outgoing(conn: BoardConnection, mtype: int) -> list[bool]:
    """While the returned switch holds True, frames of ``mtype`` the host sends are lost."""
    losing = [True]
    send = conn.link._write
    seen: list[int] = []
    look = Deframer(lambda v, t, seq, flags, payload: seen.append(t), lambda why: None)

    def write(data: bytes) -> None:
        seen.clear()
        look.feed(data)
        if not (losing[0] and mtype in seen):
            send(data)

    conn.link._write = write
    return losing


def lose_first_incoming(conn: BoardConnection, mtype: int) -> list[int]:
    """The first frame of ``mtype`` from the board is lost; the returned list counts it."""
    lost: list[int] = []
    take: Callable[..., None] = conn.link._deframer._on_frame

    def on_frame(version: int, t: int, seq: int, flags: int, payload: Any) -> None:
        if t == mtype and not lost:
            lost.append(t)
            return
        take(version, t, seq, flags, payload)

    conn.link._deframer._on_frame = on_frame
    return lost


def test_a_press_whose_ack_was_lost_is_not_delivered_again_after_a_reconnect() -> None:
    sim = SimProcess()

    async def scenario() -> None:
        conn = BoardConnection(sim.port, BoardImage.blank(61))
        async with running(conn):
            buttons: list[tuple[int, int]] = []
            conn.listeners.append(lambda msg: buttons.append((msg.fields["button"], msg.fields["action"]))
                                  if msg.type == m.BUTTON else None)
            losing = lose_outgoing(conn, m.ACK)
            sim.control("button", button=2)  # one click: a press, then a release
            await until(lambda: len(buttons) == 2, 10, "the click")
            await until(lambda: sim.control("stats")["link"]["retransmits"] > 0, 10,
                        "the board resending what it heard no ACK for")
            losing[0] = False
            before = conn.reconnects
            conn._port_lost("the test wiggled the cable")
            await until(lambda: conn.reconnects > before and conn.state == "connected", 20,
                        "the reconnect")
            assert await conn.ping() > 0
            await aquiet(0.5)  # time for anything resent to arrive
            assert buttons == [(2, m.PRESS), (2, m.RELEASE)]  # once each, not again
            sim.control("button", button=5)  # and the next press still comes through
            await until(lambda: len(buttons) == 4, 10, "the next click")
            assert buttons[2:] == [(5, m.PRESS), (5, m.RELEASE)]

    try:
        asyncio.run(scenario())
    finally:
        sim.stop()


def test_a_lost_hello_loses_nothing_of_the_census(tmp_path: Path) -> None:
    sim = SimProcess()
    placed = {3: "04a10000000003", 7: "04a10000000007", 12: "04a1000000000c"}
    for slot, uid in placed.items():
        sim.control("place", slot=slot, uid=uid)

    async def scenario() -> None:
        await until(lambda: sorted(sim.control("stats")["present"]) == sorted(placed), 20,
                    "the board to read the tags")
        conn = BoardConnection(sim.port, BoardImage.blank(61))
        lost = lose_first_incoming(conn, m.HELLO)
        session = make_session(layouts.load("ttb-small"), conn, tmp_path)
        async with running(conn):
            await until(lambda: session._census is None, 10, "the census")
            assert lost == [m.HELLO]  # the first answer was lost: the host asked again
            known = {slot: r.uid.hex() for slot, r in session.table.contents().items()}
            assert known == placed
            # a reconnect later: the census again says what is there, nothing more
            sim.control("remove", slot=7)
            before = conn.reconnects
            conn._port_lost("the test wiggled the cable")
            await until(lambda: conn.reconnects > before and conn.state == "connected", 20,
                        "the reconnect")
            await until(lambda: 7 not in session.table.contents(), 10, "the slot emptied")
            assert sorted(session.table.contents()) == [3, 12]

    try:
        asyncio.run(scenario())
    finally:
        sim.stop()

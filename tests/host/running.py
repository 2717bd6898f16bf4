"""Helpers for tests that drive a board through a real BoardConnection."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

from bbshared import messages as m

from .. import patience
from botboard.link.connection import BoardConnection
from botboard.link.image import BoardImage


async def until(predicate: Callable[[], Any], timeout: float = 10.0, what: Any = "") -> Any:
    """tests/patience.py's until (a deadline scaled by the machine's load)."""
    return await patience.until(predicate, timeout, what or predicate)


def numbered_lines(conn: BoardConnection) -> list[int]:
    """The numbers of the LOG lines the board sends from now on (the sim's flood op)."""
    lines: list[int] = []
    conn.listeners.append(lambda msg: lines.append(int(msg.fields["text"])) if msg.type == m.LOG else None)
    return lines


@asynccontextmanager
async def connected(port: str, cells: int = 61, timeout: float = 10.0) -> AsyncIterator[BoardConnection]:
    """A BoardConnection kept running (reconnecting as the daemon does), once connected."""
    conn = BoardConnection(port, BoardImage.blank(cells))
    task = asyncio.create_task(conn.run())
    try:
        await until(lambda: conn.state == "connected", timeout, "the handshake")
        yield conn
    finally:
        task.cancel()
        conn.close()

"""Helpers for tests that drive a board through a real BoardConnection."""

from __future__ import annotations

import asyncio
import time
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable

from botboard.link.connection import BoardConnection
from botboard.link.image import BoardImage


async def until(predicate: Callable[[], Any], timeout: float = 10.0, what: Any = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what() if callable(what) else what or predicate}")


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

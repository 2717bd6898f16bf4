"""Client of the simulated board's control socket (see firmware/bbfw/hal_sim.py).

The console and ``botboard selfplay`` use it to do what hands do at a real
table: put a tile in a slot, take it out, press a button, touch a cell; and
to read back what the LEDs show. One JSON object per line each way.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any


class SimControlError(RuntimeError):
    """The simulated board refused a request or is not reachable."""


class SimControl:
    """Async client; one request at a time (a lock keeps replies paired)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()

    async def request(self, op: str, **fields: Any) -> dict[str, Any]:
        async with self._lock:
            for attempt in range(2):  # once more after a reconnect (a restarted board)
                try:
                    if self._writer is None:
                        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
                    assert self._reader is not None
                    self._writer.write((json.dumps({"op": op, **fields}) + "\n").encode())
                    await self._writer.drain()
                    line = await self._reader.readline()
                    if not line:
                        raise ConnectionError("closed")
                    reply: dict[str, Any] = json.loads(line)
                    break
                except (OSError, ConnectionError) as err:
                    self.close()
                    if attempt:
                        raise SimControlError(f"the simulated board's control socket "
                                              f"{self.host}:{self.port} does not answer: {err}") from err
            if not reply.get("ok"):
                raise SimControlError(f"the simulated board refused {op}: {reply.get('error')}")
            return reply

    async def place(self, slot: int, uid: bytes, payload: bytes | None = None) -> None:
        await self.request("place", slot=slot, uid=uid.hex(), payload=payload.hex() if payload else None)

    async def remove(self, slot: int) -> None:
        await self.request("remove", slot=slot)

    async def button(self, button: int, action: str = "click") -> None:
        await self.request("button", button=button, action=action)

    async def touch(self, cell: int) -> None:
        await self.request("touch", cell=cell)

    async def leds(self) -> bytes:
        return bytes.fromhex((await self.request("leds"))["leds"])

    async def cells(self) -> bytes:
        return bytes.fromhex((await self.request("cells"))["cells"])

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

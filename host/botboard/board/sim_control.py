"""Client of the simulated board's control socket (see firmware/bbfw/hal_sim.py).

The console and ``botboard selfplay`` use it to do what hands do at a real
table: put a tile in a slot, take it out, press a button, touch a cell; and
to read back what the LEDs show. One JSON object per line each way.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any


class SimControlError(RuntimeError):
    """The simulated board refused a request or is not reachable."""


PATIENCE_S = 15.0  # how long a request keeps trying: a loaded machine starves the board for seconds


class SimControl:
    """Async client; one request at a time (a lock keeps replies paired). A request the
    board does not answer (busy, its heap full of frames, restarting) is tried again on a
    new connection for ``patience_s`` before SimControlError says so in one line."""

    def __init__(self, host: str, port: int, patience_s: float = PATIENCE_S) -> None:
        self.host, self.port = host, port
        self.patience_s = patience_s
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()

    async def request(self, op: str, **fields: Any) -> dict[str, Any]:
        async with self._lock:
            deadline = time.monotonic() + self.patience_s
            pause = 0.05
            while True:
                try:
                    reply = await self._ask({"op": op, **fields})
                    break
                except asyncio.CancelledError:
                    self.close()  # its reply, if it comes, must not be taken for the next request's
                    raise
                except (OSError, ConnectionError) as err:
                    self.close()
                    if time.monotonic() + pause > deadline:
                        raise SimControlError(
                            f"the simulated board's control socket {self.host}:{self.port} did not "
                            f"answer {op} for {self.patience_s:g} s ({err or type(err).__name__}): "
                            f"is the board running?") from None
                    await asyncio.sleep(pause)
                    pause = min(1.0, pause * 2)
            if not reply.get("ok"):
                raise SimControlError(f"the simulated board refused {op}: {reply.get('error')}")
            return reply

    async def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        assert self._reader is not None
        self._writer.write((json.dumps(request) + "\n").encode())
        await self._writer.drain()
        line = await self._reader.readline()
        if not line:
            raise ConnectionError("closed")
        reply: dict[str, Any] = json.loads(line)
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
            try:
                self._writer.close()
            except RuntimeError:  # its event loop is closed already: the socket goes with the process
                pass
        self._reader = self._writer = None

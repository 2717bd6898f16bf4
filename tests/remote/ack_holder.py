"""A TCP relay between one client and the real mosquitto that can hold back the broker's
PUBACKs, as a flooded mosquitto drops them ("Outgoing messages are being dropped"):

    async with AckHolder(broker.port) as relay:     # the client connects to relay.port
        relay.holding = True                        # PUBACKs to the client wait from now on
        ...
        relay.holding = False                       # and go out again (the held ones first)

Everything else passes both ways unchanged, in order: the client still gets every message the
broker sends it. Only MQTT's framing is read (a type byte and the remaining length), not the
packets' content.
"""

from __future__ import annotations

import asyncio
from typing import Any

PUBACK = 0x40


class AckHolder:
    def __init__(self, broker_port: int) -> None:
        self.broker_port = broker_port
        self.port = 0
        self.held = 0  # PUBACKs withheld so far
        self._holding = False
        self._kept: list[tuple[asyncio.StreamWriter, bytes]] = []
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()

    @property
    def holding(self) -> bool:
        return self._holding

    @holding.setter
    def holding(self, hold: bool) -> None:
        self._holding = hold
        if not hold:
            for writer, packet in self._kept:
                writer.write(packet)
            self._kept.clear()

    async def __aenter__(self) -> AckHolder:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: Any) -> None:
        assert self._server is not None
        self._server.close()
        for pipe in self._pipes:
            pipe.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)

    async def _relay(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        broker_in, broker_out = await asyncio.open_connection("127.0.0.1", self.broker_port)
        for pipe in (self._upstream(client_in, broker_out), self._downstream(broker_in, client_out)):
            task = asyncio.create_task(pipe)
            self._pipes.add(task)

    async def _upstream(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
        finally:
            writer.close()

    async def _downstream(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                packet = await _packet(reader)
                if self._holding and packet[0] & 0xF0 == PUBACK:
                    self.held += 1
                    self._kept.append((writer, packet))
                else:
                    writer.write(packet)
        except asyncio.IncompleteReadError:
            pass
        finally:
            writer.close()


async def _packet(reader: asyncio.StreamReader) -> bytes:
    """One MQTT packet whole: its type byte, its remaining length (1-4 bytes), its body."""
    head = await reader.readexactly(1)
    size, shift, length = 0, 0, b""
    while True:
        byte = await reader.readexactly(1)
        length += byte
        size |= (byte[0] & 0x7F) << shift
        shift += 7
        if not byte[0] & 0x80:
            return head + length + await reader.readexactly(size)

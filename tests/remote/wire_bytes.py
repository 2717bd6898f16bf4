"""Bytes on the wire of one BotWars game of two turns between two daemons over a loopback
mosquitto: every message a spy records, opened with the tables' own keys to learn its body.
Prints the bodies' total, what they would be sealed without padding (OVERHEAD each, less
the 8 bytes the game keys' id and the padded length add: the seal of before) and as sealed now.

    .venv/bin/python -m tests.remote.wire_bytes
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from botboard.remote.local_broker import Broker
from botboard.remote.seal import KEY_ID, LENGTH, MAGIC, NONCE, OVERHEAD

from .. import patience
from .test_trust import Spy
from .two_tables import two_tables

HEAD = len(MAGIC) + KEY_ID + NONCE
BEFORE = OVERHEAD - KEY_ID - LENGTH  # the seal without game keys' id or padding


async def measure(where: Path) -> list[tuple[int, int]]:
    """(body, sealed) bytes of every message of one game."""
    broker = Broker(where)
    broker.start()
    try:
        async with Spy(broker) as spy:
            async with two_tables(broker, where, "botwars", 2, (0,), (1,), {"max_turns": 2}) as tables:
                await tables.hands().play()
                await patience.aquiet(0.5)
                host, joined = tables.host.remote.room, tables.joined.remote.room
                sizes = []
                for topic, data in spy.messages:
                    if not data:
                        continue
                    channel, table = joined.topics.split(topic)
                    reader = host if channel in ("propose", "catchup") else joined
                    _, body = reader._seal.open(topic, channel, reader._peer(channel, table), data)
                    sizes.append((len(body), len(data)))
                return sizes
    finally:
        broker.stop()


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        sizes = asyncio.run(measure(Path(tmp)))
    bodies, sealed = sum(b for b, _ in sizes), sum(w for _, w in sizes)
    unpadded = sum(b + BEFORE for b, _ in sizes)
    print({"messages": len(sizes), "body_bytes": bodies, "median_body": sorted(b for b, _ in sizes)[len(sizes) // 2],
           "sealed_unpadded_bytes": unpadded, "sealed_bytes": sealed, "ratio": round(sealed / unpadded, 2),
           "padded_sizes": sorted({w - HEAD - 16 for _, w in sizes})})

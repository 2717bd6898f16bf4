"""own_records.py: what the broker holds on a table's own topic is put right, at a bounded rate."""

from __future__ import annotations

import asyncio

from botboard.remote.own_records import OwnRecords

from .. import patience


def test_anything_else_on_an_own_topic_is_replaced_by_the_tables_record() -> None:
    async def play() -> None:
        broker: dict[str, bytes] = {}
        republished: list[str] = []

        async def publish(topic: str, data: bytes) -> bool:
            broker[topic] = data
            return True

        own = OwnRecords(publish, republished.append)
        assert "room" not in own
        await own.keep("room", b"the host's record")
        assert "room" in own and own["room"] == b"the host's record"
        own.heard("room", b"the host's record")  # the broker holds it: nothing to do
        for junk in (b"", b"a replay", b"junk"):  # changed three times while it republishes
            broker["room"] = junk
            own.heard("room", junk)
        await patience.until(lambda: broker["room"] == b"the host's record", 5, "the record put back")
        assert 1 <= len(republished) <= 2  # once, and once more for the changes meanwhile
        own.close()
        broker["room"] = b""
        own.heard("room", b"")  # a table that left republishes nothing
        await patience.aquiet(0.2)
        assert broker["room"] == b"" and len(republished) <= 2

    asyncio.run(play())

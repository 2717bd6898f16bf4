"""The retained records a table keeps on the broker, watched: the host's room record, every
table's presence record.

    own = OwnRecords(publish, on_republish)   # publish(topic, data): retained, QoS 1
    await own.keep(topic, sealed)             # published, then watched
    if topic in own: own.heard(topic, data)   # what the broker holds there now

A retained message is the broker's to replace: anyone may publish a replayed record, junk or an
empty message (which removes it) on the same topic, and a table that starts later would read
that instead. The table subscribes to its own topics, so it hears every such change, and
publishes its own record again, at a bounded rate (junk.Bucket: a flood of changes costs a
republish every few seconds, not one each); a change heard while it republishes means one more.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from .junk import Bucket

Publish = Callable[[str, bytes], Awaitable[bool]]


class OwnRecords:
    def __init__(self, publish: Publish, on_republish: Callable[[str], None]) -> None:
        self._publish, self._on_republish = publish, on_republish
        self._held: dict[str, bytes] = {}  # topic -> the sealed record this table keeps there
        self._bucket = Bucket()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()  # topics the broker changed again during a republish
        self._closed = False

    def __contains__(self, topic: object) -> bool:
        return topic in self._held

    def __getitem__(self, topic: str) -> bytes:
        """The record this table keeps on ``topic``, as sealed."""
        return self._held[topic]

    async def keep(self, topic: str, data: bytes) -> bool:
        """Publishes ``data`` retained on ``topic`` and watches it from now on."""
        self._held[topic] = data
        return await self._publish(topic, data)

    def heard(self, topic: str, data: bytes) -> None:
        """The broker holds ``data`` on this table's ``topic``: anything but its own record (a
        replay, junk, an empty message, a last will come late) is put right soon."""
        if data == self._held[topic] or self._closed:
            return
        task = self._tasks.get(topic)
        if task is not None and not task.done():
            self._again.add(topic)
            return
        self._tasks[topic] = asyncio.create_task(self._republish(topic), name=f"republish {topic}")

    def close(self) -> None:
        """No more republishing (the table leaves; what it keeps last is still published)."""
        self._closed = True
        for task in self._tasks.values():
            task.cancel()

    async def _republish(self, topic: str) -> None:
        while True:
            self._again.discard(topic)
            while (delay := self._bucket.wait()) > 0:
                await asyncio.sleep(delay)
            if self._closed:
                return
            self._on_republish(topic)
            await self._publish(topic, self._held[topic])
            if topic not in self._again:
                return

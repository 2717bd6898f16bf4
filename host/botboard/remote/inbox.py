"""A link's incoming messages, bounded, with junk dropped first.

aiomqtt puts every message the broker sends into one queue, unbounded by default: a flood
of junk grew a host from 58 to 197 MB. ``Inbox`` is that queue (aiomqtt's ``queue_type``),
so its checks run as each message is read off the socket, before anything is kept:

    inbox = Inbox(sort=room.sort, on_drop=tally.count)

``sort(topic)`` is the room's cheap look at a topic (no decryption): "room" for what a
table of the room sends (its own topic, the host's, a table it has seen), "stranger" for
a topic that names a table nobody has seen, None for anything else (dropped at once).
Each tier holds at most so many messages and bytes; a message that finds its tier full is
dropped and counted. Strangers have a small tier of their own, read only when the room's
is empty, so a flood to ``propose/zz`` fills that tier and never the room's. What a drop
loses comes back: unanswered proposals are sent again, missing entries asked for again.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from typing import Any

ROOM = "room"
STRANGER = "stranger"
# (messages, bytes) each tier may hold; a sealed message is at most some 64 KB
LIMITS = {ROOM: (1024, 8 << 20), STRANGER: (64, 1 << 20)}

Sort = Callable[[str], str | None]
OnDrop = Callable[[str, str], None]  # (topic, why)


class Tiers:
    """Two FIFO tiers behind one queue: the room's first, strangers' when it is empty."""

    def __init__(self, sort: Sort, on_drop: OnDrop, limits: dict[str, tuple[int, int]]) -> None:
        self._sort, self._on_drop, self._limits = sort, on_drop, limits
        self._tiers: dict[str, collections.deque[Any]] = {ROOM: collections.deque(),
                                                           STRANGER: collections.deque()}
        self._bytes = {ROOM: 0, STRANGER: 0}
        self.high = {ROOM: 0, STRANGER: 0}  # the most messages each tier ever held
        self.dropped = 0

    def append(self, message: Any) -> None:
        topic = message.topic.value
        tier = self._sort(topic)
        if tier is None:
            self._drop(topic, "not the room's, or from a table nobody has seen")
            return
        size = len(message.payload) if isinstance(message.payload, bytes | bytearray) else 0
        count, most = self._limits[tier]
        held = self._tiers[tier]
        if len(held) >= count or self._bytes[tier] + size > most:
            self._drop(topic, "the inbox is full" if tier == ROOM else "too many messages from unknown tables")
            return
        held.append((message, size))
        self._bytes[tier] += size
        self.high[tier] = max(self.high[tier], len(held))

    def popleft(self) -> Any:
        tier = ROOM if self._tiers[ROOM] else STRANGER
        message, size = self._tiers[tier].popleft()
        self._bytes[tier] -= size
        return message

    def __len__(self) -> int:
        return len(self._tiers[ROOM]) + len(self._tiers[STRANGER])

    def _drop(self, topic: str, why: str) -> None:
        self.dropped += 1
        self._on_drop(topic, why)


class Inbox(asyncio.Queue):
    """aiomqtt's message queue, built on ``Tiers`` (asyncio.Queue's documented hooks
    ``_init``/``_put``/``_get``): a put never blocks and never raises, it keeps or drops."""

    def __init__(self, maxsize: int = 0, *, sort: Sort, on_drop: OnDrop,
                 limits: dict[str, tuple[int, int]] | None = None) -> None:
        self._setup = (sort, on_drop, limits or LIMITS)
        super().__init__(0)  # aiomqtt's maxsize is ignored: the tiers bound the queue

    def _init(self, maxsize: int) -> None:
        self._queue = Tiers(*self._setup)

    @property
    def tiers(self) -> Tiers:
        return self._queue

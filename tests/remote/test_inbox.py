"""The link's inbox (inbox.py): bounded tiers, the room's messages before strangers'."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from botboard.remote.inbox import ROOM, STRANGER, Inbox


@dataclass
class Topic:
    value: str


@dataclass
class Message:
    topic: Topic
    payload: bytes


def sort(topic: str) -> str | None:
    if topic.startswith("room/"):
        return ROOM
    return STRANGER if topic.startswith("propose/") else None


def message(topic: str, size: int = 10) -> Message:
    return Message(Topic(topic), b"x" * size)


def test_the_rooms_messages_come_first_and_each_tier_is_bounded() -> None:
    async def check() -> None:
        dropped: list[tuple[str, str]] = []
        inbox = Inbox(sort=sort, on_drop=lambda topic, why: dropped.append((topic, why)),
                      limits={ROOM: (3, 1000), STRANGER: (2, 1000)})
        for k in range(5):
            inbox.put_nowait(message(f"propose/zz{k}"))  # a flood to a table nobody knows
        inbox.put_nowait(message("elsewhere/x"))  # not a topic of the room
        for k in range(4):
            inbox.put_nowait(message(f"room/{k}"))
        assert inbox.qsize() == 5
        got = [(await inbox.get()).topic.value for _ in range(5)]
        assert got == ["room/0", "room/1", "room/2", "propose/zz0", "propose/zz1"]
        assert inbox.empty()
        assert [why for _, why in dropped].count("too many messages from unknown tables") == 3
        assert ("elsewhere/x", "not the room's, or from a table nobody has seen") in dropped
        assert ("room/3", "the inbox is full") in dropped
        assert inbox.tiers.high == {ROOM: 3, STRANGER: 2} and inbox.tiers.dropped == 5

    asyncio.run(check())


def test_a_tier_is_bounded_in_bytes_too() -> None:
    async def check() -> None:
        inbox = Inbox(sort=sort, on_drop=lambda topic, why: None, limits={ROOM: (100, 250), STRANGER: (1, 1)})
        for k in range(4):
            inbox.put_nowait(message(f"room/{k}", 100))
        assert inbox.qsize() == 2
        await inbox.get()
        inbox.put_nowait(message("room/again", 100))  # room again once one was taken
        assert inbox.qsize() == 2

    asyncio.run(check())

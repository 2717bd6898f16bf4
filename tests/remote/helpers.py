"""Shared pieces of the room tests: a tiny game for accept(), event collection, waiting."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from botboard.remote.events import Event, PresenceChange, Refusal
from botboard.remote.protocol import Entry
from botboard.remote.room import HostRoom, JoinedRoom, Room, room_topics
from botboard.remote.url import RemoteUrl
from botboard.remote.sequencer import Accepted, HostEntry, Refused

from botboard.remote.local_broker import ROOM_KEY, Broker

from .. import patience

# the topics of room club with the tests' key, wherever its broker is
TOPICS = room_topics(RemoteUrl("127.0.0.1", 1883, "club", key=ROOM_KEY))
# short keepalive and backoff keep the fault tests fast
FAST: dict[str, Any] = {"keepalive": 2, "backoff": (0.05, 0.3)}


def run(coro: Any, timeout: float = 20) -> Any:
    return asyncio.run(asyncio.wait_for(coro, patience.scaled(timeout)))


async def until(predicate: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    """tests/patience.py's until, ``what`` first (a deadline scaled by the machine's load)."""
    await patience.until(predicate, timeout, what)


def opened(reader: Room, message: Any) -> bytes:
    """The body of a sealed message as ``reader`` reads it (its signature checked)."""
    topic = message.topic.value
    channel, table = reader.topics.split(topic)
    seal = reader._seal
    signature, body = seal.open(topic, channel, reader._peer(channel, table), bytes(message.payload))
    signer = reader._host() if channel in ("room", "entries", "to") else table
    seal.verify(signer or "", topic, signature, body)
    return body


class Seen:
    """A room's on_event callback that keeps every event."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def entries(self) -> list[Entry]:
        return [e for e in self.events if isinstance(e, Entry)]

    def host_entries(self) -> list[HostEntry]:
        return [e for e in self.events if isinstance(e, HostEntry)]

    def refusals(self) -> list[Refusal]:
        return [e for e in self.events if isinstance(e, Refusal)]

    def presence(self, table: str) -> list[str]:
        return [e.change for e in self.events if isinstance(e, PresenceChange) and e.table == table]


class Adder:
    """accept() of a tiny game: {"add": k >= 0} is legal; the proposer alone sees an echo."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, Any]] = []

    def __call__(self, table: str, seat: int, payload: Any) -> Accepted | Refused:
        self.calls.append((table, seat, payload))
        if not isinstance(payload, dict) or type(payload.get("add")) is not int or payload["add"] < 0:
            return Refused("add must be a number >= 0")
        return Accepted({"seat": seat, "add": payload["add"]}, {table: {"echo": payload["add"]}})


def public_log(entries: list[Entry] | list[HostEntry]) -> list[tuple[int, Any]]:
    return [(e.n, e.public) for e in entries]


class Three:
    """A host table (seat 1) and tables a (seat 2) and b (seat 3), each with its events."""

    def __init__(self, broker: Broker, **options: Any) -> None:
        self.game = Adder()
        self.seen = {name: Seen() for name in ("host", "a", "b")}
        url = broker.url()
        options = {**FAST, **options}
        self.host = HostRoom(url, "host", accept=self.game, game="adder", players=3, seats={"host": [1]},
                             claimable=[2, 3], on_event=self.seen["host"], **options)
        self.a = JoinedRoom(url, "a", seats=[2], on_event=self.seen["a"], **options)
        self.b = JoinedRoom(url, "b", seats=[3], on_event=self.seen["b"], **options)


@contextlib.asynccontextmanager
async def three_tables(broker: Broker, **options: Any) -> AsyncIterator[Three]:
    three = Three(broker, **options)
    async with three.host, three.a, three.b:
        await until(lambda: three.a.seats == (2,) and three.b.seats == (3,), "seats granted")
        yield three


async def joined_and_ready(room: JoinedRoom) -> JoinedRoom:
    await room.start()
    await until(lambda: room.record is not None, f"{room.table} to see the room")
    return room

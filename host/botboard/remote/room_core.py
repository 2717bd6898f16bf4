"""The room every table is in: ``Room``, what the host, the joined tables and the spectators
share (host_room.py, joined_room.py add what each does).

A Room holds the link to the broker (link.py), its table's keys (table_keys.py: its own, the
keys it pinned, the newest record numbers it saw) and what it knows of the room: the room
record and every table's presence. Every message goes the same way in: the inbox's cheap look
at its topic (``sort``), then opened and its signature checked (seal.py), decoded
(protocol.py), let in or not (admission.py: fresh, and a room record signed by the host), and
handed to the kind of room. One that cannot be opened, whose signature does not hold, that is
malformed or older than what this table has seen is dropped and changes nothing (junk.py
counts it: one log line and Refusal event per kind a minute). Each table keeps its own retained
records on the broker (own_records.py) and notices other groups' rooms of the same name.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import ssl
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, Self

from .admission import Stale, check_fresh, check_host
from .events import Event, LinkChange, Refusal, presence_change
from .inbox import ROOM, STRANGER
from .junk import JunkCount
from .link import Link
from .own_records import OwnRecords
from .protocol import (CHANNEL_KINDS, Message, PresenceRecord, ProtocolError, RoomRecord, Topics, decode,
                       encode, valid_id)
from .seal import MAGIC, PAIRWISE, Identity, Seal, SealError, room_key, topic_tag
from .tally import Tally
from .table_keys import TableKeys
from .url import RemoteUrl

# the room's log, whichever part of it writes (the host's and the joined tables' rooms too)
log = logging.getLogger("botboard.remote.room")
# a table whose room key opened nothing yet waits this long for its own room's record before it
# says the key is wrong: the records of another group of the same name may come first
WRONG_KEY_GRACE_S = 3.0
MAX_FOREIGN = 16  # other groups' room records read under this room's name; a flood of made-up ones is dropped


def room_topics(url: RemoteUrl) -> Topics:
    """The topics of the room ``url`` names, under its key's tag."""
    return Topics(url.room, topic_tag(room_key(url.room, url.key or "")))


def same_room(a: RoomRecord | None, b: RoomRecord | None) -> bool:
    """The same room record but for its number (the host numbers every copy it publishes)."""
    if a is None or b is None:
        return a is b
    return dataclasses.replace(a, seq=0) == dataclasses.replace(b, seq=0)


class Room:
    """What host, players and spectators share: the link, presence, checked messages, events."""

    role = "player"

    def __init__(self, url: RemoteUrl, table: str, *, seats: Iterable[int] = (), keepalive: int = 30,
                 backoff: tuple[float, float] = (0.5, 30.0), tls_context: ssl.SSLContext | None = None,
                 on_event: Callable[[Event], None] | None = None, identity: Identity | None = None,
                 keys: TableKeys | None = None) -> None:
        if not valid_id(table):
            raise ValueError(f"table id {table!r}: use 1-64 of A-Z a-z 0-9 _ -")
        if not url.key:
            raise ValueError(f"{url}: the room's link has no key: add #KEY (the host table's link has it)")
        # a table that keeps its keys file (the daemon does) is the same table after a restart,
        # with the pins and record numbers it had
        self.keys = keys if keys is not None else TableKeys(identity or Identity.fresh())
        key = room_key(url.room, url.key)
        self._seal = Seal(key, self.keys.identity, table, pins=self.keys.pins, on_pin=self.keys.pin)
        self.url = url
        self.table = table
        self.topics = Topics(url.room, topic_tag(key))
        self.run = secrets.token_hex(8)  # names this Room object's proposals and catch-up requests
        self._junk = JunkCount()
        self._own = OwnRecords(lambda topic, data: self._link.publish(topic, data, retain=True),
                               self._republished)
        self._foreign: set[str] = set()  # other groups' tags seen under this room's name
        self._will_seq = self.keys.next_seq()  # the "gone" of every connection of this run
        self.record: RoomRecord | None = None
        self.presence: dict[str, PresenceRecord] = {}
        self._claim = tuple(seats)
        self._on_event = on_event
        self._events: asyncio.Queue[Event] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._up = asyncio.Event()
        self._closing = False
        # what the inbox drops unread is counted per topic, and logged once a minute
        self._tally = Tally(log, f"room {url.room}, table {table}")
        self._link = Link(url, table, on_connect=self._connected,
                          on_message=self._message, on_state=self._link_state,
                          will=(self.topics.presence(table), self._sealed(self.topics.presence(table),
                                                                          self._presence("gone"))),
                          keepalive=keepalive, backoff=backoff, tls_context=tls_context,
                          sort=self.sort, on_drop=self._tally.count)

    # --- life ---------------------------------------------------------------------------

    async def start(self) -> None:
        self._task = asyncio.create_task(self._link.run(), name=f"remote room {self.table}")

    async def close(self) -> None:
        """Leaves the room: says "gone" (a clean disconnect sends no last will) and disconnects."""
        self._closing = True
        self._own.close()
        await self._publish_own(self.topics.presence(self.table), self._presence("gone"))
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        self._tally.flush()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def wait_up(self) -> None:
        """Until the link to the broker is up (and subscribed)."""
        await self._up.wait()

    @property
    def up(self) -> bool:
        return self._up.is_set()

    async def events(self) -> AsyncIterator[Event]:
        """Every event in order, for callers that gave no ``on_event`` callback."""
        while True:
            yield await self._events.get()

    def _emit(self, event: Event) -> None:
        if self._on_event is not None:
            self._on_event(event)
        else:
            self._events.put_nowait(event)

    # --- the link's callbacks -----------------------------------------------------------

    def sort(self, topic: str) -> str | None:
        """The inbox's cheap look at a message, before it is kept (inbox.py): ROOM for what the
        room's known tables send, STRANGER for a topic naming a table not seen yet, None for a
        topic that is not the room's."""
        tag = self.topics.foreign(topic)
        if tag is not None:  # another group's room record: read once per group, a few groups at most
            return STRANGER if tag not in self._foreign and len(self._foreign) < MAX_FOREIGN else None
        try:
            channel, table = self.topics.split(topic)
        except ProtocolError:
            return None
        if table is None or table == self.table or table in self.presence or table == self._host():
            return ROOM
        if self.record is not None and table in self.record.seats:
            return ROOM
        # a table says "here" before it proposes: a proposal that overtook its presence is sent again
        return None if channel in ("propose", "catchup") else STRANGER

    def _link_state(self, up: bool, error: str | None) -> None:
        if not up:
            self._up.clear()
        self._emit(LinkChange(up, error))

    async def _connected(self) -> None:
        await self._link.subscribe(*self._subscriptions())
        await self._publish_own(self.topics.presence(self.table), self._presence("here"))
        await self._after_connect()
        self._up.set()

    async def _message(self, topic: str, data: bytes) -> None:
        if topic in self._own:  # this table's own retained record: the broker must hold it
            self._own.heard(topic, data)
            return
        tag = self.topics.foreign(topic)
        if tag is not None:
            self._foreign_record(tag)
            return
        admitted = self._admit(topic, data)
        if admitted is None:
            return
        channel, table, message = admitted
        if isinstance(message, (RoomRecord, PresenceRecord)):  # signed and fresh: its game key
            self._seal.learn(message.host if isinstance(message, RoomRecord) else message.table,
                             message.ephemeral)
        if isinstance(message, PresenceRecord):
            await self._presence_record(message)
        else:
            await self._handle(channel, table, message)

    def _admit(self, topic: str, data: bytes) -> tuple[str, str | None, Message] | None:
        """The message on ``topic`` opened, decoded and checked: (channel, table, message), or
        None when a step refused it (dropped and counted)."""
        try:
            channel, table = self.topics.split(topic)
        except ProtocolError as exc:
            self._drop(topic, "off the room's topics", exc)
            return None
        try:
            signature, body = self._seal.open(topic, channel, self._peer(channel, table), data)
        except SealError as exc:
            self._drop(topic, f"{channel}: {'unreadable' if data.startswith(MAGIC) else 'not sealed'}", exc)
            return None
        self.keys.saw_room(self.topics.tag)
        try:
            message = decode(body, CHANNEL_KINDS[channel])
            # a table's own topics carry only its own messages, signed by it
            if channel != "to" and table is not None and getattr(message, "table") != table:
                raise ProtocolError(f"table {getattr(message, 'table')!r} sent on {topic!r}")
            self._check_signature(topic, channel, table, message, signature, body)
            check_fresh(message, self.keys, self.presence)
        except (ProtocolError, SealError) as exc:
            kind = "stale" if isinstance(exc, Stale) else "forged" if isinstance(exc, SealError) else "malformed"
            self._drop(topic, f"{channel}: {kind}", exc)
            return None
        return channel, table, message

    def _drop(self, topic: str, kind: str, exc: Exception) -> None:
        """A message that changes nothing: said once, then counted (one line a minute per kind)."""
        unsaid = self._junk.add(kind)
        if unsaid is not None:
            more = f" ({unsaid} more of the kind '{kind}' since the last line)" if unsaid else ""
            self._refuse(f"refused a message on {topic}: {exc}{more}")

    def _foreign_record(self, tag: str) -> None:
        """A room record of another group under this room's name (another key): nothing of
        theirs is read or written. A table whose key never opened anything of its own room
        is told its key may be wrong, once, if its own room's record does not come soon."""
        if tag in self._foreign:
            return
        self._foreign.add(tag)
        if len(self._foreign) > 1 or self.topics.tag in self.keys.opened:
            log.info("room %s, table %s: another group's room of the same name is on the broker "
                     "(topics %s/%s); this table keeps to its own", self.url.room, self.table,
                     self.topics.name, tag)
            return
        asyncio.get_running_loop().call_later(WRONG_KEY_GRACE_S, self._key_verdict)

    def _key_verdict(self) -> None:
        if self.topics.tag not in self.keys.opened and not self._closing:
            self._refuse("a room of this name is on the broker, but it cannot be read with this table's "
                         "room key: the room link's key is not the one the room's tables "
                         "use (ask the host table for its link)", key=True)

    async def _presence_record(self, record: PresenceRecord) -> None:
        if record.table == self.table:
            return  # an earlier run's record, still retained: this run's replaces it (_own)
        self.keys.mark(f"presence/{record.table}", record.seq)
        change = presence_change(self.presence.get(record.table), record)
        self.presence[record.table] = record
        if change is not None:
            log.info("room %s: table %s %s", self.url.room, record.table, change.change)
            self._emit(change)
        await self._presence_changed(record)

    def _check_signature(self, topic: str, channel: str, table: str | None, message: Message,
                         signature: bytes, body: bytes) -> None:
        """The sender the topic names signed ``message``; room and presence records carry the
        keys they are signed with, which are pinned the first time."""
        if isinstance(message, RoomRecord):
            check_host(message, self.url, self.keys)
            if self.record is not None and message.host != self.record.host:
                raise SealError(f"the room record names host {message.host}, not {self.record.host}")
            if self.url.host_key is not None:  # the link names the host: its keys replace any pinned
                self._seal.pin(message.host, message.keys, replace=True)
            self._seal.verify(message.host, topic, signature, body, announced=message.keys)
            if self.keys.host is None:
                self.keys.pin_host(message.keys)
        elif isinstance(message, PresenceRecord):
            self._seal.verify(message.table, topic, signature, body, announced=message.keys)
        else:
            signer = self._host() if channel in ("entries", "to") else table
            if signer is None:
                raise SealError("the room's host is not known yet")
            self._seal.verify(signer, topic, signature, body)

    def _host(self) -> str | None:
        return self.record.host if self.record is not None else None

    def _peer(self, channel: str, table: str | None) -> str | None:
        """The other end of a pairwise channel: the table it names at the host, else the host."""
        if channel not in PAIRWISE:
            return None
        return table if table != self.table else self._host()

    def seal(self, topic: str, body: bytes) -> bytes:
        """``body`` as this table sends it on ``topic``: signed, and encrypted for its readers."""
        channel, table = self.topics.split(topic)
        return self._seal.seal(topic, channel, self._peer(channel, table), body)

    def _sealed(self, topic: str, message: Message) -> bytes:
        return self.seal(topic, encode(message))

    async def _publish_own(self, topic: str, message: Message) -> bool:
        """A retained record of this table's own, which it then watches (own_records.py)."""
        try:
            data = self._sealed(topic, message)
        except SealError as exc:
            log.info("room %s, table %s: not sent on %s: %s", self.url.room, self.table, topic, exc)
            return False
        return await self._own.keep(topic, data)

    def _republished(self, topic: str) -> None:
        log.info("room %s, table %s: the broker held something else on %s: published this table's "
                 "record again", self.url.room, self.table, topic)

    async def _publish(self, topic: str, message: Message, *, retain: bool = False) -> bool:
        """Seals and publishes; False when it could not go (link down, the reader's keys not known
        yet: catch-up brings it later)."""
        try:
            data = self._sealed(topic, message)
        except SealError as exc:
            log.info("room %s, table %s: not sent on %s: %s", self.url.room, self.table, topic, exc)
            return False
        # retained records go at QoS 1 and wait for the broker's acknowledgement; the game's
        # messages at QoS 0 (link.py: a flooded broker drops acknowledgements and wedges QoS 1),
        # and resend and catch-up recover what is lost
        return await self._link.publish(topic, data, retain=retain, confirm=retain)

    def _refuse(self, reason: str, **what: Any) -> None:
        log.warning("room %s, table %s: refused: %s", self.url.room, self.table, reason)
        self._emit(Refusal(reason, **what))

    def _presence(self, state: str) -> PresenceRecord:
        # "gone" before closing is the last will, made once per run: each "here" names its number
        seq = self._will_seq if state == "gone" and not self._closing else self.keys.next_seq()
        return PresenceRecord(self.table, state, self.role, self._claim, self._seal.identity.public,
                              seq, self.run, self._will_seq, self._seal.ephemeral)

    # --- what each kind of room adds ----------------------------------------------------

    def _subscriptions(self) -> list[str]:
        raise NotImplementedError

    async def _after_connect(self) -> None:
        pass

    async def _presence_changed(self, record: PresenceRecord) -> None:
        pass

    async def _handle(self, channel: str, table: str | None, message: Message) -> None:
        raise NotImplementedError



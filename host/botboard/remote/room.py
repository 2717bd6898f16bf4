"""The asyncio rooms: ``HostRoom`` (the table whose journal is the record: it sequences
every proposal), ``JoinedRoom`` (a table that plays some seats) and ``SpectatorRoom``
(read-only, public parts only).

    async with JoinedRoom(parse_remote_url("mqtt://broker/club"), "kitchen", seats=[2]) as room:
        answer = await room.propose(2, {"action": "F1"})
        async for event in room.events():   # Entry in order n, PresenceChange, Refusal, ...
            ...

Every message is sealed (seal.py: signed by its sender, encrypted for who may read it) and
checked (protocol.decode); one that cannot be opened, whose signature does not hold, that is
malformed, or older than what this table has seen is dropped and changes nothing (junk.py
counts it: one log line and Refusal event per kind a minute). Room and presence records are
numbered: a table keeps the highest number it has seen (TableKeys, across restarts), and each
table republishes its own retained records whenever the broker holds anything else. The
room's link must carry its key (``mqtt://broker/club#KEY``) and, for a table that joins, the
host's fingerprint (``#KEY.HOST``; without it, the first host seen is pinned). See
docs/remote-play.md for topics, trust and faults.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import ssl
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, Self

from ..patience import load_factor
from .events import Event, LinkChange, PresenceChange, Refusal, RoomChange, presence_change
from .inbox import ROOM, STRANGER
from .junk import Bucket, JunkCount
from .limits import CATCHUP_BATCH, CatchUpLimit
from .link import Link
from .ordering import InOrder, ProposalOrder
from .protocol import (CHANNEL_KINDS, Answer, CatchUp, CaughtUp, ClaimRefused, Entry, Message,
                       PresenceRecord, ProtocolError, Proposal, RoomRecord, Topics, decode, encode, valid_id)
from .seal import MAGIC, PAIRWISE, Identity, Seal, SealError, fingerprint, room_key, topic_tag
from .sequencer import Accepted, AcceptFn, HostEntry, Refused, Sequencer
from .tally import Tally
from .table_keys import TableKeys
from .url import RemoteUrl

log = logging.getLogger(__name__)
# a table whose room key opened nothing yet waits this long for its own room's record before it
# says the key is wrong: the records of another group of the same name may come first
WRONG_KEY_GRACE_S = 3.0
MAX_FOREIGN = 16  # other groups' room records read under this room's name; a flood of made-up ones is dropped


class Stale(SealError):
    """A genuine record or request older than what this table has seen: a replay."""


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
        self._own: dict[str, bytes] = {}  # topic -> the retained record this table keeps there
        self._rewatch = Bucket()
        self._rewatching: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()  # own topics the broker changed during a republish
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
        for task in self._rewatching.values():
            task.cancel()
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
            if data != self._own[topic]:
                self._republish_soon(topic)
            return
        tag = self.topics.foreign(topic)
        if tag is not None:
            self._foreign_record(tag)
            return
        try:
            channel, table = self.topics.split(topic)
        except ProtocolError as exc:
            self._drop(topic, "off the room's topics", exc)
            return
        try:
            signature, body = self._seal.open(topic, channel, self._peer(channel, table), data)
        except SealError as exc:
            self._drop(topic, f"{channel}: {'unreadable' if data.startswith(MAGIC) else 'not sealed'}", exc)
            return
        self.keys.saw_room(self.topics.tag)
        try:
            message = decode(body, CHANNEL_KINDS[channel])
            # a table's own topics carry only its own messages, signed by it
            if channel != "to" and table is not None and getattr(message, "table") != table:
                raise ProtocolError(f"table {getattr(message, 'table')!r} sent on {topic!r}")
            self._check_signature(topic, channel, table, message, signature, body)
            self._check_fresh(message)
        except (ProtocolError, SealError) as exc:
            kind = "stale" if isinstance(exc, Stale) else "forged" if isinstance(exc, SealError) else "malformed"
            self._drop(topic, f"{channel}: {kind}", exc)
            return
        if isinstance(message, (RoomRecord, PresenceRecord)):  # signed and fresh: its game key
            self._seal.learn(message.host if isinstance(message, RoomRecord) else message.table,
                             message.ephemeral)
        if isinstance(message, PresenceRecord):
            await self._presence_record(message)
        else:
            await self._handle(channel, table, message)

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

    def _check_fresh(self, message: Message) -> None:
        """A record older than the newest seen from its sender is a replay (Stale)."""
        if isinstance(message, RoomRecord):
            mark = self.keys.marks.get("room", 0)
            if message.seq < mark:
                raise Stale(f"room record number {message.seq} is older than the newest seen ({mark}): "
                            "a replay, refused")
            if message.epoch in self.keys.left:
                raise Stale(f"the room record names game {message.epoch}, which the room left: a replay, "
                            "refused")
        elif isinstance(message, PresenceRecord):
            mark = self.keys.marks.get(f"presence/{message.table}", 0)
            now = self.presence.get(message.table)
            # the last will of the run that is here: made before it said "here", so numbered lower
            will = now is not None and now.state == "here" and message.state == "gone" and message.seq == now.will
            # the newest record again is the broker's copy, unless a last will came after it
            again = message.seq == mark and (now is None or now == message)
            if not (message.seq > mark or again or will):
                raise Stale(f"presence record number {message.seq} of table {message.table} is older than "
                            f"the newest seen ({mark}): a replay, refused")

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
            self._check_host(message)
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

    def _check_host(self, record: RoomRecord) -> None:
        """Only the host signs a room record: the host the link names (its fingerprint), else
        the one this table pinned first (kept in its keys file)."""
        if self.url.host_key is not None:
            if fingerprint(record.keys) != self.url.host_key:
                raise SealError(f"a room record naming host {record.host} is signed by other keys than "
                                "the host's that the room's link names: refused (someone with the link, "
                                "not the host table)")
        elif self.keys.host is not None and record.keys != self.keys.host:
            raise SealError(f"a room record naming host {record.host} is signed by other keys than the "
                            "host's this table knows: refused (someone with the link, not the host table)")

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
        """A retained record of this table's own, which it then watches (_republish_soon)."""
        try:
            self._own[topic] = self._sealed(topic, message)
        except SealError as exc:
            log.info("room %s, table %s: not sent on %s: %s", self.url.room, self.table, topic, exc)
            return False
        return await self._link.publish(topic, self._own[topic], retain=True)

    def _republish_soon(self, topic: str) -> None:
        """The broker holds something else than this table's record on ``topic`` (a replay, junk,
        an empty message, a last will late): publish it again, at a bounded rate."""
        task = self._rewatching.get(topic)
        if self._closing:
            return
        if task is not None and not task.done():
            self._again.add(topic)  # changed again while this table republished: once more after
            return
        self._rewatching[topic] = asyncio.create_task(self._republish(topic), name=f"republish {topic}")

    async def _republish(self, topic: str) -> None:
        while True:
            self._again.discard(topic)
            while (delay := self._rewatch.wait()) > 0:
                await asyncio.sleep(delay)
            if self._closing:
                return
            log.info("room %s, table %s: the broker held something else on %s: published this table's "
                     "record again", self.url.room, self.table, topic)
            await self._link.publish(topic, self._own[topic], retain=True)
            if topic not in self._again:
                return

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


# --- the host -------------------------------------------------------------------------------

class EntryRecord(Protocol):
    """Where the host keeps its entries (in the product, the game's journal): entries n..m of
    an epoch must come back, with their private parts, for tables that catch up."""

    def add(self, epoch: str, entry: HostEntry) -> None: ...

    def fetch(self, epoch: str, first: int, last: int) -> Sequence[HostEntry]: ...


class MemoryRecord:
    """An EntryRecord in memory, for a host without a journal (and for tests)."""

    def __init__(self) -> None:
        self._entries: dict[str, list[HostEntry]] = {}

    def add(self, epoch: str, entry: HostEntry) -> None:
        entries = self._entries.setdefault(epoch, [])
        if entry.n != len(entries) + 1:
            raise ValueError(f"entry {entry.n} added after {len(entries)}")
        entries.append(entry)

    def fetch(self, epoch: str, first: int, last: int) -> Sequence[HostEntry]:
        return self._entries.get(epoch, [])[first - 1:last]


class HostRoom(Room):
    """The table that decides: it numbers every accepted proposal and sends it to every table.

    ``accept(table, seat, payload)`` returns Accepted(public, private_by_table) or Refused(reason);
    it is called for one proposal at a time, in the order they arrive. ``seats`` maps tables
    (the host's own included) to the seats they own; a remote table may claim any free seat in
    ``claimable``. A restarted host passes the ``epoch`` and ``last_n`` it had and its ``record``.
    """

    role = "host"

    def __init__(self, url: RemoteUrl, table: str, *, accept: AcceptFn, game: str, players: int,
                 seats: Mapping[str, Iterable[int]], claimable: Iterable[int] = (),
                 options: Mapping[str, Any] | None = None, layout: str | None = None,
                 epoch: str | None = None, last_n: int = 0, record: EntryRecord | None = None,
                 **room_options: Any) -> None:
        super().__init__(url, table, **room_options)
        self._accept = accept
        self._store: EntryRecord = record if record is not None else MemoryRecord()
        self._lock = asyncio.Lock()  # one decision at a time: the order of n is the order of decisions
        self._counter = 0
        self._limit = CatchUpLimit()
        self._arrivals = ProposalOrder()  # each table's proposals decided in the order it made them
        self._asks: dict[str, tuple[str, int]] = {}  # table -> (run, counter) of its last request
        self._game = (game, players, dict(options or {}), layout)
        epoch = epoch or secrets.token_hex(8)
        history = self._store.fetch(epoch, 1, last_n) if last_n else ()
        self._seq = Sequencer(table, epoch, seats, claimable, history)
        self.record = self._room_record()
        log.info("room %s: the host table %s, topics %s/", url.room, table, self.topics.base)

    @property
    def epoch(self) -> str:
        return self._seq.epoch

    @property
    def last_n(self) -> int:
        return self._seq.last_n

    async def new_game(self, *, game: str, players: int, seats: Mapping[str, Iterable[int]],
                       claimable: Iterable[int] = (), options: Mapping[str, Any] | None = None,
                       layout: str | None = None) -> str:
        """Starts a new epoch (entries count from 1 again) and tells every table; returns it."""
        async with self._lock:
            self._game = (game, players, dict(options or {}), layout)
            self._seq = Sequencer(self.table, secrets.token_hex(8), seats, claimable)
            self._arrivals.clear()
            self._seal.rotate()  # a game key of its own: the last game's messages stay closed
            # the tables already here claim their seats again
            claims = [self._claim_seats(record) for record in self.presence.values()]
            await self._publish_room(new_epoch=True)
        await self._tell_refusals([refusal for _, refusal in claims if refusal])
        return self.epoch

    async def propose(self, seat: int, payload: Any) -> Answer:
        """The host table's own action for one of its seats, decided like any other."""
        self._counter += 1
        proposal = Proposal(self.table, self.run, self._counter, self.epoch, seat, payload)
        encode(proposal)  # too large: ProtocolError now, like at a joined table
        return await self._decide(proposal)

    async def append(self, public: Any, private: Mapping[str, Any] | None = None,
                     seat: int | None = None) -> HostEntry:
        """An entry of the host's own (a deal, a die roll): no proposal, no accept().
        Raises ProtocolError, and records nothing, when a table's view would be over 64 KB."""
        async with self._lock:
            entry = self._seq.new_entry(self.table, seat, Accepted(public, dict(private or {})))
            self._seq.commit(entry)
            await self._publish_entry(entry)
        return entry

    # --- inside -------------------------------------------------------------------------

    def _subscriptions(self) -> list[str]:
        # the room records under this name: its own, watched, and any other group's, noticed
        return [self.topics.rooms, self.topics.presence(), self.topics.propose(), self.topics.catchup()]

    async def _after_connect(self) -> None:
        self._limit = CatchUpLimit()  # every table catches up after the host's reconnect
        # the broker may have lost the retained record in a restart; tables catch up on seeing it
        await self._publish_room(new_epoch=False)

    def _room_record(self) -> RoomRecord:
        game, players, options, layout = self._game
        return RoomRecord(self.table, self.epoch, game, players, options, dict(self._seq.seats), layout,
                          self._seal.identity.public, self.keys.next_seq(), self._seal.ephemeral)

    async def _publish_room(self, *, new_epoch: bool) -> None:
        before = self.record
        self.record = self._room_record()
        if new_epoch or not same_room(self.record, before):
            self._emit(RoomChange(self.record, new_epoch))
        await self._publish_own(self.topics.room, self.record)

    def _foreign_record(self, tag: str) -> None:
        if tag not in self._foreign:
            self._foreign.add(tag)
            log.warning("room %s: this room name is used by another group: this table's link uses its "
                        "own topics (%s), and nothing of theirs is touched", self.url.room, self.topics.base)

    async def _handle(self, channel: str, table: str | None, message: Message) -> None:
        if isinstance(message, Proposal):
            for due in self._arrivals.due(message, lambda *key: self._seq.decided(*key)):
                answer = await self._decide(due)
                await self._publish(self.topics.to(due.table), answer)
        elif isinstance(message, CatchUp):
            await self._catch_up(message)

    async def _decide(self, proposal: Proposal) -> Answer:
        async with self._lock:
            answer, entry, duplicate = await self._seq.decide(proposal, self._accept)
            if entry is not None:
                await self._publish_entry(entry)
        if not answer.ok and not duplicate:
            self._refuse(answer.reason or "refused", table=proposal.table, counter=proposal.counter,
                         seat=proposal.seat)
        return answer

    async def _publish_entry(self, entry: HostEntry) -> None:
        # recorded before it is sent: a table may ask for it back at once
        self._store.add(self.epoch, entry)
        self._emit(entry)
        for reader in sorted(self._readers()):  # the playing tables first: their LEDs wait for it
            await self._publish(self.topics.to(reader), entry.view(self.epoch, reader))
        await self._publish(self.topics.entries, entry.view(self.epoch, None))

    def _readers(self) -> set[str]:
        players = {table for table, record in self.presence.items() if record.role == "player"}
        return (set(self._seq.seats) | players) - {self.table}

    async def _catch_up(self, request: CatchUp) -> None:
        presence, asked = self.presence.get(request.table), self._asks.get(request.table)
        if presence is None or presence.run != request.run or (
                asked is not None and asked[0] == request.run and request.counter <= asked[1]):
            # a request of an earlier run of the table, or one answered already: a replay
            self._drop(self.topics.catchup(request.table), "catchup: stale",
                       Stale(f"catch-up request {request.counter} of table {request.table} is not fresh "
                             "(an earlier run's, or asked already): a replay, not answered"))
            return
        self._asks[request.table] = (request.run, request.counter)
        last = self.last_n
        if not self._limit.allow(request.table, request.first, last):
            log.info("room %s: catch-up of table %s from %d not answered: answered just now, or asked "
                     "too often", self.url.room, request.table, request.first)
            return
        if request.epoch == self.epoch:
            for entry in self._store.fetch(self.epoch, request.first,
                                           min(last, request.first + CATCHUP_BATCH - 1)):
                await self._publish(self.topics.to(request.table), entry.view(self.epoch, request.table))
        await self._publish(self.topics.to(request.table), CaughtUp(self.epoch, last))

    async def _presence_changed(self, record: PresenceRecord) -> None:
        async with self._lock:
            changed, refusal = self._claim_seats(record)
            if changed:
                await self._publish_room(new_epoch=False)
        await self._tell_refusals([refusal] if refusal else [])

    def _claim_seats(self, record: PresenceRecord) -> tuple[bool, tuple[str, ClaimRefused] | None]:
        """Grants a present player table the seats it claims: (seats changed, what to tell it)."""
        if record.role != "player" or record.state != "here" or not record.seats:
            return False, None
        changed, refused = self._seq.claim(record.table, record.seats)
        if not refused:
            return changed, None
        reason = "; ".join(refused.values())
        self._refuse(reason, table=record.table, seats=tuple(refused))
        return changed, (record.table, ClaimRefused(tuple(refused), reason))

    async def _tell_refusals(self, refusals: list[tuple[str, ClaimRefused]]) -> None:
        for table, refusal in refusals:
            await self._publish(self.topics.to(table), refusal)


# --- the joined tables ------------------------------------------------------------------------

class JoinedRoom(Room):
    """A table that plays ``seats`` in a room another table hosts.

    Entries come out of ``events()`` strictly in order n, each once, with this table's own
    private part. A restarted table passes the ``epoch`` and ``last_n`` it had applied and
    catches up from there; a new epoch in the room record starts again from n = 1.

    Proposals go out at once, without waiting for the answers to earlier ones (the host
    decides them in the order they were made: ordering.py); the oldest RESEND_BATCH still
    unanswered after RESEND_S are sent again (the host holds the later ones until the gap
    is filled), as after a reconnect.
    """

    RESEND_S = 1.0  # not stretched by the load: a duplicate costs the host little
    RESEND_BATCH = 16
    CHECK_S = 10.0  # a table asks "anything after n?" this often (an entry lost with nothing after it)

    def __init__(self, url: RemoteUrl, table: str, *, seats: Iterable[int] = (), epoch: str | None = None,
                 last_n: int = 0, **room_options: Any) -> None:
        super().__init__(url, table, seats=seats, **room_options)
        self.epoch = epoch
        self._order = InOrder(last_n if epoch else 0)
        self._asked: int | None = None  # the n the last catch-up request asked from
        self._asks = 0  # catch-up requests of this run (CatchUp.counter)
        self._counter = 0
        self._pending: dict[int, tuple[int, Any, asyncio.Future[Answer]]] = {}  # counter -> unanswered
        self._sent: dict[int, float] = {}  # counter -> when it last went out
        self._sending: set[asyncio.Task[None]] = set()
        self._resender: asyncio.Task[None] | None = None
        self.resent = 0  # proposals sent again after RESEND_S without an answer

    @property
    def last_n(self) -> int:
        """The last entry applied (handed to events())."""
        return self._order.last_n

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats the host granted this table."""
        return self.record.seats.get(self.table, ()) if self.record else ()

    async def propose(self, seat: int, payload: Any) -> Answer:
        """Sends an action for ``seat`` to the host and waits for its answer (accepted as entry n,
        or refused). Unanswered proposals are sent again; the host applies each once. Raises
        ProtocolError at once for a payload too large to send."""
        return await asyncio.shield(self.submit(seat, payload))

    def submit(self, seat: int, payload: Any) -> asyncio.Future[Answer]:
        """``propose`` without waiting: the proposal is numbered now, in call order, and sent;
        the future gets its answer."""
        encode(Proposal(self.table, self.run, self._counter + 1, self.epoch or "0", seat, payload))
        self._counter += 1
        answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._pending[self._counter] = (seat, payload, answer)
        if self.epoch is not None:
            task = asyncio.create_task(self._send(self._counter))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
        return answer

    async def close(self) -> None:
        if self._resender is not None:
            self._resender.cancel()
        await super().close()

    # --- inside -------------------------------------------------------------------------

    def _subscriptions(self) -> list[str]:
        return [self.topics.rooms, self.topics.presence(), self.topics.to(self.table)]

    async def _after_connect(self) -> None:
        self._asked = None
        if self._resender is None:
            self._resender = asyncio.create_task(self._resend(), name=f"resend {self.table}")

    async def _resend(self) -> None:
        """Every proposal unanswered for RESEND_S goes out again, oldest first: the broker may
        have dropped it, or its answer (a busy broker drops rather than waits); and every
        CHECK_S the table asks for what came after its last entry."""
        checked = time.monotonic()
        while True:
            await asyncio.sleep(self.RESEND_S / 2)
            if self.epoch is None or not self._link.up:
                continue  # the reconnect sends them all again
            now = time.monotonic()
            overdue = [c for c in sorted(self._pending) if now - self._sent.get(c, now) >= self.RESEND_S]
            for counter in overdue[:self.RESEND_BATCH]:
                if counter in self._pending:
                    self.resent += 1
                    await self._send(counter)
            if now - checked >= self.CHECK_S * load_factor():
                checked = now
                await self._ask(self.last_n + 1)

    async def _handle(self, channel: str, table: str | None, message: Message) -> None:
        if isinstance(message, RoomRecord):
            await self._room_record(message)
        elif self.epoch is None or getattr(message, "epoch", self.epoch) != self.epoch:
            log.info("table %s: dropped a %s of another game", self.table, message.KIND)
        elif isinstance(message, Entry):
            await self._entry(message)
        elif isinstance(message, Answer):
            await self._answer(message)
        elif isinstance(message, CaughtUp):
            if self.last_n < message.last_n and self._asked is not None and self.last_n + 1 > self._asked:
                await self._ask(self.last_n + 1)  # the rest of a long catch-up
        elif isinstance(message, ClaimRefused):
            self._refuse(message.reason, table=self.table, seats=message.seats)

    async def _room_record(self, record: RoomRecord) -> None:
        new_epoch = record.epoch != self.epoch
        changed = new_epoch or not same_room(record, self.record)
        self.record = record
        self.keys.mark("room", record.seq)
        if new_epoch:
            if self.epoch is not None:  # proposals made before any game was known go to the first
                self.keys.leave(self.epoch)  # never to return to it
                self._fail_pending("a new game began before the host answered")
            self.epoch = record.epoch
            self._order.reset()
        if changed:
            self._emit(RoomChange(record, new_epoch))
        # on every record (the host republishes it when it reconnects): catch up, send again
        await self._ask(self.last_n + 1)
        for counter in sorted(self._pending):
            await self._send(counter)

    def _fail_pending(self, reason: str) -> None:
        for counter, (_, _, answer) in sorted(self._pending.items()):
            if not answer.done():
                answer.set_result(Answer(self.epoch or "0", self.run, counter, False, reason=reason))
        self._pending.clear()
        self._sent.clear()

    async def _entry(self, entry: Entry) -> None:
        for due in self._order.offer(entry):
            self._emit(due)
        missing = self._order.missing
        if missing is not None and missing != self._asked:
            log.info("table %s: entry %d missing, asking the host", self.table, missing)
            await self._ask(missing)

    async def _answer(self, answer: Answer) -> None:
        pending = self._pending.pop(answer.counter, None) if answer.run == self.run else None
        if pending is None:
            return  # the answer to a proposal sent twice, or to an earlier run
        self._sent.pop(answer.counter, None)
        seat, _, future = pending
        if not answer.ok:
            self._refuse(answer.reason or "refused", table=self.table, counter=answer.counter, seat=seat)
        if not future.done():
            future.set_result(answer)
        if answer.n is not None and answer.n > self.last_n and self._order.missing is None:
            # the host sends entry n before its answer: entry n was lost on the way (a busy broker)
            await self._ask(self.last_n + 1)

    async def _ask(self, first: int) -> None:
        if self.epoch is None:
            return
        self._asks += 1
        if await self._publish(self.topics.catchup(self.table),
                               CatchUp(self.table, self.epoch, first, self.run, self._asks)):
            self._asked = first

    async def _send(self, counter: int) -> None:
        if counter not in self._pending or self.epoch is None:
            return  # answered, or failed by a new game, meanwhile
        seat, payload, _ = self._pending[counter]
        self._sent[counter] = time.monotonic()
        await self._publish(self.topics.propose(self.table),
                            Proposal(self.table, self.run, counter, self.epoch, seat, payload, min(self._pending)))


class SpectatorRoom(JoinedRoom):
    """Watches a room: public parts only (it reads the public entries topic), never proposes."""

    role = "spectator"

    def __init__(self, url: RemoteUrl, table: str, **room_options: Any) -> None:
        super().__init__(url, table, seats=(), **room_options)

    def _subscriptions(self) -> list[str]:
        return [*super()._subscriptions(), self.topics.entries]

    async def propose(self, seat: int, payload: Any) -> Answer:
        raise PermissionError("a spectator does not propose")

    def submit(self, seat: int, payload: Any) -> asyncio.Future[Answer]:
        raise PermissionError("a spectator does not propose")


# what the session wiring needs, from one place
__all__ = ["Accepted", "EntryRecord", "Event", "HostEntry", "HostRoom", "JoinedRoom", "LinkChange",
           "MemoryRecord", "PresenceChange", "Refusal", "Refused", "Room", "RoomChange", "SpectatorRoom"]

"""The asyncio rooms: ``HostRoom`` (the table whose journal is the record: it sequences
every proposal), ``JoinedRoom`` (a table that plays some seats) and ``SpectatorRoom``
(read-only, public parts only).

    async with JoinedRoom(parse_remote_url("mqtt://broker/club"), "kitchen", seats=[2]) as room:
        answer = await room.propose(2, {"action": "F1"})
        async for event in room.events():   # Entry in order n, PresenceChange, Refusal, ...
            ...

Every message is sealed (seal.py: signed by its sender, encrypted for who may read it) and
checked (protocol.decode); one that cannot be opened, whose signature does not hold, or that
is malformed is logged, reported as a Refusal event, and changes nothing. The room's link
must carry its key (``mqtt://broker/club#KEY``). See docs/remote-play.md for topics, trust
and faults.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import ssl
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, Self

from ..patience import load_factor
from .events import Event, LinkChange, PresenceChange, Refusal, RoomChange, presence_change
from .inbox import ROOM, STRANGER
from .limits import CATCHUP_BATCH, CatchUpLimit
from .link import Link
from .ordering import InOrder, ProposalOrder
from .protocol import (CHANNEL_KINDS, Answer, CatchUp, CaughtUp, ClaimRefused, Entry, Message,
                       PresenceRecord, ProtocolError, Proposal, RoomRecord, Topics, decode, encode, valid_id)
from .seal import PAIRWISE, Identity, Seal, SealError, room_key
from .sequencer import Accepted, AcceptFn, HostEntry, Refused, Sequencer
from .tally import Tally
from .url import RemoteUrl

log = logging.getLogger(__name__)


class Room:
    """What host, players and spectators share: the link, presence, checked messages, events."""

    role = "player"

    def __init__(self, url: RemoteUrl, table: str, *, seats: Iterable[int] = (), keepalive: int = 30,
                 backoff: tuple[float, float] = (0.5, 30.0), tls_context: ssl.SSLContext | None = None,
                 on_event: Callable[[Event], None] | None = None, identity: Identity | None = None) -> None:
        if not valid_id(table):
            raise ValueError(f"table id {table!r}: use 1-64 of A-Z a-z 0-9 _ -")
        if not url.key:
            raise ValueError(f"{url}: the room's link has no key: add #KEY (the host table's link has it)")
        # a table that keeps its identity (the daemon does) is the same table after a restart
        self._seal = Seal(room_key(url.room, url.key), identity or Identity.fresh(), table)
        self.url = url
        self.table = table
        self.topics = Topics(url.room)
        self.run = secrets.token_hex(8)  # names this Room object's proposals (see Proposal.run)
        self.record: RoomRecord | None = None
        self.presence: dict[str, PresenceRecord] = {}
        self._claim = tuple(seats)
        self._on_event = on_event
        self._events: asyncio.Queue[Event] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._up = asyncio.Event()
        self._closing = False
        # junk is counted, and logged once a minute (a flood must not fill the disk)
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
        await self._publish(self.topics.presence(self.table), self._presence("gone"), retain=True)
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
        await self._publish(self.topics.presence(self.table), self._presence("here"), retain=True)
        await self._after_connect()
        self._up.set()

    async def _message(self, topic: str, data: bytes) -> None:
        try:
            channel, table = self.topics.split(topic)
            signature, body = self._seal.open(topic, channel, self._peer(channel, table), data)
        except (ProtocolError, SealError) as exc:
            # the room record unread: this table's key is not the room's, and it must say so
            self._refuse(f"refused a message on {topic}: {exc}", key=topic == self.topics.room, topic=topic)
            return
        try:
            message = decode(body, CHANNEL_KINDS[channel])
            # a table's own topics carry only its own messages, signed by it
            if channel != "to" and table is not None and getattr(message, "table") != table:
                raise ProtocolError(f"table {getattr(message, 'table')!r} sent on {topic!r}")
            self._check_signature(topic, channel, table, message, signature, body)
        except (ProtocolError, SealError) as exc:
            self._refuse(f"refused a message on {topic}: {exc}", topic=topic)
            return
        if isinstance(message, PresenceRecord):
            await self._presence_record(message)
        else:
            await self._handle(channel, table, message)

    async def _presence_record(self, record: PresenceRecord) -> None:
        if record.table == self.table:
            if record.state == "gone" and self._link.up and not self._closing:
                # our own last will, sent late by the broker for a link we already replaced
                await self._publish(self.topics.presence(self.table), self._presence("here"), retain=True)
            return
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
            if self.record is not None and message.host != self.record.host:
                raise SealError(f"the room record names host {message.host}, not {self.record.host}")
            self._seal.verify(message.host, topic, signature, body, announced=message.keys)
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

    def _refuse(self, reason: str, topic: str | None = None, **what: Any) -> None:
        if topic is not None:  # a message dropped: counted per topic, a line a minute
            self._tally.count(topic, reason.removeprefix(f"refused a message on {topic}: "))
        else:
            log.warning("room %s, table %s: refused: %s", self.url.room, self.table, reason)
        self._emit(Refusal(reason, **what))

    def _presence(self, state: str) -> PresenceRecord:
        return PresenceRecord(self.table, state, self.role, self._claim, self._seal.identity.public)

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
        self._game = (game, players, dict(options or {}), layout)
        epoch = epoch or secrets.token_hex(8)
        history = self._store.fetch(epoch, 1, last_n) if last_n else ()
        self._seq = Sequencer(table, epoch, seats, claimable, history)
        self.record = self._room_record()

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
        return [self.topics.presence(), self.topics.propose(), self.topics.catchup()]

    async def _after_connect(self) -> None:
        self._limit = CatchUpLimit()  # every table catches up after the host's reconnect
        # the broker may have lost the retained record in a restart; tables catch up on seeing it
        await self._publish_room(new_epoch=False)

    def _room_record(self) -> RoomRecord:
        game, players, options, layout = self._game
        return RoomRecord(self.table, self.epoch, game, players, options, dict(self._seq.seats), layout,
                          self._seal.identity.public)

    async def _publish_room(self, *, new_epoch: bool) -> None:
        before = self.record
        self.record = self._room_record()
        if new_epoch or self.record != before:
            self._emit(RoomChange(self.record, new_epoch))
        await self._publish(self.topics.room, self.record, retain=True)

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
        return [self.topics.room, self.topics.presence(), self.topics.to(self.table)]

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
        changed = new_epoch or record != self.record
        self.record = record
        if new_epoch:
            if self.epoch is not None:  # proposals made before any game was known go to the first
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
        if self.epoch is not None and await self._publish(
                self.topics.catchup(self.table), CatchUp(self.table, self.epoch, first)):
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

"""The host's room: the table whose journal is the record. It numbers every accepted
proposal, once, and sends each entry to every table with that table's own private part.

    room = HostRoom(url, "kitchen", accept=accept, game=name, players=2,
                    seats={"kitchen": [0]}, claimable=[1], record=store)
    async with room:
        entry = await room.append({"cells": ...})       # the host's own (a deal, a frame)
        answer = await room.propose(0, {"press": "confirm"})

What it shares with every room is room_core.py; the sequencing is sequencer.py, each table's
order ordering.py, the kept entries entry_record.py (record.py in the product), the answers
to catch-up requests catch_up.py.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from .admission import Stale
from .catch_up import CatchUpDesk
from .entry_record import EntryRecord, MemoryRecord
from .events import RoomChange
from .ordering import ProposalOrder
from .protocol import Answer, CatchUp, ClaimRefused, Message, PresenceRecord, Proposal, RoomRecord, encode
from .room_core import Room, log, same_room
from .sequencer import Accepted, AcceptFn, HostEntry, Sequencer
from .url import RemoteUrl


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
        self._desk = CatchUpDesk(self._store)
        self._arrivals = ProposalOrder()  # each table's proposals decided in the order it made them
        self._aside: set[asyncio.Task[bool]] = set()  # room records whose acknowledgement is awaited
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
            # published before anything of the new game: the record announces the host's new game key
            await self._publish_room(new_epoch=True)
        await self._tell_refusals([refusal for _, refusal in claims if refusal])
        return self.epoch

    async def close(self) -> None:
        for task in list(self._aside):
            task.cancel()
        await super().close()

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
        self._desk.reconnected()  # every table catches up after the host's reconnect
        # the broker may have lost the retained record in a restart; tables catch up on seeing it
        await self._publish_room(new_epoch=False)

    def _room_record(self) -> RoomRecord:
        game, players, options, layout = self._game
        return RoomRecord(self.table, self.epoch, game, players, options, dict(self._seq.seats), layout,
                          self._seal.identity.public, self.keys.next_seq(), self._seal.ephemeral)

    async def _publish_room(self, *, new_epoch: bool) -> None:
        await self._publish_own(self.topics.room, self._renew_record(new_epoch=new_epoch))

    def _renew_record(self, *, new_epoch: bool) -> RoomRecord:
        before = self.record
        self.record = record = self._room_record()
        if new_epoch or not same_room(record, before):
            self._emit(RoomChange(record, new_epoch))
        return record

    def _publish_room_soon(self) -> None:
        """The room record renewed (the seats changed) and published aside: a busy broker may drop
        its acknowledgement (the wait then lasts the publish's timeout), and meanwhile the host
        goes on reading proposals and sending entries. Nothing sent meanwhile needs it first: the
        game and the host's keys are as before; a record the broker lost is put back (own_records)."""
        task = asyncio.create_task(self._publish_own(self.topics.room, self._renew_record(new_epoch=False)),
                                   name=f"room record {self.url.room}")
        self._aside.add(task)
        task.add_done_callback(self._aside.discard)

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
        try:
            self._desk.check(request, self.presence.get(request.table))
        except Stale as exc:
            self._drop(self.topics.catchup(request.table), "catchup: stale", exc)
            return
        answer = self._desk.answer(request, self.epoch, self.last_n)
        if answer is None:
            log.info("room %s: catch-up of table %s from %d not answered: answered just now, or asked "
                     "too often", self.url.room, request.table, request.first)
            return
        for message in answer:
            await self._publish(self.topics.to(request.table), message)

    async def _presence_changed(self, record: PresenceRecord) -> None:
        async with self._lock:
            changed, refusal = self._claim_seats(record)
            if changed:
                self._publish_room_soon()
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

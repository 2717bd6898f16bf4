"""The rooms of the tables that join: ``JoinedRoom`` (a table that plays some seats of a game
another table hosts) and ``SpectatorRoom`` (read-only: the public parts only).

    async with JoinedRoom(url, "attic", seats=[2]) as room:
        answer = await room.propose(2, {"action": "F1"})
        async for event in room.events():   # Entry in order n, RoomChange, PresenceChange, ...
            ...

What it shares with every room is room_core.py; entries come out in order (ordering.py).
Nothing depends on one message arriving: a proposal unanswered for a while is sent again,
a missing entry is asked for (the host answers duplicates with its first answer).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from typing import Any

from ..patience import load_factor
from .events import RoomChange
from .ordering import InOrder
from .protocol import Answer, CatchUp, CaughtUp, ClaimRefused, Entry, Message, Proposal, RoomRecord, encode
from .room_core import Room, log, same_room
from .url import RemoteUrl


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

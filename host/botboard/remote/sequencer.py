"""The host numbers accepted proposals: each proposal is decided once, in arrival order.

Pure bookkeeping, no MQTT: who owns which seat, the answer given to each proposal
``(table, run, counter)`` (a duplicate gets the same answer, and is never applied twice),
and the next n of the epoch. The game's rules decide through the ``accept`` callback.
"""

from __future__ import annotations

import dataclasses
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from .protocol import Answer, Entry, ProtocolError, Proposal, encode

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Accepted:
    """The rules accept the proposal: what every table sees, and what only some tables see."""
    public: Any
    private: Mapping[str, Any] = dataclasses.field(default_factory=dict)  # table -> its part


@dataclasses.dataclass(frozen=True)
class Refused:
    reason: str


Decision = Accepted | Refused
# accept(table, seat, payload): may be a plain function or a coroutine function
AcceptFn = Callable[[str, int, Any], Decision | Awaitable[Decision]]


@dataclasses.dataclass(frozen=True)
class HostEntry:
    """An entry as the host records it: every private part, and the proposal it came from."""
    n: int
    table: str
    seat: int | None
    public: Any
    private: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    run: str | None = None  # (run, counter) of the proposal; None for the host's own entries
    counter: int | None = None

    def view(self, epoch: str, table: str | None) -> Entry:
        """The entry as ``table`` may see it (None: the public part only)."""
        private = self.private.get(table) if table is not None else None
        return Entry(epoch=epoch, n=self.n, table=self.table, public=self.public, seat=self.seat,
                     private=private)


class Sequencer:
    def __init__(self, host: str, epoch: str, seats: Mapping[str, Iterable[int]],
                 claimable: Iterable[int] = (), history: Iterable[HostEntry] = ()) -> None:
        self.host = host
        self.epoch = epoch
        self.seats: dict[str, tuple[int, ...]] = {table: tuple(owned) for table, owned in seats.items()}
        self.claimable = frozenset(claimable)
        self.last_n = 0
        self._answers: dict[tuple[str, str, int], Answer] = {}
        for entry in history:  # a restarted host remembers which proposals it already applied
            self.last_n = max(self.last_n, entry.n)
            if entry.run is not None and entry.counter is not None:
                self._answers[entry.table, entry.run, entry.counter] = Answer(
                    epoch, entry.run, entry.counter, True, n=entry.n)

    def decided(self, table: str, run: str, counter: int) -> bool:
        """Whether proposal ``(table, run, counter)`` has its answer (a duplicate gets it again)."""
        return (table, run, counter) in self._answers

    def owner(self, seat: int) -> str | None:
        return next((table for table, owned in self.seats.items() if seat in owned), None)

    def claim(self, table: str, seats: Iterable[int]) -> tuple[bool, dict[int, str]]:
        """Grants ``table`` the free claimable seats it asks for: (seats changed, refused seat -> why)."""
        changed, refused = False, {}
        for seat in seats:
            owner = self.owner(seat)
            if owner == table:
                continue
            if owner is not None:
                refused[seat] = f"seat {seat} belongs to table {owner}"
            elif seat not in self.claimable:
                refused[seat] = f"seat {seat} is not open to remote tables"
            else:
                self.seats[table] = (*self.seats.get(table, ()), seat)
                changed = True
        return changed, refused

    def new_entry(self, table: str, seat: int | None, accepted: Accepted,
                  proposal: Proposal | None = None) -> HostEntry:
        """The next entry (n not yet taken: ``commit`` takes it); refused if too large to send."""
        entry = HostEntry(self.last_n + 1, table, seat, accepted.public, dict(accepted.private),
                          proposal.run if proposal else None, proposal.counter if proposal else None)
        for reader in (None, *entry.private):
            encode(entry.view(self.epoch, reader))  # raises ProtocolError when over the size limit
        return entry

    def commit(self, entry: HostEntry) -> None:
        self.last_n = entry.n

    async def decide(self, proposal: Proposal, accept: AcceptFn) -> tuple[Answer, HostEntry | None, bool]:
        """(the answer, the new entry if accepted, whether this is a duplicate of one decided before)."""
        key = (proposal.table, proposal.run, proposal.counter)
        if key in self._answers:
            return self._answers[key], None, True
        entry = None
        reason = self._refusal(proposal)
        if reason is None:
            decision = await _decide(accept, proposal)
            if isinstance(decision, Refused):
                reason = decision.reason[:500] or "refused"
            else:
                try:
                    entry = self.new_entry(proposal.table, proposal.seat, decision, proposal)
                except ProtocolError as exc:
                    reason = f"entry too large: {exc}"
        if entry is not None:
            self.commit(entry)
            answer = Answer(proposal.epoch, proposal.run, proposal.counter, True, n=entry.n)
        else:
            answer = Answer(proposal.epoch, proposal.run, proposal.counter, False, reason=reason)
        self._answers[key] = answer
        return answer, entry, False

    def _refusal(self, proposal: Proposal) -> str | None:
        if proposal.epoch != self.epoch:
            return f"epoch {proposal.epoch} is not the current game ({self.epoch})"
        if proposal.table not in self.seats:
            return f"unknown table {proposal.table}"
        if proposal.seat not in self.seats[proposal.table]:
            owner = self.owner(proposal.seat)
            return f"seat {proposal.seat} belongs to {'table ' + owner if owner else 'no table'}"
        return None


async def _decide(accept: AcceptFn, proposal: Proposal) -> Decision:
    try:
        decision = accept(proposal.table, proposal.seat, proposal.payload)
        if inspect.isawaitable(decision):
            decision = await decision
    except Exception:
        # the rules failing on one proposal must not stop the room: refuse it and say so
        log.exception("accept() failed on %s's proposal %d", proposal.table, proposal.counter)
        return Refused("the host failed to decide on it")
    if not isinstance(decision, Accepted | Refused):
        log.error("accept() returned %r, not Accepted or Refused", decision)
        return Refused("the host failed to decide on it")
    return decision

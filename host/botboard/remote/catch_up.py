"""The host's answers to the tables' catch-up requests ("entries from n, please").

    desk = CatchUpDesk(store)
    desk.check(request, presence)            # Stale: a replayed request, not answered
    messages = desk.answer(request, epoch, last_n)   # None: asked too often (limits.py)

A request is fresh when it names the asking table's current run (from its latest presence
record) and a counter above the last one answered: captured requests replayed draw nothing,
however many (each answer is many times the request's size). A fresh request is answered
within limits.py's bounds: at most CATCHUP_BATCH entries, each with the asking table's own
private part, and one CaughtUp naming the host's last entry.
"""

from __future__ import annotations

from .admission import Stale
from .entry_record import EntryRecord
from .limits import CATCHUP_BATCH, CatchUpLimit
from .protocol import CatchUp, CaughtUp, Entry, PresenceRecord


class CatchUpDesk:
    def __init__(self, store: EntryRecord) -> None:
        self._store = store
        self._asks: dict[str, tuple[str, int]] = {}  # table -> (run, counter) of its last request
        self._limit = CatchUpLimit()

    def reconnected(self) -> None:
        """The host's link came back: every table catches up afresh."""
        self._limit = CatchUpLimit()

    def check(self, request: CatchUp, presence: PresenceRecord | None) -> None:
        """Stale unless ``request`` is of the table's current run and newer than its last one."""
        asked = self._asks.get(request.table)
        if presence is None or presence.run != request.run or (
                asked is not None and asked[0] == request.run and request.counter <= asked[1]):
            raise Stale(f"catch-up request {request.counter} of table {request.table} is not fresh "
                        "(an earlier run's, or asked already): a replay, not answered")
        self._asks[request.table] = (request.run, request.counter)

    def answer(self, request: CatchUp, epoch: str, last_n: int) -> list[Entry | CaughtUp] | None:
        """What to send the asking table, or None when it asked too often."""
        if not self._limit.allow(request.table, request.first, last_n):
            return None
        entries = self._store.fetch(epoch, request.first, min(last_n, request.first + CATCHUP_BATCH - 1)) \
            if request.epoch == epoch else ()
        return [*(entry.view(epoch, request.table) for entry in entries), CaughtUp(epoch, last_n)]

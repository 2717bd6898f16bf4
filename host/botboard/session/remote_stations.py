"""Stations read at another table (remote play, botboard.remote).

A seat that plays at another table has its station's slots and buttons read by
that table's board; this board's own station of that seat is empty and says
nothing. When the seating changes (Goblins' teams move between yards), a station
whose seat moved between tables is read anew from the board that now has it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..board.layouts import Layout
    from .boardmap import BoardMap
    from .seating import Seating
    from .table import Table


class RemoteStations:
    if TYPE_CHECKING:  # what it reads and sets of the session (session.py sets them)
        layout: Layout
        table: Table
        seating: Seating | None
        bmap: BoardMap | None
        clock: Callable[[], float]

    remote_seats: frozenset[int]  # seats played at another table (set by botboard.remote)
    _local_slots: dict[int, tuple[bool, bytes, bytes]]  # this board's slots, while elsewhere

    def plays_here(self, seat: int) -> bool:
        """Whether ``seat`` is played at this table (its view is private to the table where it
        is played: the console opens only these seats)."""
        return seat not in self.remote_seats

    def _read_here(self, seat: int | None, remote: bool) -> bool:
        """Whether an input (``remote``: sent by another table) is the one its seat's station
        is read from; a seat's local station is silent when it plays elsewhere, and back."""
        return (seat is not None and seat in self.remote_seats) == remote

    def _note_local(self, slot: int, state: int, uid: bytes, payload: bytes) -> None:
        """What this board's slot holds, kept while another table's board stands in for it."""
        self._local_slots[slot] = (bool(state), uid, payload)

    def slots_here_holding(self, uid: bytes) -> list[int]:
        """This board's slots where a tag ``uid`` lies now, whoever's station they are."""
        return [slot for slot, (present, held, _) in self._local_slots.items() if present and held == uid]

    def _seat(self, seating: Seating, bmap: BoardMap) -> None:
        """Take a new seating; slots whose station moved between tables are read anew."""
        before = self.seating
        self.seating, self.bmap = seating, bmap
        if before is None or not self.remote_seats:
            return
        for slot in range(self.layout.slot_count):
            was, now = before.slot(slot), seating.slot(slot)
            remote_now = now is not None and now.seat in self.remote_seats
            if (was is not None and was.seat in self.remote_seats) == remote_now:
                continue
            if remote_now:  # the other table says what it holds (it sends its slots on a new seating)
                self.table.update(slot, False, b"", b"", self.clock(), "")
            else:
                self.table.update(slot, *self._local_slots.get(slot, (False, b"", b"")), self.clock(), "")

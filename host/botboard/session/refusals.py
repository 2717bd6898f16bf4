"""A refusal lives exactly as long as its cause.

A part of ``GameSession`` (session.py) with one job. A confirm refused (a tile
that cannot count, a program the rules do not allow, a slot that does not read
steadily) is said to its seat and shown at its station. After every change of
the slots the station is judged again, as a confirm would judge it; once it is
no longer refused for that reason (put right, or changed into something else),
the refusal goes from the phone, the station card and the shared screen. A new
cause is said at the next confirm, not before: hands are still at work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .hints import slot_words

if TYPE_CHECKING:
    from .mapping import TableMapping
    from .seating import Seating
    from .table import Table


class Refusals:
    if TYPE_CHECKING:  # what it reads and sets of the session (session.py sets them)
        state: Any
        seating: Seating | None
        mapping: TableMapping[Any]
        table: Table
        clock: Callable[[], float]
        controls: dict[int, dict[str, Any]]
        refusals: dict[int, tuple[str, str, str]]
        seat_messages: dict[int, str]
        station_words: dict[int, str]
        message: str
        message_seat: int | None

        def acting(self) -> list[int]: ...
        def _read(self, seat: int) -> Any: ...
        def _slot_name(self, slot: int) -> str: ...
        def _turn_words(self) -> str: ...

    def _unsure(self, seat: int) -> tuple[str, list[int]] | None:
        """Slots of the seat that do not read steadily, and the words that say so."""
        assert self.seating is not None
        now = self.clock()
        unsure = [s for s in self.seating.slots_of(seat) if self.table.flickering(s, now) or self.table.doubled(s, now)]
        if not unsure:
            return None
        names = ", ".join(slot_words(self._slot_name(s)) for s in unsure)
        return (f"{names} {'does' if len(unsure) == 1 else 'do'} not read steadily (a tile half in, "
                "or two tiles): fix it, then confirm"), unsure

    def _refused_for(self, seat: int) -> str | None:
        """Why a confirm of the seat would be refused now (None: it would not)."""
        assert self.seating is not None
        unsure = self._unsure(seat)
        if unsure:
            return unsure[0]
        verdict = self.mapping.judge(self.state, seat, self._read(seat), self.seating.slots_of(seat),
                                     self.controls.get(seat, {}))
        return None if verdict.ok else verdict.message

    def _forget_refusals(self) -> bool:
        """Drop the refusals whose cause is gone; True if one went."""
        acting = self.acting()
        gone = [seat for seat, (cause, _, _) in self.refusals.items()
                if seat not in acting or self._refused_for(seat) != cause]
        for seat in gone:
            _, mine, table = self.refusals.pop(seat)
            if self.seat_messages.get(seat) == mine:
                del self.seat_messages[seat]
            if self.station_words.get(seat) in (mine, table):
                del self.station_words[seat]
            if self.message in (mine, table):
                self.message, self.message_seat = self._turn_words(), None
        return bool(gone)

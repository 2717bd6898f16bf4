"""Reading stations and saying what the table must put right.

A part of ``GameSession`` (session.py) with one job: what each station's
slots hold (tiles, or why a tag cannot count), and the table check after
every change: tiles that differ from the game at stations that are not
programming, slots that do not read steadily, programs changed after
confirm, buttons held down. Wrong slots blink on the robot they program; the
words stay at the station until they no longer apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from bbshared import messages as m

from .hints import tile_key
from .mapping import TileError

if TYPE_CHECKING:
    from ..link.image import CellState
    from .mapping import TableMapping
    from .seating import Seating
    from .table import Table


class StationChecks:
    if TYPE_CHECKING:  # what it reads and sets of the session (session.py sets them)
        state: Any
        seating: Seating | None
        mapping: TableMapping[Any]
        table: Table
        clock: Callable[[], float]
        mode: str
        confirmed: dict[int, tuple[str, list[bytes | None]]]
        alerts: dict[int, CellState]
        held: dict[int, int]
        table_words: dict[int, str]
        clearing: dict[int, set[int]]

        def _still_clearing(self) -> bool: ...
        def _forget_refusals(self) -> bool: ...
        def _cleared(self) -> None: ...
        def clear_words(self, seat: int, public: bool = False) -> str: ...
        def acting(self) -> list[int]: ...
        def seat_name(self, seat: int) -> str: ...
        def is_computer(self, seat: int) -> bool: ...
        def say(self, text: str, seat: int | None = None) -> None: ...
        def _tell(self, seat: int, text: str) -> None: ...
        def _draw(self) -> None: ...
        def _publish_view(self) -> None: ...

    def _uids(self, seat: int) -> list[bytes | None]:
        assert self.seating is not None
        return [r.uid if (r := self.table.reading(s)) else None for s in self.seating.slots_of(seat)]

    def _tiles(self, seat: int) -> list[Any]:
        """Per slot of the seat: None (empty), the tile, or the TileError saying why not."""
        assert self.seating is not None
        tiles: list[Any] = []
        for slot in self.seating.slots_of(seat):
            reading = self.table.reading(slot)
            if reading is None:
                tiles.append(None)
                continue
            if reading.trouble:  # the board cannot read it cleanly: it counts as nothing yet
                tiles.append(TileError(reading.trouble))
                continue
            try:
                tiles.append(self.mapping.identify(reading.uid, reading.payload))
            except TileError as err:
                tiles.append(err)
        return tiles

    def _take_back(self, before: Any = None) -> dict[int, list[str]]:
        """Per seat, what to change in its slots for the game as it stands (after an undo
        of ``before``): "slot A2: take out Forward 2x, put in Turn left". A seat programming
        again keeps its tiles when its station is its own until it confirms (simultaneous
        programming) or the undone action did not change it (VOLT: undoing one operator's
        program leaves the other's dice alone)."""
        assert self.seating is not None
        out: dict[int, list[str]] = {}
        acting = self.mapping.acting_seats(self.state)
        for seat in [s for s in range(self.seating.players) if self.seating.holds(s) and not self.is_computer(s)]:
            wanted = self.mapping.station_tiles(self.state, seat)
            if seat in acting and (self.mapping.simultaneous or before is not None and _keys(
                    self.mapping, wanted) == _keys(self.mapping, self.mapping.station_tiles(before, seat))):
                continue  # (programming at once, a seat's slots are its own until it confirms)
            want = [None if t is None else self.mapping.tile_words(t) for t in wanted]
            have = self._slot_words(seat)
            same = [a == b for a, b in zip(_keys(self.mapping, wanted), _keys(self.mapping, self._tiles(seat)))]
            for pos, (was, now) in enumerate(zip(want, have)):
                if not same[pos]:
                    name = self.mapping.slot_name(self.state, pos)
                    change = ", ".join(([f"take out {now}"] if now else []) + ([f"put in {was}"] if was else []))
                    out.setdefault(seat, []).append(f"slot {name}: {change}")
        return out

    def _read(self, seat: int) -> Any:
        assert self.seating is not None
        return self.mapping.read_station(self.state, seat, self._tiles(seat),
                                         self.seating.slots_of(seat))

    def _slot_name(self, slot: int) -> str:
        assert self.seating is not None
        ref = self.seating.slot(slot)
        return self.mapping.slot_name(self.state, ref.pos) if ref else str(slot)

    def _slot_words(self, seat: int) -> list[str | None]:
        """What the seat's slots read, tile by tile, as its owner names them."""
        out: list[str | None] = []
        for tile in self._tiles(seat):
            out.append(None if tile is None else str(tile) if isinstance(tile, TileError)
                       else self.mapping.tile_words(tile))
        return out

    def _mark_slots(self, slots: list[int]) -> None:
        """Wrong slots blink red: on the robot each one programs (slots carry no LEDs)."""
        assert self.seating is not None
        for slot in slots:
            ref = self.seating.slot(slot)
            if ref is None:
                continue
            mark = self.mapping.mark(self.state, ref.seat, ref.pos, "alert", m.BLINK)
            if mark is not None:
                self.alerts[mark[0]] = mark[1]

    def _hold(self, button: int) -> None:
        """A button held down or stuck: its station's robots blink until it is released."""
        if self.seating is None:
            return
        try:
            seat, _ = self.seating.button(button)
        except ValueError:
            return
        if seat is not None:
            self.held[button] = seat
            self._check_table()

    def _check_table(self) -> None:
        """Show what to fix: tiles that differ from the game at stations that are not
        programming, tiles that cannot count, slots that do not read steadily, programs
        changed after confirm, buttons held down."""
        state, seating = self.state, self.seating
        if state is None or seating is None:
            return
        if self.mode == "clear" and not self._still_clearing():
            self._cleared()  # the board matches the game again: it says whose turn it is
            return
        refusal_gone = self._forget_refusals()
        self.alerts.clear()
        before, self.table_words = self.table_words, {}
        now = self.clock()
        problems: list[str] = []
        private: dict[int, list[str]] = {}
        marked: list[int] = []  # slots whose robot blinks
        acting = self.acting()
        for seat in [s for s in range(seating.players)  # a shared station once; the computer's none
                     if seating.holds(s) and not self.is_computer(s)]:
            slots = seating.slots_of(seat)
            marked += [s for s in slots if self.table.doubled(s, now) or self.table.flickering(s, now)]
            if seat in self.held.values():
                marked += slots
            wrong, fixes = self._station_problems(seat, slots, seat in acting)
            marked += wrong
            if fixes:
                problems.append(fixes[0])
                self.table_words[seat] = fixes[0]
                private.setdefault(seat, []).extend(fixes[1:])
        self._mark_slots(marked)  # one scene for all of them
        if problems:
            if self.mapping.private_refusals():
                for seat, words in private.items():
                    if words:
                        self._tell(seat, "; ".join(words))
            self.say("; ".join(problems))
        self._draw()
        if self.table_words != before or refusal_gone:  # every console shows, at each station, what to put right
            self._publish_view()

    def _station_problems(self, seat: int, slots: list[int], acting: bool) -> tuple[list[int], list[str]]:
        """(slots to mark, [words for all, then words for the seat alone]) of one station."""
        name = self.seat_name(seat)
        secret = self.mapping.private_refusals()
        if seat in self.clearing:  # the game emptied these slots: said in the rules' words
            words = [self.clear_words(seat, public=True)] + ([self.clear_words(seat)] if secret else [])
            return [slots[p] for p in sorted(self.clearing[seat])], words
        reading = self._read(seat)
        if acting:
            if not reading.problems:
                return [], []
            said = "; ".join(reading.problems.values())
            return list(reading.problems), ([f"{name}: a tile cannot count", said] if secret
                                            else [f"{name}: {said}"])
        if seat in self.confirmed:
            uids = self._uids(seat)
            wrong = [s for s, was, now in zip(slots, self.confirmed[seat][1], uids) if was != now]
            if not wrong:
                return [], []
            return wrong, [f"{name}'s tiles moved after confirming: put them back as they were "
                           "(the blinking robot shows the station)"]
        wrong, fixes = self.mapping.check_station(self.state, seat, reading, slots)
        wrong += [s for s in reading.problems if s not in wrong]
        if not wrong:
            return [], []
        fixes = fixes or list(reading.problems.values())
        why = "while the robots run" if self.mode == "animate" else "out of turn"
        if secret:
            return wrong, [f"{name}'s tiles moved {why}: see your seat view", ", ".join(fixes)]
        return wrong, [f"{name}'s tiles moved {why}: " + ", ".join(fixes)]


def _keys(mapping: TableMapping[Any], tiles: list[Any]) -> list[Any]:
    return [tile_key(mapping, t) for t in tiles]

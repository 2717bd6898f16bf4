"""Who sits where: layout stations, slots and buttons -> seats and station positions.

The game's table mapping says which station each seat plays at
(``TableMapping.seat_stations``); a station's slots are its positions 0, 1,
... left to right. Stations left without a seat are inactive: tags read
there are refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board.layouts import Layout

ROLES = ("confirm", "cancel", "previous", "next")


@dataclass(frozen=True)
class SlotRef:
    seat: int
    pos: int  # position in the seat's station, 0 = leftmost slot


class Seating:
    def __init__(self, layout: Layout, station_of: tuple[int, ...], slots_per_seat: int,
                 holders: dict[int, int] | None = None) -> None:
        self.layout = layout
        self.station_of = station_of
        # a station several seats share answers to its holder (the mapping says who)
        self.seat_of_station = {st: seat for seat, st in reversed(list(enumerate(station_of)))}
        self.seat_of_station.update(holders or {})
        self.per_seat = slots_per_seat
        self._slots: dict[int, SlotRef | None] = {}
        for st, station in enumerate(layout.stations):
            seat = self.seat_of_station.get(st)
            for pos, slot in enumerate(station.slots):
                self._slots[slot] = None if seat is None or pos >= slots_per_seat else SlotRef(seat, pos)

    @property
    def players(self) -> int:
        return len(self.station_of)

    def slot(self, slot: int) -> SlotRef | None:
        """The seat and position of a physical slot; None on an inactive station."""
        return self._slots.get(slot)

    def holds(self, seat: int) -> bool:
        """Whether the seat's station answers to it now (always, unless seats share it)."""
        return self.seat_of_station.get(self.station_of[seat]) == seat

    def station_name(self, slot: int) -> str:
        station, _ = self.layout.slot_owner(slot)
        return self.layout.stations[station].name

    def seat_station_name(self, seat: int) -> str:
        return self.layout.stations[self.station_of[seat]].name

    def slots_of(self, seat: int) -> list[int]:
        """The physical slots of a seat, in station order."""
        return list(self.layout.stations[self.station_of[seat]].slots[:self.per_seat])

    def physical(self, seat: int, pos: int) -> int:
        return self.slots_of(seat)[pos]

    def button(self, button: int) -> tuple[int | None, str]:
        """(seat or None for an inactive station, role) of a physical button."""
        station, role = self.layout.button_owner(button)
        return self.seat_of_station.get(station), role

    def button_of(self, seat: int, role: str) -> int:
        return self.layout.stations[self.station_of[seat]].buttons[role]

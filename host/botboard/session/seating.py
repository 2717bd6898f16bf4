"""Who sits where: layout stations and slots -> seats, robots and program slots.

Each seat gets the station nearest its base (by compass direction from the
arena centre, the best assignment over all stations); a station's six slots
are robot A's three program slots left to right, then robot B's. Stations
left without a seat are inactive: tags read there are refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import permutations

from ..layouts import Layout

_COMPASS = {"east": 0, "north-east": 45, "north": 90, "north-west": 135, "west": 180,
            "south-west": 225, "south": 270, "south-east": 315}
ROLES = ("confirm", "cancel", "previous", "next")


class SeatingError(ValueError):
    pass


@dataclass(frozen=True)
class SlotRef:
    seat: int
    robot: int  # 0 robot A, 1 robot B
    slot: int  # 0..2 in that robot's program

    @property
    def name(self) -> str:
        return f"{'AB'[self.robot]}{self.slot + 1}"


def _angle(q: int, r: int) -> float:
    """Compass angle (degrees, east 0, counter-clockwise, north 90) of a hex; r grows southwards."""
    x = math.sqrt(3) * (q + r / 2)
    y = -1.5 * r
    return math.degrees(math.atan2(y, x)) % 360


def _gap(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return min(d, 360 - d)


class Seating:
    def __init__(self, layout: Layout, bases: list[tuple[int, int]]) -> None:
        self.layout = layout
        players = len(bases)
        if players > len(layout.stations):
            raise SeatingError(f"layout {layout.id} has {len(layout.stations)} stations, not "
                               f"enough for {players} players (6 players need ttb-big)")
        wanted = [_angle(q, r) for q, r in bases]
        angles = [_COMPASS.get(s.name, 360.0 * i / len(layout.stations))
                  for i, s in enumerate(layout.stations)]
        best = min(permutations(range(len(angles)), players),
                   key=lambda pick: sum(_gap(wanted[s], angles[st]) for s, st in enumerate(pick)))
        self.station_of: tuple[int, ...] = tuple(best)
        self.seat_of_station = {st: seat for seat, st in enumerate(best)}
        self._slots: dict[int, SlotRef | None] = {}
        for st, station in enumerate(layout.stations):
            seat = self.seat_of_station.get(st)
            for pos, slot in enumerate(station.slots):
                self._slots[slot] = None if seat is None or pos >= 6 else SlotRef(seat, pos // 3, pos % 3)

    @property
    def players(self) -> int:
        return len(self.station_of)

    def slot(self, slot: int) -> SlotRef | None:
        """The program slot a physical slot stands for; None on an inactive station."""
        return self._slots.get(slot)

    def station_name(self, slot: int) -> str:
        station, _ = self.layout.slot_owner(slot)
        return self.layout.stations[station].name

    def slots_of(self, seat: int) -> list[int]:
        """The six physical slots of a seat: A1 A2 A3 B1 B2 B3."""
        return list(self.layout.stations[self.station_of[seat]].slots[:6])

    def physical(self, seat: int, robot: int, slot: int) -> int:
        return self.slots_of(seat)[3 * robot + slot]

    def button(self, button: int) -> tuple[int | None, str]:
        """(seat or None for an inactive station, role) of a physical button."""
        station, role = self.layout.button_owner(button)
        return self.seat_of_station.get(station), role

    def button_of(self, seat: int, role: str) -> int:
        return self.layout.stations[self.station_of[seat]].buttons[role]

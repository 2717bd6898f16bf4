"""Hex arenas as precomputed tables of small ints.

Cells are numbered 0..N-1 (ring by ring would be nice for humans, but row
order is simpler and just as fast); every lookup the rules make in their
inner loop (the neighbour in a direction, the distance to the centre) is a
tuple index. Coordinates follow docs/DESIGN: axial (q, r), pointy-top, r
growing southwards, facings 0..5 clockwise from east (the project's DESIGN.md).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..base import InvalidNotation

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
FACING_NAMES: tuple[str, ...] = ("E", "SE", "SW", "W", "NW", "NE")
FACING_WORDS: tuple[str, ...] = ("east", "south-east", "south-west", "west", "north-west",
                                 "north-east")

_CELL_RE = re.compile(r"^\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?$")


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def parse_coord(text: str) -> tuple[int, int]:
    """``"1,-2"`` or ``"(1,-2)"`` -> (1, -2); InvalidNotation otherwise."""
    match = _CELL_RE.match(text.strip())
    if not match:
        raise InvalidNotation(f"{text!r} is not a hex; write it as q,r (for example 1,-2)")
    return int(match.group(1)), int(match.group(2))


def parse_facing(text: str) -> int:
    """A facing as a number 0..5 or a compass name (E, SE, SW, W, NW, NE)."""
    t = text.strip().upper()
    if t in FACING_NAMES:
        return FACING_NAMES.index(t)
    if t.isdigit() and int(t) < 6:
        return int(t)
    raise InvalidNotation(f"{text!r} is not a facing; use 0..5 or one of {', '.join(FACING_NAMES)}")


class Arena:
    """The hexes of a board of the given radius and their neighbour tables."""

    def __init__(self, radius: int) -> None:
        self.radius = radius
        coords = [(q, r) for r in range(-radius, radius + 1) for q in range(-radius, radius + 1)
                  if distance((q, r), (0, 0)) <= radius]
        self.coords: tuple[tuple[int, int], ...] = tuple(coords)
        self.index: dict[tuple[int, int], int] = {c: i for i, c in enumerate(coords)}
        self.size = len(coords)
        self.centre = self.index[(0, 0)]
        # nbr[cell][facing] -> neighbouring cell, or -1 off the board
        self.nbr: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.index.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS)
            for q, r in coords)
        self.ring: tuple[int, ...] = tuple(distance(c, (0, 0)) for c in coords)
        self.names: tuple[str, ...] = tuple(f"{q},{r}" for q, r in coords)
        # cells grouped by distance from the centre, for crystal entry
        self.rings: tuple[tuple[int, ...], ...] = tuple(
            tuple(i for i in range(self.size) if self.ring[i] == k) for k in range(radius + 1))

    def cell(self, text: str) -> int:
        """The cell index of ``"q,r"``; InvalidNotation if it is not on this arena."""
        coord = parse_coord(text)
        if coord not in self.index:
            raise InvalidNotation(f"hex {coord[0]},{coord[1]} is off the arena "
                                  f"(radius {self.radius})")
        return self.index[coord]

    def name(self, cell: int) -> str:
        return self.names[cell]

    def neighbours(self, cell: int) -> list[int]:
        return [n for n in self.nbr[cell] if n >= 0]


@lru_cache(maxsize=None)
def arena(radius: int) -> Arena:
    """Arenas are immutable and shared by every state of that size."""
    return Arena(radius)

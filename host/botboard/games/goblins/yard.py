"""The 5x5 construction yard: squares, metal connections to the cockpit, lines of fire.

Squares are named ``r<row>c<column>`` as in BotWars (DESIGN.md): column x
grows eastwards, row y northwards, ``r1c1`` is the south-west corner and the
cockpit is the centre ``r3c3``. Yard sides are 0..3 = N E S W. Two squares
are joined when both facing edges have metal; the cockpit has metal all round.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from ..base import InvalidNotation
from .tiles import Box

Square = tuple[int, int]
COCKPIT = "r3c3"
SIZE = 5
VECTORS: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
ALL_SQUARES = tuple(f"r{y}c{x}" for y in range(1, SIZE + 1) for x in range(1, SIZE + 1))
Yard = Mapping[str, Sequence[int]]  # square -> (tile id, rotation)


def parse_square(text: str) -> str:
    """A canonical square name; InvalidNotation otherwise."""
    low = text.strip().lower() if isinstance(text, str) else None
    if low not in _XY:
        raise InvalidNotation(f"bad square {text!r}: expected r1c1 .. r5c5 (row from the south, column from the west)")
    return low


def xy(square: str) -> Square:
    return _XY[square]


def name(x: int, y: int) -> str | None:
    return f"r{y}c{x}" if 1 <= x <= SIZE and 1 <= y <= SIZE else None


def step(square: str, side: int) -> str | None:
    x, y = _XY[square]
    dx, dy = VECTORS[side]
    return name(x + dx, y + dy)


_XY: dict[str, Square] = {f"r{y}c{x}": (x, y) for y in range(1, SIZE + 1) for x in range(1, SIZE + 1)}
_NEIGHBOURS: dict[str, list[tuple[int, str]]] = {
    square: [(side, other) for side in range(4) if (other := step(square, side)) is not None]
    for square in _XY}


def has_metal(yard: Yard, box: Box, square: str, side: int) -> bool:
    if square == COCKPIT:
        return True
    tile_id, rot = yard[square]
    return box.tiles[tile_id].metal_on(side, rot)


def joined(yard: Yard, box: Box, square: str, side: int) -> str | None:
    """The occupied neighbour across ``side`` if metal meets metal there."""
    other = step(square, side)
    if other is None or (other != COCKPIT and other not in yard):
        return None
    if has_metal(yard, box, square, side) and has_metal(yard, box, other, (side + 2) % 4):
        return other
    return None


def connected(yard: Yard, box: Box) -> set[str]:
    """Occupied squares reachable from the cockpit over metal (the cockpit excluded)."""
    tiles = box.tiles

    def metal(square: str, side: int) -> bool:
        if square == COCKPIT:
            return True
        tile_id, rot = yard[square]
        return tiles[tile_id].metal[(side - rot) % 4]

    seen, todo = {COCKPIT}, [COCKPIT]
    while todo:
        square = todo.pop()
        for side, other in _NEIGHBOURS[square]:
            if other in seen or other not in yard:
                continue
            if metal(square, side) and metal(other, (side + 2) % 4):
                seen.add(other)
                todo.append(other)
    seen.discard(COCKPIT)
    return seen


def loose(yard: Yard, box: Box) -> list[str]:
    """Occupied squares not connected to the cockpit, in square order."""
    attached = connected(yard, box)
    return [s for s in ALL_SQUARES if s in yard and s not in attached]


def line_squares(box: Box, side: int, die: int) -> list[str]:
    """The squares of the line numbered ``die`` on ``side``, from that side inwards."""
    index = box.yard_numbers[side].index(die) + 1
    if side in (0, 2):  # north/south sides number the columns
        ys = range(SIZE, 0, -1) if side == 0 else range(1, SIZE + 1)
        return [f"r{y}c{index}" for y in ys]
    xs = range(SIZE, 0, -1) if side == 1 else range(1, SIZE + 1)
    return [f"r{index}c{x}" for x in xs]


def first_hit(yard: Yard, box: Box, side: int, die: int) -> str | None:
    """The first tile (or the cockpit) met by a shot from ``side`` along line ``die``."""
    for square in line_squares(box, side, die):
        if square == COCKPIT or square in yard:
            return square
    return None


def free_squares(yard: Yard, blocked: Iterable[str]) -> list[str]:
    taken = set(blocked) | set(yard) | {COCKPIT}
    return [s for s in ALL_SQUARES if s not in taken]


def render(yard: Yard, box: Box, blocked: Iterable[str]) -> list[str]:
    """Rows north to south, a cell per square: tile id and type letter, ## blocked, [] cockpit."""
    blocked = set(blocked)
    rows = []
    for y in range(SIZE, 0, -1):
        cells = []
        for x in range(1, SIZE + 1):
            square = f"r{y}c{x}"
            if square == COCKPIT:
                cells.append(" [] ")
            elif square in yard:
                tile = box.tiles[yard[square][0]]
                cells.append(f"{tile.id:>2}{tile.type[0].upper()}{'NESW'[yard[square][1]]}")
            else:
                cells.append(" ## " if square in blocked else "  . ")
        rows.append("".join(cells))
    return rows


SIDE_NAMES = "NESW"

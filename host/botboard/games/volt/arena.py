"""VOLT arenas: data files (docs/volt.md, "Arena files") and a text rendering.

An arena is a grid inside the box wall. Energy walls and lightning barriers
lie on the sides between two squares; everything else belongs to a square.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from ..base import ScenarioError
from ..fields import BadValue, each, entries, field, number_key, parsing, whole
from ..squares import parse_facing
from .grid import (
    KEYS,
    Edge,
    Square,
    cut,
    edge,
    parse_key,
    parse_side,
    parse_square,
    square_name,
    step,
)

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Start:
    square: Square
    arrow: int  # key the reboot push follows
    side: int  # 1..4, the operator's side of the arena


@dataclass(frozen=True)
class Arena:
    name: str
    width: int
    height: int
    starts: tuple[Start, ...]
    seats: Mapping[int, tuple[int, ...]]  # robots in play -> sides they take, by seat
    pits: Mapping[Square, Mapping[int, int]]  # pit -> caution arrows: KillBot facing -> new facing
    vp_spaces: Mapping[int, Square]
    workshops: frozenset[Square]
    high_voltage: frozenset[Square]
    walls: frozenset[Edge]
    barriers: frozenset[Edge]
    vp_tokens: Mapping[int, int]  # VP space number -> tokens of that number in the bag

    def on_arena(self, square: Square) -> bool:
        return 1 <= square[0] <= self.width and 1 <= square[1] <= self.height

    def squares(self) -> list[Square]:
        return [(x, y) for y in range(1, self.height + 1) for x in range(1, self.width + 1)]

    def wall_cut(self, here: Square, key: int) -> bool:
        """An energy wall (or its bend) between ``here`` and the next square."""
        return cut(self.walls, here, key)

    def barrier_cut(self, here: Square, key: int) -> bool:
        return cut(self.barriers, here, key)

    def open_step(self, here: Square, key: int, through_walls: bool = False) -> bool:
        """Inside the arena and not stopped by an energy wall."""
        return self.on_arena(step(here, key)) and (through_walls or not self.wall_cut(here, key))

    def vp_number(self, square: Square) -> int | None:
        for number, where in self.vp_spaces.items():
            if where == square:
                return number
        return None

    def starts_of(self, side: int) -> list[Start]:
        return [s for s in self.starts if s.side == side]


# Bounds of what an arena file may ask for: the box's tokens, and grids far beyond the
# project's arenas (7 to 10 squares a side) that would only cost time and memory
BOX_VP_TOKENS = 12  # 2 of each number 1-6
MAX_SIDE = 20


def load_arena(ref: str | Mapping[str, Any]) -> Arena:
    """An arena by name (data/arenas/NAME.json) or an inline arena document (scenarios);
    a BadValue names the field at fault (``arena.size: ...``)."""
    if isinstance(ref, Mapping):
        return _inline(json.dumps(ref, sort_keys=True))
    if not isinstance(ref, str):
        raise BadValue(f"expected an arena name or an arena object, got {ref!r}", "arena")
    return _load(ref)


@lru_cache(maxsize=64)
def _inline(text: str) -> Arena:
    with parsing("arena"):
        return arena_from_json(json.loads(text))


@lru_cache(maxsize=16)
def _load(name: str) -> Arena:
    path = DATA / "arenas" / f"{name}.json"
    if not path.is_file():
        known = sorted(p.stem for p in (DATA / "arenas").glob("*.json"))
        raise ScenarioError(f"unknown arena {name!r}; arenas: {', '.join(known)}")
    with parsing(f"arena {name}"):
        return arena_from_json(json.loads(path.read_text()))


def arena_from_json(doc: Mapping[str, Any]) -> Arena:
    """An arena document (docs/volt.md, "Arena files"); BadValue names the field at fault."""
    if not isinstance(doc, Mapping):
        raise BadValue(f"expected an arena object, got {doc!r}")
    width, height = field(doc, "size", _size)
    arena = Arena(
        name=field(doc, "name", _name), width=width, height=height,
        starts=tuple(field(doc, "starts", lambda v: each(v, _start))),
        seats=field(doc, "seats", lambda v: entries(v, number_key(_robots), _sides_taken)),
        pits=field(doc, "pits", lambda v: entries(_as_map(v), parse_square, _caution_arrows), {}),
        vp_spaces=field(doc, "vp_spaces", lambda v: entries(v, number_key(vp_number), parse_square), {}),
        workshops=field(doc, "workshops", _squares, frozenset()),
        high_voltage=field(doc, "high_voltage", _squares, frozenset()),
        walls=field(doc, "energy_walls", _edges, frozenset()),
        barriers=field(doc, "lightning_barriers", _edges, frozenset()),
        vp_tokens=field(doc, "vp_tokens", lambda v: entries(v, number_key(vp_number), _token_count), {}))
    _check(arena)
    return arena


def _check(arena: Arena) -> None:
    """What the fields cannot tell one by one: squares on the grid, seats with start spaces,
    tokens of numbers that have a space, no more tokens than the box holds."""
    for key, squares in (("starts", [s.square for s in arena.starts]), ("pits", list(arena.pits)),
                         ("vp_spaces", list(arena.vp_spaces.values()))):
        for square in squares:
            if not arena.on_arena(square):
                raise BadValue(f"{square_name(square)} is outside the {arena.width}x{arena.height} grid", key)
    for robots, sides in arena.seats.items():
        if len(sides) != robots:
            raise BadValue(f"expected the sides of {robots} robots, got {list(sides)}", f"seats.{robots}")
        for side in sides:
            if not arena.starts_of(side):
                raise BadValue(f"side {side} has no start space", f"seats.{robots}")
    for number in arena.vp_tokens:
        if number not in arena.vp_spaces:
            raise BadValue(f"tokens numbered {number}, but no VP space has that number", "vp_tokens")
    if sum(arena.vp_tokens.values()) > BOX_VP_TOKENS:
        raise BadValue(f"{sum(arena.vp_tokens.values())} tokens; the box holds {BOX_VP_TOKENS} "
                       "(2 of each number 1-6)", "vp_tokens")


def _size(value: Any) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise BadValue(f"expected [width, height], got {value!r}")
    width, height = each(value, whole(1, MAX_SIDE, " squares"))
    return width, height


def _name(value: Any) -> str:
    if not isinstance(value, str):
        raise BadValue(f"expected a name, got {value!r}")
    return value


def _start(doc: Any) -> Start:
    if not isinstance(doc, Mapping):
        raise BadValue(f"expected {{\"square\": \"r1c2\", \"arrow\": \"N\", \"side\": 1}}, got {doc!r}")
    return Start(field(doc, "square", parse_square), field(doc, "arrow", parse_key), field(doc, "side", _side))


_side = whole(1, 4, " (the arena's sides)")
_robots = whole(2, 4, " (robots in play)")
vp_number = whole(1, 6, " (the VP spaces' numbers)")
_token_count = whole(0, BOX_VP_TOKENS)


def _sides_taken(value: Any) -> tuple[int, ...]:
    return tuple(each(value, _side))


def _squares(value: Any) -> frozenset[Square]:
    return frozenset(each(value, parse_square))


def _edges(value: Any) -> frozenset[Edge]:
    return frozenset(each(value, parse_side))


def _caution_arrows(value: Any) -> dict[int, int]:
    """A pit's caution arrows: KillBot facing -> the facing it turns to."""
    return entries(value or {}, parse_facing, parse_facing)


def _as_map(value: Any) -> dict[str, Any]:
    """Pits may be a list of squares or an object square -> caution arrows."""
    if isinstance(value, list):
        return {str(s): None for s in value}  # each square is read as a key
    if not isinstance(value, Mapping):
        raise BadValue(f"expected a list of squares or an object square -> caution arrows, got {value!r}")
    return dict(value)


# -- text rendering ----------------------------------------------------------

def render(arena: Arena, pieces: Mapping[Square, str] | None = None,
           tokens: Mapping[Square, int] | None = None) -> str:
    """The arena from north (top) to south, three characters a square.

    Squares: ``##`` pit, ``W`` workshop, ``!`` high voltage, a digit a VP space
    (``*`` once a token lies there), an arrow a start space; ``pieces`` (robot
    or mine labels) are drawn over them. Sides: ``|`` and ``---`` energy walls,
    ``:`` and ``...`` lightning barriers.
    """
    pieces, tokens = pieces or {}, tokens or {}
    lines = ["+" + "---+" * arena.width]
    for y in range(arena.height, 0, -1):
        row = "|"
        for x in range(1, arena.width + 1):
            row += _cell(arena, (x, y), pieces, tokens).center(3)
            east = edge((x, y), (x + 1, y))
            row += "|" if x == arena.width or east in arena.walls else ":" if east in arena.barriers else " "
        lines.append(row + f" {y}")
        if y > 1:
            below = "+"
            for x in range(1, arena.width + 1):
                south = edge((x, y), (x, y - 1))
                below += ("---" if south in arena.walls else "..." if south in arena.barriers else "   ") + "+"
            lines.append(below)
    lines.append("+" + "---+" * arena.width)
    lines.append(" " + "".join(f"{x:^4}" for x in range(1, arena.width + 1)))
    return "\n".join(lines)


def _cell(arena: Arena, square: Square, pieces: Mapping[Square, str], tokens: Mapping[Square, int]) -> str:
    if square in pieces:
        return pieces[square]
    if square in arena.pits:
        return "##"
    number = arena.vp_number(square)
    if number is not None:
        return f"{number}*" if square in tokens else str(number)
    if square in arena.workshops:
        return "W"
    if square in arena.high_voltage:
        return "!"
    for start in arena.starts:
        if start.square == square:
            return "^>>>v<<<"[start.arrow] if start.arrow % 2 == 0 else KEYS[start.arrow].lower()
    return "."


def describe_start(start: Start) -> str:
    return f"{square_name(start.square)} arrow {KEYS[start.arrow]} (side {start.side})"


__all__ = ["Arena", "Start", "load_arena", "arena_from_json", "render", "step"]

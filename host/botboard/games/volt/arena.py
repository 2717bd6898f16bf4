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
from .grid import (
    FACINGS,
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


def load_arena(ref: str | Mapping[str, Any]) -> Arena:
    """An arena by name (data/arenas/NAME.json) or an inline arena document (scenarios)."""
    if isinstance(ref, Mapping):
        return _inline(json.dumps(ref, sort_keys=True))
    if not isinstance(ref, str):
        raise ScenarioError(f"arena: expected an arena name or an arena object, got {ref!r}")
    return _load(ref)


@lru_cache(maxsize=64)
def _inline(text: str) -> Arena:
    return arena_from_json(json.loads(text))


@lru_cache(maxsize=16)
def _load(name: str) -> Arena:
    path = DATA / "arenas" / f"{name}.json"
    if not path.is_file():
        known = sorted(p.stem for p in (DATA / "arenas").glob("*.json"))
        raise ScenarioError(f"unknown arena {name!r}; arenas: {', '.join(known)}")
    return arena_from_json(json.loads(path.read_text()))


def arena_from_json(doc: Mapping[str, Any]) -> Arena:
    try:
        width, height = (int(v) for v in doc["size"])
        starts = tuple(Start(parse_square(s["square"]), parse_key(s["arrow"]), int(s["side"]))
                       for s in doc["starts"])
        pits = {parse_square(k): {FACINGS.index(a): FACINGS.index(b) for a, b in (v or {}).items()}
                for k, v in _as_map(doc.get("pits", {})).items()}
        arena = Arena(
            name=str(doc["name"]), width=width, height=height, starts=starts,
            seats={int(k): tuple(int(s) for s in v) for k, v in doc["seats"].items()},
            pits=pits,
            vp_spaces={int(k): parse_square(v) for k, v in doc.get("vp_spaces", {}).items()},
            workshops=frozenset(parse_square(s) for s in doc.get("workshops", [])),
            high_voltage=frozenset(parse_square(s) for s in doc.get("high_voltage", [])),
            walls=frozenset(parse_side(s) for s in doc.get("energy_walls", [])),
            barriers=frozenset(parse_side(s) for s in doc.get("lightning_barriers", [])),
            vp_tokens={int(k): int(v) for k, v in doc.get("vp_tokens", {}).items()})
    except KeyError as err:
        raise ScenarioError(f"arena {doc.get('name', '?')}: missing field {err}") from err
    for square in [s.square for s in starts] + list(arena.pits) + list(arena.vp_spaces.values()):
        if not arena.on_arena(square):
            raise ScenarioError(f"arena {arena.name}: {square_name(square)} is outside "
                                f"the {width}x{height} grid")
    return arena


def _as_map(value: Any) -> dict[str, Any]:
    """Pits may be a list of squares or an object square -> caution arrows."""
    return {s: None for s in value} if isinstance(value, list) else dict(value)


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

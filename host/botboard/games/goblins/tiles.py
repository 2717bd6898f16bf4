"""Construction tiles and the box they come in (tile set, blueprints, tactics deck).

A tile's edges are named in its own frame, N E S W as printed. Placed in the
yard with rotation ``rot`` (quarter turns clockwise), its own edge ``e`` lies
on yard side ``(e + rot) % 4``. A box file (format in docs/goblins.md) holds
everything about the physical game that no source gives; the shipped
``placeholder`` box is marked as such. ``python -m botboard.games.goblins.tiles
check FILE`` validates a box file a user has written.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from ..base import ScenarioError

SIDES = "NESW"
TYPES = ("weapon", "armor", "engine", "decoration")
ABILITIES = ("nitro", "sabotage", "emergency", "dynamite", "homing", "duct-tape", "crane")
BEFORE_ROLL = ("sabotage", "duct-tape", "crane")
DATA = Path(__file__).parent / "data"
BOX_FORMAT = "goblins-box/1"


@dataclass(frozen=True)
class TileDef:
    """One construction tile as printed: counts per own edge N E S W."""

    id: int
    type: str
    premium: bool
    metal: tuple[bool, bool, bool, bool]
    arrows: tuple[int, int, int, int] = (0, 0, 0, 0)
    plates: tuple[int, int, int, int] = (0, 0, 0, 0)
    engines: int = 0

    def metal_on(self, side: int, rot: int) -> bool:
        """Whether the edge lying on yard side ``side`` has metal."""
        return self.metal[(side - rot) % 4]

    def arrows_on(self, side: int, rot: int) -> int:
        return self.arrows[(side - rot) % 4]

    def plate_sides(self, rot: int) -> list[int]:
        """Yard sides of the armor plates, one entry per plate."""
        return [(edge + rot) % 4 for edge in range(4) for _ in range(self.plates[edge])]

    def describe(self) -> str:
        def edges(counts: tuple[int, ...]) -> str:
            return "".join(SIDES[e] * n for e, n in enumerate(counts))
        parts = [f"t{self.id}", self.type + ("*" if self.premium else ""),
                 "metal " + (edges(tuple(int(m) for m in self.metal)) or "-")]
        if any(self.arrows):
            parts.append("arrows " + edges(self.arrows))
        if any(self.plates):
            parts.append("plates " + edges(self.plates))
        if self.engines:
            parts.append(f"engines {self.engines}")
        return " ".join(parts)


@dataclass(frozen=True)
class Box:
    name: str
    placeholder: bool
    tiles: Mapping[int, TileDef]
    blueprints: tuple[tuple[str, tuple[str, ...]], ...]
    tactics: Mapping[int, tuple[str, ...]]  # card id -> abilities
    yard_numbers: Mapping[int, tuple[int, ...]]  # yard side -> die number of each line
    defense_tokens: int


class BoxError(ScenarioError):
    """A box file that does not describe a usable game; the message says where."""


def _edges(value: Any, where: str, metal: bool = False) -> tuple[int, int, int, int]:
    if not isinstance(value, str) or any(c not in SIDES for c in value.upper()):
        raise BoxError(f"{where}: expected a string of edge letters N E S W (e.g. \"NE\"), got {value!r}")
    counts = [value.upper().count(side) for side in SIDES]
    if metal and max(counts, default=0) > 1:
        raise BoxError(f"{where}: an edge is listed twice ({value!r}); metal is on an edge or not")
    return counts[0], counts[1], counts[2], counts[3]


def tile_from_json(doc: Any, where: str) -> TileDef:
    if not isinstance(doc, Mapping):
        raise BoxError(f"{where}: expected an object like {{\"id\": 1, \"type\": \"weapon\", ...}}")
    unknown = set(doc) - {"id", "type", "premium", "metal", "arrows", "plates", "engines"}
    if unknown:
        raise BoxError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    tid, kind = doc.get("id"), doc.get("type")
    if not isinstance(tid, int) or not 1 <= tid <= 255:
        raise BoxError(f"{where}: 'id' must be a whole number 1..255, got {tid!r}")
    if kind not in TYPES:
        raise BoxError(f"{where} (t{tid}): 'type' must be one of {', '.join(TYPES)}, got {kind!r}")
    premium = doc.get("premium", False)
    if not isinstance(premium, bool):
        raise BoxError(f"{where} (t{tid}): 'premium' must be true or false")
    metal = _edges(doc.get("metal", ""), f"{where} (t{tid}).metal", metal=True)
    arrows = _edges(doc.get("arrows", ""), f"{where} (t{tid}).arrows")
    plates = _edges(doc.get("plates", ""), f"{where} (t{tid}).plates")
    engines = doc.get("engines", 0 if kind != "engine" else (2 if premium else 1))
    tile = TileDef(tid, kind, premium, (metal[0] > 0, metal[1] > 0, metal[2] > 0, metal[3] > 0),
                   arrows, plates, engines if isinstance(engines, int) else -1)
    _check_tile(tile, where)
    return tile


def _check_tile(tile: TileDef, where: str) -> None:
    where = f"{where} (t{tile.id}, {tile.type})"
    if any(tile.arrows) != (tile.type == "weapon"):
        raise BoxError(f"{where}: weapon tiles have arrows and other tiles none")
    if any(tile.plates) != (tile.type == "armor"):
        raise BoxError(f"{where}: armor tiles have plates and other tiles none")
    if (tile.engines > 0) != (tile.type == "engine") or not 0 <= tile.engines <= 3:
        raise BoxError(f"{where}: engine tiles have 1..3 engines and other tiles none")
    if tile.type == "decoration" and not all(tile.metal):
        raise BoxError(f"{where}: decoration tiles have metal on all four edges")
    if sum(tile.arrows) > 3 or sum(tile.plates) > 3:
        raise BoxError(f"{where}: at most 3 arrows or plates per tile (the tag stores 2 bits an edge)")


def box_from_json(doc: Any, name: str = "box") -> Box:
    """Validate a box document; BoxError names the first problem and how to fix it."""
    if not isinstance(doc, Mapping):
        raise BoxError(f"{name}: expected a JSON object")
    if doc.get("format") != BOX_FORMAT:
        raise BoxError(f"{name}: 'format' must be {BOX_FORMAT!r}")
    tiles: dict[int, TileDef] = {}
    for i, item in enumerate(doc.get("tiles", [])):
        tile = tile_from_json(item, f"{name}: tiles[{i}]")
        if tile.id in tiles:
            raise BoxError(f"{name}: tiles[{i}]: id {tile.id} is used twice")
        tiles[tile.id] = tile
    if len(tiles) < 40:
        raise BoxError(f"{name}: 'tiles' lists {len(tiles)} tiles; two robots need at least 40")
    blueprints = []
    for i, item in enumerate(doc.get("blueprints", [])):
        blocked = item.get("blocked") if isinstance(item, Mapping) else None
        if not isinstance(blocked, list) or len(set(blocked)) != 4:
            raise BoxError(f"{name}: blueprints[{i}]: 'blocked' must list 4 different squares")
        for square in blocked:
            if not isinstance(square, str) or square not in _SQUARES or square == "r3c3":
                raise BoxError(f"{name}: blueprints[{i}]: {square!r} is not a yard square r1c1..r5c5 "
                               "other than the cockpit r3c3")
        blueprints.append((str(item.get("name", f"blueprint {i + 1}")), tuple(blocked)))
    if not blueprints:
        raise BoxError(f"{name}: 'blueprints' is empty")
    tactics: dict[int, tuple[str, ...]] = {}
    for i, item in enumerate(doc.get("tactics", [])):
        abilities = item.get("abilities") if isinstance(item, Mapping) else None
        if (not isinstance(abilities, list) or not 1 <= len(abilities) <= 2
                or any(a not in ABILITIES for a in abilities)):
            raise BoxError(f"{name}: tactics[{i}]: 'abilities' must list 1 or 2 of {', '.join(ABILITIES)}")
        tactics[int(item.get("id", i + 1))] = tuple(abilities)
    if len(tactics) < 12:
        raise BoxError(f"{name}: 'tactics' lists {len(tactics)} cards; a round needs 12")
    numbers: dict[int, tuple[int, ...]] = {}
    for side, letter in enumerate(SIDES):
        line = doc.get("yard_numbers", {}).get(letter)
        if not isinstance(line, list) or sorted(line) != [1, 2, 3, 4, 5]:
            raise BoxError(f"{name}: yard_numbers.{letter} must list the die numbers 1..5 of the 5 lines "
                           "along that side, each once (west to east, or south to north)")
        numbers[side] = tuple(line)
    tokens = doc.get("defense_tokens")
    if not isinstance(tokens, int) or tokens < 1:
        raise BoxError(f"{name}: 'defense_tokens' must be a whole number >= 1")
    return Box(str(doc.get("name", name)), bool(doc.get("placeholder", False)), tiles,
               tuple(blueprints), tactics, numbers, tokens)


_SQUARES = {f"r{r}c{c}" for r in range(1, 6) for c in range(1, 6)}


@lru_cache(maxsize=16)
def load_box(ref: str = "placeholder") -> Box:
    """A shipped box by name (data/boxes/NAME.json) or a box file by path."""
    path = DATA / "boxes" / f"{ref}.json"
    if not path.exists():
        path = Path(ref)
    try:
        doc = json.loads(path.read_text())
    except OSError as err:
        shipped = ", ".join(p.stem for p in (DATA / "boxes").glob("*.json"))
        raise BoxError(f"box {ref!r}: no such shipped box ({shipped}) and no such file: {err.strerror}") from err
    except json.JSONDecodeError as err:
        raise BoxError(f"box {ref!r}: not JSON: {err.msg} at line {err.lineno} column {err.colno}") from err
    return box_from_json(doc, str(ref))


def main(argv: list[str]) -> int:
    """``check FILE...``: validate box files and summarise them."""
    if len(argv) < 2 or argv[0] != "check":
        print("usage: python -m botboard.games.goblins.tiles check BOX.json...", file=sys.stderr)
        return 2
    status = 0
    for path in argv[1:]:
        try:
            box = load_box(path)
        except BoxError as err:
            print(f"{path}: INVALID: {err}")
            status = 1
            continue
        counts = {t: sum(1 for d in box.tiles.values() if d.type == t) for t in TYPES}
        premium = sum(1 for d in box.tiles.values() if d.premium)
        mark = " (PLACEHOLDER)" if box.placeholder else ""
        print(f"{path}: ok{mark}: {len(box.tiles)} tiles {counts}, {premium} premium, "
              f"{len(box.blueprints)} blueprints, {len(box.tactics)} tactics cards, "
              f"{box.defense_tokens} defense tokens")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

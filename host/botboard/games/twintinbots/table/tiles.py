"""Tiles: tag payload <-> (kind, colour), and the game's tile catalogue.

A Twin Tin Bots tile tag carries, in the shared payload format
(``bbshared.tilepayload``, docs/tiles.md), the game id, the tile kind as its
index in the engine's tile list (1 = F1 ... see ``content.TILE_CODES``) and
the colour: the seat colour index (0 red .. 5 black) for the sixteen order
tiles of a player, ``NEUTRAL`` for the grey special orders, which belong to
whoever holds them. ``CATALOGUE`` (games/catalogue.py) is what the console's
picker, `botboard tiles` and the registry of enrolled tags go through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from ...catalogue import PickerField, TagBytes, TileCatalogue, TileError, choices
from .. import content as C
from ..declaration import GAME as DECLARED

GAME_ID = DECLARED.tile_id
NEUTRAL = 255  # colour byte of the special orders (grey face, no player colour)
SPECIAL = "special"  # the colour field's value for a special order


@dataclass(frozen=True)
class Tile:
    kind: int  # engine tile code (content.TILE_CODES index), 1..
    colour: int | None  # seat colour index, None for a special order

    @property
    def code(self) -> str:
        return C.TILE_CODES[self.kind]

    @property
    def special(self) -> bool:
        return self.kind in C.SPECIALS

    def __str__(self) -> str:
        owner = SPECIAL if self.colour is None else C.COLOURS[self.colour]
        return f"{owner} {self.code} ({C.TILE_NAMES[self.kind]})"


def parse_kind(text: str) -> int:
    code = text.strip().upper()
    if code not in C.TILE_BY_CODE or code == "-":
        raise TileError(f"{text!r} is not a tile kind; kinds are {', '.join(C.TILE_CODES[1:])}")
    return C.TILE_BY_CODE[code]


def parse_colour(text: str | None, kind: int) -> int | None:
    """A player colour name for order tiles; specials take none (or 'special')."""
    if kind in C.SPECIALS:
        if text not in (None, "", SPECIAL, "grey", "none"):
            raise TileError(f"{C.TILE_CODES[kind]} is a special order: it has no player colour "
                            "(leave the colour out)")
        return None
    if text is None or text.lower() not in C.COLOURS:
        raise TileError(f"order tile {C.TILE_CODES[kind]} needs a player colour: one of "
                        f"{', '.join(C.COLOURS)}")
    return C.COLOURS.index(text.lower())


def make_tile(kind: str, colour: str | None) -> Tile:
    k = parse_kind(kind)
    return Tile(k, parse_colour(colour, k))


class TwinTinBotsTiles(TileCatalogue[Tile]):
    """Order tiles of the six player colours and the grey special orders."""

    tile_id, title = GAME_ID, DECLARED.title

    def fields(self) -> list[PickerField]:
        kinds = C.TILE_CODES[1:]
        return [PickerField("kind", "order", choices(kinds, (f"{code} {C.TILE_NAMES[i + 1]}"
                                                            for i, code in enumerate(kinds)))),
                PickerField("colour", "colour", choices((*C.COLOURS, SPECIAL)))]

    def make(self, spec: Mapping[str, Any]) -> Tile:
        colour = spec.get("colour")
        return make_tile(str(spec.get("kind", "")), None if colour in (None, "") else str(colour))

    def spec(self, tile: Tile) -> dict[str, str]:
        return {"kind": tile.code, "colour": SPECIAL if tile.colour is None else C.COLOURS[tile.colour]}

    def to_bytes(self, tile: Tile, serial: int) -> TagBytes:
        return TagBytes(tile.kind, NEUTRAL if tile.colour is None else tile.colour, serial)

    def from_bytes(self, tag: TagBytes) -> Tile:
        if not 0 < tag.kind < len(C.TILE_CODES):
            raise TileError(f"tile kind {tag.kind} is not a Twin Tin Bots tile: {self.rewrite_hint()}")
        if tag.kind in C.SPECIALS:
            return Tile(tag.kind, None)
        if tag.colour >= len(C.COLOURS):
            raise TileError(f"order tile {C.TILE_CODES[tag.kind]} carries no player colour "
                            f"({tag.colour}): {self.rewrite_hint()}")
        return Tile(tag.kind, tag.colour)

    def every_tile(self) -> Iterator[Tile]:
        for kind in range(1, len(C.TILE_CODES)):
            if kind in C.SPECIALS:
                yield Tile(kind, None)
            else:
                yield from (Tile(kind, colour) for colour in range(len(C.COLOURS)))


CATALOGUE = TwinTinBotsTiles()


def payload(tile: Tile, serial: int) -> bytes:
    return CATALOGUE.payload(tile, serial)


def from_payload(data: bytes) -> Tile:
    """The tile a checked payload names; TileError with words otherwise."""
    return CATALOGUE.from_payload(data)


def virtual_uid(tile: Tile, serial: int) -> bytes:
    """A stable 7-byte NTAG-like uid for a virtual tile (selfplay, tests, the bench)."""
    colour = NEUTRAL if tile.colour is None else tile.colour
    return bytes((0x04, GAME_ID, colour, tile.kind, (serial >> 8) & 0xFF, serial & 0xFF, 0x80))

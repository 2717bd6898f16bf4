"""Dice as tiles: a die's tag says its colour and whose it is, never its face.

    die_payload(colour, seat, serial)   the 16 bytes `botboard tiles write --game volt colour=red` writes
    die_from_payload(data) -> Die       or TileError saying what is wrong and what to do

A VOLT die tag carries, in the shared payload format (docs/tiles.md), game id
4, kind 0 for red and 1 for blue, the operator's seat as its colour byte
(255: anybody's die) and a serial. An NFC tag cannot tell which face of a
die is up: the face and the key are set on the operator's phone
(docs/playing-volt.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from ...catalogue import PickerField, TagBytes, TileCatalogue, TileError, choices
from ..declaration import GAME as DECLARED
from .leds import SEAT_COLOURS

GAME_ID = DECLARED.tile_id
COLOURS = ("red", "blue")
ANYBODY = 255
ANYBODYS = "anybody"  # the owner field's value for a die any operator may use
_REWRITE = "write it again with `botboard tiles write --game volt colour=red|blue`"


@dataclass(frozen=True)
class DieTile:
    colour: str  # red or blue
    owner: int  # seat, or ANYBODY
    serial: int

    def __str__(self) -> str:
        return f"{self.colour} die"


def die_payload(colour: str, owner: int = ANYBODY, serial: int = 1) -> bytes:
    if colour not in COLOURS:
        raise TileError(f"a VOLT die is red or blue, not {colour!r}")
    return CATALOGUE.payload(DieTile(colour, owner, serial), serial)


def die_from_payload(data: bytes) -> DieTile:
    return CATALOGUE.from_payload(data)


class VoltDice(TileCatalogue[DieTile]):
    """Red and blue dice, each anybody's or one operator's; the face is set on the phone."""

    tile_id, title = GAME_ID, DECLARED.title

    def fields(self) -> list[PickerField]:
        return [PickerField("colour", "die", choices(COLOURS, (f"{c} die" for c in COLOURS))),
                PickerField("owner", "operator", choices((ANYBODYS, *SEAT_COLOURS)), ANYBODYS)]

    def make(self, spec: Mapping[str, Any]) -> DieTile:
        colour, owner = self.field_value(spec, "colour"), self.field_value(spec, "owner")
        serial = spec.get("serial", 1)
        return DieTile(colour, ANYBODY if owner == ANYBODYS else SEAT_COLOURS.index(owner),
                       int(serial) if str(serial).isdigit() else 1)

    def spec(self, tile: DieTile) -> dict[str, str]:
        return {"colour": tile.colour,
                "owner": ANYBODYS if tile.owner == ANYBODY else SEAT_COLOURS[tile.owner]}

    def to_bytes(self, tile: DieTile, serial: int) -> TagBytes:
        return TagBytes(COLOURS.index(tile.colour), tile.owner, serial)

    def from_bytes(self, tag: TagBytes) -> DieTile:
        if tag.kind >= len(COLOURS):
            raise TileError(f"die kind {tag.kind} is neither red (0) nor blue (1): {_REWRITE}")
        return DieTile(COLOURS[tag.kind], tag.colour, tag.serial)

    def every_tile(self) -> Iterator[DieTile]:
        for colour in COLOURS:
            for owner in (ANYBODY, *range(len(SEAT_COLOURS))):
                yield DieTile(colour, owner, 1)

    def words(self, tile: DieTile) -> str:
        return f"{tile} ({SEAT_COLOURS[tile.owner]}'s)" if tile.owner < len(SEAT_COLOURS) else str(tile)

    def rewrite_hint(self) -> str:
        return _REWRITE


CATALOGUE = VoltDice()


def virtual_uid(tile: DieTile) -> bytes:
    """A stable 7-byte NTAG-like uid for the simulated tag of a die."""
    owner = tile.owner & 0xFF
    return bytes((0x04, GAME_ID, COLOURS.index(tile.colour), owner, (tile.serial >> 8) & 0xFF,
                  tile.serial & 0xFF, 0x80))

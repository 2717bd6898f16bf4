"""Tiles: tag payload <-> (kind, colour), and the registry of enrolled tags.

A Twin Tin Bots tile tag carries, in the shared payload format
(``bbshared.tilepayload``, docs/tiles.md), the game id, the tile kind as its
index in the engine's tile list (1 = F1 ... see ``content.TILE_CODES``) and
the colour: the seat colour index (0 red .. 5 black) for the sixteen order
tiles of a player, ``NEUTRAL`` for the grey special orders, which belong to
whoever holds them. Tags that cannot be written (read-only or locked) are
enrolled in a registry, a JSON file in the data directory: uid -> tile.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from bbshared import tilepayload

from ....session.mapping import TileError
from .. import content as C

GAME_ID = next(k for k, v in tilepayload.GAMES.items() if v == "twintinbots")
NEUTRAL = 255  # colour byte of the special orders (grey face, no player colour)
REGISTRY_FILE = "tiles.json"


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
        owner = "special" if self.colour is None else C.COLOURS[self.colour]
        return f"{owner} {self.code} ({C.TILE_NAMES[self.kind]})"


def parse_kind(text: str) -> int:
    code = text.strip().upper()
    if code not in C.TILE_BY_CODE or code == "-":
        raise TileError(f"{text!r} is not a tile kind; kinds are {', '.join(C.TILE_CODES[1:])}")
    return C.TILE_BY_CODE[code]


def parse_colour(text: str | None, kind: int) -> int | None:
    """A player colour name for order tiles; specials take none (or 'special')."""
    if kind in C.SPECIALS:
        if text not in (None, "", "special", "grey", "none"):
            raise TileError(f"{C.TILE_CODES[kind]} is a special order: it has no player colour "
                            "(leave --colour out)")
        return None
    if text is None or text.lower() not in C.COLOURS:
        raise TileError(f"order tile {C.TILE_CODES[kind]} needs a player colour: one of "
                        f"{', '.join(C.COLOURS)}")
    return C.COLOURS.index(text.lower())


def make_tile(kind: str, colour: str | None) -> Tile:
    k = parse_kind(kind)
    return Tile(k, parse_colour(colour, k))


def payload(tile: Tile, serial: int) -> bytes:
    colour = NEUTRAL if tile.colour is None else tile.colour
    return tilepayload.encode(GAME_ID, tile.kind, colour, serial)


def from_payload(data: bytes) -> Tile:
    """The tile a checked payload names; TileError with words otherwise."""
    try:
        game, kind, colour, _serial = tilepayload.decode(data)
    except ValueError as err:
        raise TileError(f"{err}: write the tag with `botboard tiles write` or enroll it "
                        "with `botboard tiles enroll`") from err
    if game != GAME_ID:
        raise TileError(f"this tile belongs to another game ({tilepayload.GAMES.get(game, game)}): take it out")
    if not 0 < kind < len(C.TILE_CODES):
        raise TileError(f"tile kind {kind} is not a Twin Tin Bots tile: take it out")
    if kind in C.SPECIALS:
        return Tile(kind, None)
    if colour >= len(C.COLOURS):
        raise TileError(f"order tile {C.TILE_CODES[kind]} carries no player colour ({colour}): rewrite it "
                        "with `botboard tiles write`")
    return Tile(kind, colour)


class Registry:
    """Enrolled tags (uid hex -> tile), kept in ``DATA_DIR/tiles.json``."""

    def __init__(self, data_dir: Path | None) -> None:
        self.path = Path(data_dir) / REGISTRY_FILE if data_dir else None
        self.tags: dict[str, Tile] = {}
        if self.path and self.path.exists():
            doc = json.loads(self.path.read_text())
            for uid, spec in doc.get("tags", {}).items():
                self.tags[uid] = make_tile(spec["kind"], spec.get("colour"))

    def enroll(self, uid: bytes, tile: Tile) -> None:
        self.tags[uid.hex()] = tile
        self.save()

    def save(self) -> None:
        if self.path is None:
            return
        doc = {"tags": {uid: {"kind": t.code, "colour": None if t.colour is None
                              else C.COLOURS[t.colour]} for uid, t in sorted(self.tags.items())}}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(doc, indent=1) + "\n")
        os.replace(tmp, self.path)

    def identify(self, uid: bytes, data: bytes) -> Tile:
        """The tile of a tag: its payload, else its enrolment; TileError if neither."""
        if data and data[:1] == bytes((tilepayload.MAGIC,)):
            return from_payload(data)
        enrolled = self.tags.get(uid.hex())
        if enrolled is not None:
            return enrolled
        if data:  # something is written there, but not a tile's payload: damaged, or another app's
            raise TileError(f"tag {uid.hex()}: its tile payload is damaged or not botboard's: rewrite it "
                            "with `botboard tiles write` (or `botboard tiles enroll` it)")
        raise TileError(f"unknown tag {uid.hex()}: it has no tile payload and is not enrolled "
                        "(write it with `botboard tiles write` or `botboard tiles enroll` it)")


def virtual_uid(tile: Tile, serial: int) -> bytes:
    """A stable 7-byte NTAG-like uid for a virtual tile (selfplay, tests, the bench)."""
    colour = NEUTRAL if tile.colour is None else tile.colour
    return bytes((0x04, GAME_ID, colour, tile.kind, (serial >> 8) & 0xFF, serial & 0xFF, 0x80))

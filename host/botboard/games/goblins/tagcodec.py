"""A construction tile's definition in its NFC tag: the 16-byte botboard tile payload, self-describing.

The common payload (docs/tiles.md) has game id 3 for Goblins, Inc. The whole
definition fits in the payload's own bytes, so no second block of NTAG pages
is needed:

    byte 3 (kind)   bits 0-1 type (0 weapon, 1 armor, 2 engine, 3 decoration)
                    bit 2 premium, bit 3 zero, bits 4-7 metal on edges N E S W
    byte 5 (flags)  2 bits per edge, N in bits 0-1, E 2-3, S 4-5, W 6-7:
                    arrows (weapon) or armor plates (armor), 0..3 each;
                    engine tiles: the number of engines (1..3) in bits 0-1
    byte 4 colour   0 (construction tiles belong to no player)
    bytes 6-9       serial: the tile's id in the box (1..255)

Writing every tile of a physical box once therefore defines the box:
``box_tiles`` turns the payloads read back into the ``tiles`` list of a box file.
"""

from __future__ import annotations

from typing import Any, Iterable

from bbshared import tilepayload

from .declaration import GAME as DECLARED
from .tiles import SIDES, TYPES, BoxError, TileDef, _check_tile

GAME_ID = DECLARED.tile_id


class TagError(ValueError):
    """A payload that is not a valid Goblins, Inc. construction tile."""


def tile_bytes(tile: TileDef) -> tuple[int, int]:
    """The (kind, flags) bytes that describe ``tile``."""
    kind = TYPES.index(tile.type) | (4 if tile.premium else 0)
    for edge in range(4):
        kind |= (1 << (4 + edge)) if tile.metal[edge] else 0
    counts = tile.arrows if tile.type == "weapon" else tile.plates if tile.type == "armor" else (0, 0, 0, 0)
    if tile.type == "engine":
        counts = (tile.engines, 0, 0, 0)
    if max(counts) > 3:
        raise TagError(f"t{tile.id}: at most 3 arrows, plates or engines fit an edge's 2 bits")
    flags = sum(n << (2 * edge) for edge, n in enumerate(counts))
    return kind, flags


def encode(tile: TileDef) -> bytes:
    """The 16 payload bytes to write to ``tile``'s tag."""
    kind, flags = tile_bytes(tile)
    return bytes(tilepayload.encode(GAME_ID, kind, 0, tile.id, flags))


def decode(payload: bytes) -> TileDef:
    """The tile a payload describes; TagError says what is wrong with it."""
    try:
        game, kind, _colour, serial = tilepayload.decode(payload)
    except ValueError as err:
        raise TagError(str(err)) from err
    if game != GAME_ID:
        from .. import registry

        raise TagError(f"this tag belongs to {registry.title_of_tile_id(game)}, not Goblins, Inc.")
    return from_bytes(kind, serial, payload[5])


def from_bytes(kind: int, serial: int, flags: int) -> TileDef:
    """The tile a payload's kind, serial and flags bytes describe; TagError if none."""
    if kind & 8 or not 1 <= serial <= 255:
        raise TagError(f"not a construction tile definition (kind byte {kind:#04x}, serial {serial})")
    kind_name = TYPES[kind & 3]
    counts = tuple((flags >> (2 * edge)) & 3 for edge in range(4))
    metal = tuple(bool(kind & (1 << (4 + edge))) for edge in range(4))
    none = (0, 0, 0, 0)
    tile = TileDef(serial, kind_name, bool(kind & 4), (metal[0], metal[1], metal[2], metal[3]),
                   arrows=counts if kind_name == "weapon" else none,  # type: ignore[arg-type]
                   plates=counts if kind_name == "armor" else none,  # type: ignore[arg-type]
                   engines=counts[0] if kind_name == "engine" else 0)
    try:
        _check_tile(tile, "tag")
    except BoxError as err:
        raise TagError(str(err)) from err
    return tile


def tile_json(tile: TileDef) -> dict[str, Any]:
    """A tile as an entry of a box file's ``tiles`` list."""
    def edges(counts: Iterable[int]) -> str:
        return "".join(SIDES[e] * n for e, n in enumerate(counts))
    doc: dict[str, Any] = {"id": tile.id, "type": tile.type, "premium": tile.premium,
                           "metal": edges(int(m) for m in tile.metal)}
    if any(tile.arrows):
        doc["arrows"] = edges(tile.arrows)
    if any(tile.plates):
        doc["plates"] = edges(tile.plates)
    if tile.engines:
        doc["engines"] = tile.engines
    return doc


def box_tiles(payloads: Iterable[bytes]) -> list[dict[str, Any]]:
    """The ``tiles`` list of a box file from the payloads of every tile, ordered by id."""
    tiles: dict[int, TileDef] = {}
    for payload in payloads:
        tile = decode(payload)
        if tile.id in tiles and tiles[tile.id] != tile:
            raise TagError(f"two different tiles carry id {tile.id}: {tiles[tile.id].describe()} and "
                           f"{tile.describe()}; rewrite one with a free id")
        tiles[tile.id] = tile
    return [tile_json(tiles[i]) for i in sorted(tiles)]

"""Construction tiles as the table picks them: the tiles of the box, each tag self-describing.

A construction tile's tag carries its whole definition (tagcodec.py): type,
premium, metal, arrows, plates or engines. The picker offers the tiles of the
box in play by their printed description, so a tile laid from the console is
exactly the one the physical box holds.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from ...catalogue import PickerField, TagBytes, TileCatalogue, TileError, choices
from .. import tagcodec
from ..declaration import GAME as DECLARED
from ..tiles import BoxError, TileDef, load_box

BOX = "placeholder"  # the box shipped (option box); spec key "box" names another


class GoblinsTiles(TileCatalogue[TileDef]):
    tile_id, title = DECLARED.tile_id, DECLARED.title

    def fields(self) -> list[PickerField]:
        tiles = load_box(BOX).tiles
        ids = sorted(tiles)
        return [PickerField("tile", "construction tile",
                            choices((str(i) for i in ids), (tiles[i].describe() for i in ids)))]

    def make(self, spec: Mapping[str, Any]) -> TileDef:
        box_name, tile = str(spec.get("box", BOX)), str(spec.get("tile", "")).lstrip("t")
        try:
            box = load_box(box_name)
        except BoxError as err:
            raise TileError(str(err)) from err
        if not tile.isdigit() or int(tile) not in box.tiles:
            raise TileError(f"tile {spec.get('tile')!r}: no such tile in box {box_name!r} "
                            f"(tiles {min(box.tiles)}..{max(box.tiles)})")
        return box.tiles[int(tile)]

    def spec(self, tile: TileDef) -> dict[str, str]:
        return {"tile": str(tile.id)}

    def to_bytes(self, tile: TileDef, serial: int) -> TagBytes:
        try:
            kind, flags = tagcodec.tile_bytes(tile)
        except tagcodec.TagError as err:
            raise TileError(str(err)) from err
        return TagBytes(kind, 0, tile.id, flags)  # the serial is the tile's id in its box

    def from_bytes(self, tag: TagBytes) -> TileDef:
        try:
            return tagcodec.from_bytes(tag.kind, tag.serial, tag.flags)
        except tagcodec.TagError as err:
            raise TileError(f"{err}; {self.rewrite_hint()}") from err

    def every_tile(self) -> Iterator[TileDef]:
        box = load_box(BOX)
        return iter(box.tiles[i] for i in sorted(box.tiles))

    def words(self, tile: TileDef) -> str:
        return tile.describe()


CATALOGUE = GoblinsTiles()

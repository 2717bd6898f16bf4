"""The order tiles: five orders in each tank's colour; a tag says which order and whose.

A tag carries, in botboard's shared payload (docs/tiles.md), this game's
tile id, the order as its kind (0..4: F B L R X) and the tank as its colour
byte (0 red, 1 blue). `botboard tiles write --game lasertanks order=X tank=red`
writes one; the console's virtual-tile picker lays one from the same fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from botboard.games.catalogue import PickerField, TagBytes, TileCatalogue, TileError, choices

from .orders import ORDERS, WORDS

TANKS = ("red", "blue")  # seat 1, seat 2: the tiles' colours and the tanks' LEDs


@dataclass(frozen=True)
class OrderTile:
    order: str  # one of ORDERS
    owner: int  # the seat whose colour the tile is

    def __str__(self) -> str:
        return f"{TANKS[self.owner]} {WORDS[self.order]}"


class OrderTiles(TileCatalogue[OrderTile]):
    def fields(self) -> list[PickerField]:
        return [PickerField("order", "order", choices(ORDERS, (f"{o}: {WORDS[o]}" for o in ORDERS))),
                PickerField("tank", "tank", choices(TANKS))]

    def make(self, spec: Mapping[str, Any]) -> OrderTile:
        return OrderTile(self.field_value(spec, "order"), TANKS.index(self.field_value(spec, "tank")))

    def spec(self, tile: OrderTile) -> dict[str, str]:
        return {"order": tile.order, "tank": TANKS[tile.owner]}

    def to_bytes(self, tile: OrderTile, serial: int) -> TagBytes:
        return TagBytes(ORDERS.index(tile.order), tile.owner, serial)

    def from_bytes(self, tag: TagBytes) -> OrderTile:
        if tag.kind >= len(ORDERS) or tag.colour >= len(TANKS):
            raise TileError(f"order {tag.kind} of tank {tag.colour} is no Laser Tanks tile: "
                            f"{self.rewrite_hint()}")
        return OrderTile(ORDERS[tag.kind], tag.colour)

    def every_tile(self) -> Iterator[OrderTile]:
        return (OrderTile(order, owner) for owner in range(len(TANKS)) for order in ORDERS)

    def words(self, tile: OrderTile) -> str:
        return str(tile)

    def explain(self, tile: OrderTile) -> str:
        return {"F": "The tank drives one square ahead.", "B": "The tank backs up one square.",
                "L": "The tank turns a quarter to its left.", "R": "The tank turns a quarter to its right.",
                "X": "The tank fires its laser straight ahead, to the arena's edge."}[tile.order]


CATALOGUE = OrderTiles()

"""Write the reference layout files in hardware/layouts/ (run once after a change).

``python -m botboard.hardware.generate_layouts``. The files, not this script,
are the source of truth: edit them by hand for a board wired differently.
"""

from __future__ import annotations

import json
from typing import Any

from ..layouts import BUTTON_ROLES, LAYOUT_DIR

SLOTS_PER_STATION = 6  # 3 order slots per robot, 2 robots


def hex_cells_serpentine(radius: int) -> list[tuple[int, int]]:
    """Hexes row by row from the north, alternating direction: one short LED chain path."""
    cells = []
    for row, r in enumerate(range(-radius, radius + 1)):
        qs = [q for q in range(-radius, radius + 1) if abs(q + r) <= radius]
        cells += [(q, r) for q in (qs if row % 2 == 0 else reversed(qs))]
    return cells


def square_cells_serpentine(width: int, height: int) -> list[tuple[int, int]]:
    cells = []
    for row, y in enumerate(range(height, 0, -1)):
        xs = range(1, width + 1)
        cells += [(x, y) for x in (xs if row % 2 == 0 else reversed(xs))]
    return cells


def stations(names: list[str], slots: int = SLOTS_PER_STATION) -> list[dict[str, Any]]:
    roles = len(BUTTON_ROLES)
    return [{"name": name, "slots": list(range(i * slots, (i + 1) * slots)),
             "buttons": {role: i * roles + k for k, role in enumerate(BUTTON_ROLES)}}
            for i, name in enumerate(names)]


def chains(cell_count: int, per_chain: int) -> list[dict[str, int]]:
    """Split the cells over PIO chains on consecutive pins from GP6."""
    out: list[dict[str, int]] = []
    first = 0
    while first < cell_count:
        n = min(per_chain, cell_count - first)
        out.append({"pin": 6 + len(out), "first_cell": first, "cells": n})
        first += n
    return out


def layouts() -> list[dict[str, Any]]:
    small, big = hex_cells_serpentine(4), hex_cells_serpentine(5)
    return [
        {"id": "ttb-small", "title": "Twin Tin Bots, small arena (61 hexes), 4 stations",
         "grid": "hex", "leds_per_cell": 7, "touch": True, "cells": small,
         "chains": chains(len(small), 31),
         "stations": stations(["north", "east", "south", "west"])},
        {"id": "ttb-big", "title": "Twin Tin Bots, big arena (91 hexes), 6 stations",
         "grid": "hex", "leds_per_cell": 7, "touch": True, "cells": big,
         "chains": chains(len(big), 46),
         "stations": stations(["north", "north-east", "south-east", "south", "south-west",
                               "north-west"])},
    ]


def main() -> None:
    LAYOUT_DIR.mkdir(parents=True, exist_ok=True)
    for layout in layouts():
        text = json.dumps(layout, indent=1)
        (LAYOUT_DIR / f"{layout['id']}.json").write_text(text + "\n")


if __name__ == "__main__":
    main()

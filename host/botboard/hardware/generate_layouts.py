"""Write the reference layout files in hardware/layouts/ (run once after a change).

``python -m botboard.hardware.generate_layouts``. The files, not this script,
are the source of truth: edit them by hand for a board wired differently.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..board.layouts import BUTTON_ROLES, LAYOUT_DIR

SLOTS_PER_STATION = 6  # 3 order slots per robot, 2 robots
# the reference pinout (hardware/pinout.md), copied into every layout so that
# a board wired differently needs only its layout file edited
PINS = {"sck": 18, "mosi": 19, "miso": 16, "cs_latch": 17, "cs_oe": 20, "rst": 21,
        "row_latch": 22, "cols": [10, 11, 12, 13, 14, 15, 26, 27], "safe": 28}
FIRST_CHAIN_PIN = 2  # LED chains from GP2, one PIO state machine each
FIRST_SENSE_PIN = 8  # each chain's last data-out comes back on GP8, GP9 (hardware/wiring.md)
# slots (one reader each) 50 mm apart centre to centre: the reference pitch of the field
# schedule (firmware/bbfw/sim/coupling.json, hardware/wiring.md)
PITCH_MM = 50
COMPASS_DEG = {"north": 90, "north-east": 30, "east": 0, "south-east": -30, "south": 270,
               "south-west": 210, "west": 180, "north-west": 150}


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


def stations(names: list[str], slots: int = SLOTS_PER_STATION, edge_mm: int = 400) -> list[dict[str, Any]]:
    """Stations named by compass direction, each a row of slots edge_mm from the arena's
    centre, PITCH_MM apart, left to right as the player sitting there sees them."""
    roles = len(BUTTON_ROLES)
    return [{"name": name, "slots": list(range(i * slots, (i + 1) * slots)),
             "slot_mm": row_mm(COMPASS_DEG[name], edge_mm, slots),
             "buttons": {role: i * roles + k for k, role in enumerate(BUTTON_ROLES)}}
            for i, name in enumerate(names)]


def row_mm(degrees: float, edge_mm: float, count: int) -> list[list[float]]:
    """Slot centres (x east, y north, mm from the arena's centre) of a row facing the centre."""
    a = math.radians(degrees)
    cx, cy = edge_mm * math.cos(a), edge_mm * math.sin(a)
    tx, ty = -math.sin(a), math.cos(a)  # to the right of a player facing the centre
    first = -(count - 1) / 2
    return [[round(cx + (first + k) * PITCH_MM * tx, 1), round(cy + (first + k) * PITCH_MM * ty, 1)]
            for k in range(count)]


def yard_cells(yards: int, size: int = 5) -> list[tuple[int, int]]:
    """Construction yards side by side, one empty column between them, rows from the north."""
    cells = []
    for yard in range(yards):
        x0 = yard * (size + 1)
        cells += [(x0 + x, y) for x, y in square_cells_serpentine(size, size)]
    return cells


def chains(cell_count: int, per_chain: int) -> list[dict[str, int]]:
    """Split the cells over PIO chains on consecutive pins from GP2, each with its sense pin."""
    out: list[dict[str, int]] = []
    first = 0
    while first < cell_count:
        n = min(per_chain, cell_count - first)
        out.append({"pin": FIRST_CHAIN_PIN + len(out), "first_cell": first, "cells": n,
                    "sense": FIRST_SENSE_PIN + len(out)})
        first += n
    assert len(out) <= 2, "the reference pinout has sense pins for two chains"
    return out


def layouts() -> list[dict[str, Any]]:
    # power_ma: the LED current budget of each board's supply (hardware/power.md)
    small, big = hex_cells_serpentine(4), hex_cells_serpentine(5)
    botwars, volt = square_cells_serpentine(12, 12), square_cells_serpentine(8, 8)
    yards = yard_cells(2)
    compass = ["north", "east", "south", "west"]
    return [
        {"id": "ttb-small", "title": "Twin Tin Bots, small arena (61 hexes), 4 stations",
         "grid": "hex", "game": "twin-tin-bots", "leds_per_cell": 7, "touch": True, "power_ma": 5000, "cells": small,
         "chains": chains(len(small), 31),
         "stations": stations(compass, edge_mm=400)},
        {"id": "ttb-big", "title": "Twin Tin Bots, big arena (91 hexes), 6 stations",
         "grid": "hex", "game": "twin-tin-bots", "leds_per_cell": 7, "touch": True, "power_ma": 8000, "cells": big,
         "chains": chains(len(big), 46),
         "stations": stations(["north", "north-east", "south-east", "south", "south-west",
                               "north-west"], edge_mm=480)},
        # BotWars: a 5-card program per player, one slot per register
        {"id": "botwars", "title": "BotWars, 12x12 factory floor, 4 stations of 5 registers",
         "grid": "square", "game": "botwars", "leds_per_cell": 1, "touch": True, "power_ma": 5000, "cells": botwars,
         "chains": chains(len(botwars), 72), "stations": stations(compass, 5, edge_mm=380)},
        # VOLT: the arena size is not known from the rules notes (a data
        # choice, 8x8); one slot per die position on each operator's controller
        {"id": "volt", "title": "VOLT, 8x8 arena, 4 operators with 4 die slots",
         "grid": "square", "game": "volt", "leds_per_cell": 1, "touch": True, "power_ma": 4000, "cells": volt,
         "chains": chains(len(volt), 64), "stations": stations(compass, 4, edge_mm=300)},
        # Goblins, Inc.: two 5x5 construction yards (one robot each), a reader
        # under every square for the construction tiles; the cockpit square too
        {"id": "goblins", "title": "Goblins, Inc., two 5x5 construction yards",
         "grid": "square", "game": "goblins", "leds_per_cell": 1, "touch": False, "power_ma": 3000, "cells": yards,
         "chains": chains(len(yards), 50),
         "stations": [{"name": name, "slots": list(range(25 * i, 25 * (i + 1))),
                       # a reader under each square, PITCH_MM apart
                       "slot_mm": [[PITCH_MM * x, PITCH_MM * y] for x, y in yards[25 * i:25 * (i + 1)]],
                       "buttons": {role: 4 * i + k for k, role in enumerate(BUTTON_ROLES)}}
                      for i, name in enumerate(["yard-a", "yard-b"])]},
    ]


def main() -> None:
    LAYOUT_DIR.mkdir(parents=True, exist_ok=True)
    for layout in layouts():
        layout["pins"] = PINS
        text = json.dumps(layout, indent=1)
        (LAYOUT_DIR / f"{layout['id']}.json").write_text(text + "\n")


if __name__ == "__main__":
    main()

"""A game's LED palette file (``table/data/palette.json``): 16 named colours, in board order.

    PALETTE, INDEX, doc = load_palette(path)   # rgb tuples; name -> index; the whole document
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RGB = tuple[int, int, int]


def load_palette(path: Path) -> tuple[tuple[RGB, ...], dict[str, int], dict[str, Any]]:
    doc = json.loads(path.read_text())
    entries = doc["palette"]
    colours = tuple((e["rgb"][0], e["rgb"][1], e["rgb"][2]) for e in entries)
    return colours, {e["name"]: i for i, e in enumerate(entries)}, doc

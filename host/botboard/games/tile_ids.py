"""The published list of reserved tile ids (``reserved_tile_ids.json``, shown in docs/tiles.md).

    reserved()          # {0, 1, ..., 63, 101, 255}: ids no new game may take
    free_ids()          # the plugins' ids neither reserved nor used by an installed game

Kept as data so the list docs/tiles.md publishes and what `botboard new-game` avoids are one list
(tests/setup/test_tile_ids.py checks the page against it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .declaration import PLUGIN_TILE_IDS

FILE = Path(__file__).resolve().parent / "reserved_tile_ids.json"


def published() -> dict[str, Any]:
    """The file as it is: ``ranges`` (first, last, who) and ``games`` (id, game, package, who)."""
    doc: dict[str, Any] = json.loads(FILE.read_text())
    return doc


def reserved() -> set[int]:
    doc = published()
    ids = {i for r in doc["ranges"] for i in range(r["first"], r["last"] + 1)}
    return ids | {g["id"] for g in doc["games"]}


def free_ids() -> list[int]:
    """Plugin tile ids that are not reserved and that no installed game uses."""
    from . import registry

    taken = reserved() | {d.tile_id for d in registry.declarations().values()}
    return [i for i in PLUGIN_TILE_IDS if i not in taken]

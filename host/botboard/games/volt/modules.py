"""The module table (data/modules.json) and the usage rules every module follows.

Usage rules from the sources: a module is optional; one used with a die needs
an activated die of the card's die colour showing a number in the card's
range, and may be used once per control unit (several modules may share a
die); a die-less module acts whenever its situation arises; "instead of
moving/firing" replaces the basic action; the card beats a basic rule (the
golden rule, which the engine follows by letting module code run in place of
the basic step). Each operator sets a permanent preset per module: "ask"
(default: the engine asks before using it), "always" or "never".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from ..fields import BadValue

DATA = Path(__file__).parent / "data" / "modules.json"
DECKS = ("blue", "red", "yellow", "champion")


@dataclass(frozen=True)
class Module:
    id: str
    name: str
    deck: str
    die: str | None  # "red" | "blue" | None (no die)
    range: tuple[int, int] | None
    instead: str | None  # "moving" | "firing" | None
    source: str  # card | faq | unnamed
    params: Mapping[str, Any]

    def fits(self, colour: str, number: int) -> bool:
        """Whether an activated die of ``colour`` showing ``number`` allows this module."""
        if self.die is None or self.range is None:
            return False
        return colour == self.die and self.range[0] <= number <= self.range[1]


@lru_cache(maxsize=1)
def table() -> dict[str, Module]:
    doc = json.loads(DATA.read_text())
    out = {}
    for item in doc["modules"]:
        params = {k: v for k, v in item.items()
                  if k not in ("id", "name", "deck", "die", "range", "instead", "source")}
        rng = tuple(item["range"]) if item["range"] else None
        out[item["id"]] = Module(item["id"], item["name"], item["deck"], item["die"], rng,
                                 item["instead"], item["source"], params)
    return out


def module(name: str) -> Module:
    if not isinstance(name, str):
        raise BadValue(f"expected a module name, got {name!r}")
    found = table().get(name)  # the engine's own ids: no normalising on the hot path
    if found is not None:
        return found
    key = str(name).strip().lower().replace(" ", "-").replace("_", "-")
    if key not in table():
        raise BadValue(f"unknown module {name!r}; modules: {', '.join(table())}")
    return table()[key]


def deck_list(deck: str) -> list[str]:
    return [m.id for m in table().values() if m.deck == deck]


def param(name: str, key: str) -> Any:
    return module(name).params[key]

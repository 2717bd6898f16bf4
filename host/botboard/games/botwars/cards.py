"""Program cards and rulesets, read from data/deck.json and data/rulesets.json.

A card is identified by its priority (unique across the deck); its kind says
what it does. Notation: ``FWD2:670`` (kind and priority) or just ``670``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Mapping

from ..base import InvalidNotation, ScenarioError
from .board import DATA


@dataclass(frozen=True)
class CardKind:
    name: str
    move: int = 0  # squares forward (negative: backwards)
    turn: int = 0  # quarter turns clockwise
    side: int = 0  # squares sideways (-1 left, +1 right)


@dataclass(frozen=True)
class Deck:
    kinds: Mapping[str, CardKind]
    kind_of: Mapping[int, str]  # priority -> kind name
    base: tuple[int, ...]  # priorities dealt to every robot
    upgrade: tuple[int, ...]  # priorities dealt only with the right card set
    sets: tuple[tuple[str, tuple[str, ...]], ...]  # (set name, kinds), in unlock order
    by_priority: Mapping[int, CardKind]  # priority -> what the card does, decoded once

    def name(self, priority: int) -> str:
        return self.names[priority]

    @cached_property
    def names(self) -> dict[int, str]:
        """priority -> notation, e.g. FWD2:670 (every stage's event names the cards played)."""
        return {priority: f"{kind}:{priority:03d}" for priority, kind in self.kind_of.items()}

    def kind(self, priority: int) -> CardKind:
        return self.by_priority[priority]

    def parse(self, text: str) -> int:
        """``FWD2:670`` or ``670`` -> 670; InvalidNotation if unknown or mismatched."""
        if not isinstance(text, str):
            raise InvalidNotation(f"bad card {text!r}: expected KIND:PRIORITY, e.g. FWD2:670")
        kind, _, number = text.upper().rpartition(":")
        try:
            priority = int(number)
        except ValueError:
            raise InvalidNotation(f"bad card {text!r}: expected KIND:PRIORITY, e.g. FWD2:670") from None
        if priority not in self.kind_of:
            raise InvalidNotation(f"no card with priority {priority} in the deck")
        if kind and kind != self.kind_of[priority]:
            raise InvalidNotation(f"card {priority} is {self.kind_of[priority]}, not {kind}")
        return priority

    def usable(self, priority: int, card_sets: int) -> bool:
        """Whether a robot that unlocked the first ``card_sets`` sets may hold this card."""
        kind = self.kind_of[priority]
        for index, (_, kinds) in enumerate(self.sets):
            if kind in kinds:
                return index < card_sets
        return True

    def set_names(self, card_sets: int) -> list[str]:
        return [name for name, _ in self.sets[:card_sets]]


@lru_cache(maxsize=None)
def deck() -> Deck:
    doc = json.loads((DATA / "deck.json").read_text())
    kinds = {name: CardKind(name, **spec) for name, spec in doc["kinds"].items()}
    kind_of: dict[int, str] = {}
    groups: dict[str, list[int]] = {"base": [], "upgrade": []}
    for group in groups:
        for name, priorities in doc[group].items():
            for priority in priorities:
                if priority in kind_of:
                    raise ScenarioError(f"deck.json: priority {priority} used twice")
                kind_of[priority] = name
                groups[group].append(priority)
    sets = tuple((s["name"], tuple(s["kinds"])) for s in doc["sets"])
    by_priority = {priority: kinds[name] for priority, name in kind_of.items()}
    return Deck(kinds, kind_of, tuple(sorted(groups["base"])), tuple(sorted(groups["upgrade"])), sets,
                by_priority)


@lru_cache(maxsize=None)
def _rulesets() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((DATA / "rulesets.json").read_text())
    doc.pop("about", None)
    return doc


def ruleset(name: str) -> Mapping[str, Any]:
    rules = _rulesets()
    if name not in rules:
        raise ScenarioError(f"unknown ruleset {name!r}; known: {', '.join(sorted(rules))}")
    return dict(rules[name])


def ruleset_names() -> list[str]:
    return sorted(_rulesets())


@lru_cache(maxsize=1)
def robot_colours() -> list[str]:
    """The default robot colours (data/colours.json), p1 first."""
    colours: list[str] = json.loads((DATA / "colours.json").read_text())["robots"]
    return colours

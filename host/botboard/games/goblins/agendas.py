"""The 21 hidden agendas (data/agendas.json) and how each scores.

Defensive agendas count what is still on the player's own robot at the end
of combat; destructive ones count what is in the opponents' scrapyard; the
betting agenda pays on the side chosen before combat. "Per N" agendas count
complete sets only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from .state import Robot
from .tiles import DATA, TYPES, Box
from .yard import COCKPIT, name, xy

BET_SIDES = ("star", "snitch")
BETTING = "star/snitch"


@dataclass(frozen=True)
class Agenda:
    name: str
    kind: str  # defensive | destructive | betting
    count: str = ""
    per: int = 1
    points: int = 0
    ring: tuple[tuple[int, int], ...] = ()


@lru_cache(maxsize=1)
def agendas() -> Mapping[str, Agenda]:
    doc = json.loads((DATA / "agendas.json").read_text())
    out = {}
    for item in doc["agendas"]:
        ring = tuple(tuple(o) for o in doc[item["ring"]]) if "ring" in item else ()
        out[item["name"]] = Agenda(item["name"], item["kind"], item.get("count", ""),
                                   int(item.get("per", 1)), int(item["points"]), ring)
    return out


def deck() -> list[str]:
    """One colour's deck: every agenda once."""
    return list(agendas())


def card_of(kept: str) -> str:
    """The agenda card a kept entry stands for ("star" -> the betting card)."""
    return BETTING if kept in BET_SIDES else kept


def _ring(robot: Robot, agenda: Agenda) -> list[str]:
    x, y = xy(COCKPIT)
    squares = [name(x + dx, y + dy) for dx, dy in agenda.ring]
    return [s for s in squares if s is not None]


def _tiles_count(tiles: list[int], box: Box, what: str) -> int:
    defs = [box.tiles[t] for t in tiles]
    if what in TYPES:
        return sum(1 for d in defs if d.type == what)
    if what == "tiles":
        return len(defs)
    if what == "premium":
        return sum(1 for d in defs if d.premium)
    if what == "plain":
        return sum(1 for d in defs if not d.premium)
    if what == "triplet":
        return min(sum(1 for d in defs if d.type == t) for t in ("engine", "weapon", "decoration"))
    raise ValueError(f"agenda count {what!r} is not tile-based")


def count(agenda: Agenda, own: Robot, enemy: Robot, box: Box) -> int:
    """What ``agenda`` counts, for the player of ``own`` against ``enemy``."""
    if agenda.kind == "defensive":
        if agenda.count == "tokens":
            return len(own.tokens)
        if agenda.count == "ring-tiles":
            return sum(1 for s in _ring(own, agenda) if s in own.yard)
        return _tiles_count([t for t, _ in own.yard.values()], box, agenda.count)
    if agenda.count == "tokens":
        return enemy.scrap_tokens
    if agenda.count == "goblins":
        return len(enemy.scrap_goblins)
    if agenda.count == "ring-empty":
        return sum(1 for s in _ring(enemy, agenda) if s not in enemy.yard)
    return _tiles_count(enemy.scrap, box, agenda.count)


def score(kept: str, own: Robot, enemy: Robot, box: Box, won: bool | None) -> int:
    """Points of one kept agenda; ``won`` None when nobody won the round."""
    if kept in BET_SIDES:
        if won is None:
            return 0
        return agendas()[BETTING].points if won == (kept == "star") else 0
    agenda = agendas()[kept]
    return count(agenda, own, enemy, box) // agenda.per * agenda.points



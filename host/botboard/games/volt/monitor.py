"""The monitor: the slots a robot's equipped modules sit in (FAQ 2a).

Nothing may be placed next to a yellow module, whichever is placed first, and
a card is never turned round to make its connections fit (so the engine has no
rotation to offer). The real monitor's layout is not in the sources: layouts
are data (``data/monitors.json``), each one the project's assumption, and
every connection is taken to fit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from ..base import ScenarioError
from .modules import module

DATA = Path(__file__).parent / "data" / "monitors.json"


@dataclass(frozen=True)
class Monitor:
    name: str
    slots: int
    adjacent: frozenset[frozenset[int]]

    def neighbours(self, slot: int) -> list[int]:
        return _neighbours(self.adjacent, slot)


def load_monitor(ref: str | Mapping[str, Any]) -> Monitor:
    """A monitor by name (data/monitors.json) or an inline ``{"slots": n, "adjacent": [[1, 2], ...]}``."""
    if isinstance(ref, Mapping):
        return _inline(json.dumps(ref, sort_keys=True))
    if not isinstance(ref, str):
        raise ScenarioError(f"monitor: expected a monitor name or object, got {ref!r}")
    return _named(ref)


@lru_cache(maxsize=16)
def _named(name: str) -> Monitor:
    known = _layouts()
    if name not in known:
        raise ScenarioError(f"unknown monitor {name!r}; monitors: {', '.join(known)}")
    return _from_json(name, known[name])


@lru_cache(maxsize=256)
def _neighbours(adjacent: frozenset[frozenset[int]], slot: int) -> list[int]:
    return sorted(n for pair in adjacent if slot in pair for n in pair if n != slot)


@lru_cache(maxsize=1)
def _layouts() -> dict[str, Any]:
    return dict(json.loads(DATA.read_text())["monitors"])


@lru_cache(maxsize=16)
def _inline(text: str) -> Monitor:
    return _from_json("inline", json.loads(text))


def _from_json(name: str, doc: Mapping[str, Any]) -> Monitor:
    try:
        slots = int(doc["slots"])
        adjacent = frozenset(frozenset(int(s) for s in pair) for pair in doc.get("adjacent", []))
    except (KeyError, TypeError, ValueError) as err:
        raise ScenarioError(f"monitor {name}: expected {{\"slots\": n, \"adjacent\": [[1, 2], ...]}}: "
                            f"{err}") from err
    for pair in adjacent:
        if len(pair) != 2 or not all(1 <= s <= slots for s in pair):
            raise ScenarioError(f"monitor {name}: adjacent {sorted(pair)} must name two slots of 1-{slots}")
    return Monitor(name, slots, adjacent)


def placement_problem(monitor: Monitor, contents: Mapping[int, str], module_id: str, slot: int) -> str | None:
    """Why ``module_id`` may not go into ``slot`` of a monitor holding ``contents``, or None."""
    if not 1 <= slot <= monitor.slots:
        return f"the monitor has slots 1-{monitor.slots}, not {slot}"
    if slot in contents:
        return f"slot {slot} already holds {module(contents[slot]).name}"
    yellow = module(module_id).deck == "yellow"
    for near in monitor.neighbours(slot):
        other = contents.get(near)
        if other is None:
            continue
        if yellow:
            return (f"{module(module_id).name} is a yellow module and slot {near}, next to slot {slot}, "
                    f"holds {module(other).name}: nothing may be next to a yellow module (FAQ 2a)")
        if module(other).deck == "yellow":
            return (f"slot {slot} is next to the yellow module {module(other).name} in slot {near}: "
                    "nothing may be placed next to a yellow module (FAQ 2a)")
    return None


def free_slots(monitor: Monitor, contents: Mapping[int, str], module_id: str) -> list[int]:
    return [s for s in range(1, monitor.slots + 1) if placement_problem(monitor, contents, module_id, s) is None]


def auto_place(monitor: Monitor, module_ids: list[str]) -> dict[int, str]:
    """The modules in the lowest slots that keep the rules (scenario positions that list modules)."""
    def place(contents: dict[int, str], rest: list[str]) -> dict[int, str] | None:
        if not rest:
            return contents
        for slot in free_slots(monitor, contents, rest[0]):
            done = place({**contents, slot: rest[0]}, rest[1:])
            if done is not None:
                return done
        return None

    placed = place({}, list(module_ids))
    if placed is None:
        names = ", ".join(module(m).name for m in module_ids)
        raise ScenarioError(f"{names} do not fit on the monitor {monitor.name} ({monitor.slots} slots): "
                            "nothing may be next to a yellow module (FAQ 2a); give the slots as "
                            "\"monitor\": {\"1\": ..., \"3\": ...} or choose another options.monitor")
    return placed


def check(monitor: Monitor, contents: Mapping[int, str]) -> None:
    """ScenarioError if ``contents`` breaks the monitor's rules."""
    placed: dict[int, str] = {}
    for slot, module_id in sorted(contents.items()):
        problem = placement_problem(monitor, placed, module_id, slot)
        if problem:
            raise ScenarioError(f"monitor: {module(module_id).name} in slot {slot}: {problem}")
        placed[slot] = module_id

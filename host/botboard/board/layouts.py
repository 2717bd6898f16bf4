"""Board layouts: the single source of truth for cells, LEDs, slots and buttons.

A layout file (hardware/layouts/NAME.json, format in docs/layouts.md) lists
the cells in LED-chain order, the chains, the player stations with their
slots (one reader each) and buttons. The console draws from it, the host maps
events with it, and the firmware gets a compact form of it (``board_config``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..resources import ROOT
from . import fields

LAYOUT_DIR = ROOT / "hardware" / "layouts"
BUTTON_ROLES = ("confirm", "cancel", "previous", "next")
MAX_POWER_MA = 65535  # the largest budget SET_CONFIG carries


class LayoutError(ValueError):
    """A layout file that is missing or inconsistent."""


@dataclass(frozen=True)
class Station:
    name: str
    slots: tuple[int, ...]  # global slot indices, left to right
    buttons: dict[str, int]  # role -> global button index
    # each slot's reader centre, (x east, y north) in mm from the arena's centre; () unknown
    slot_mm: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class Layout:
    id: str
    title: str
    grid: str  # "hex" (axial q, r) or "square" (x, y)
    cells: tuple[tuple[int, int], ...]  # coordinates, in LED-chain order
    leds_per_cell: int
    chains: tuple[dict[str, int], ...]  # {"pin", "first_cell", "cells"(, "sense")}
    stations: tuple[Station, ...]
    touch: bool  # arena cells carry touch buttons
    power_ma: int  # LED current budget in mA (hardware/power.md): the firmware clamps to it from boot
    game: str = ""  # the game whose tiles the board takes (a registered name), "" for any
    chain_ma: int = 4000  # the most one LED chain carries: its 5 A fuse less 20 % (hardware/power.md)
    pins: dict[str, Any] = field(default_factory=dict)  # board pins (hardware/pinout.md)

    @property
    def slot_count(self) -> int:
        return sum(len(s.slots) for s in self.stations)

    @property
    def button_count(self) -> int:
        return sum(len(s.buttons) for s in self.stations)

    @property
    def led_count(self) -> int:
        return len(self.cells) * self.leds_per_cell

    def cell_index(self, coord: tuple[int, int]) -> int:
        return self._index()[coord]

    def _index(self) -> dict[tuple[int, int], int]:
        return {c: i for i, c in enumerate(self.cells)}

    def slot_owner(self, slot: int) -> tuple[int, int]:
        """(station index, position in the station) of a global slot index."""
        for s, station in enumerate(self.stations):
            if slot in station.slots:
                return s, station.slots.index(slot)
        raise LayoutError(f"slot {slot} is not in layout {self.id}")

    def slot_positions(self) -> list[tuple[float, float]] | None:
        """Every slot's reader centre in mm, by slot index; None unless every station gives them."""
        if not all(s.slot_mm for s in self.stations):
            return None
        at: dict[int, tuple[float, float]] = {}
        for station in self.stations:
            at.update(zip(station.slots, station.slot_mm))
        return [at[i] for i in range(self.slot_count)]

    def field_groups(self) -> list[int] | None:
        """Each slot's field group (board/fields.py), or None without slot positions."""
        where = self.slot_positions()
        return fields.groups(where) if where else None

    def button_owner(self, button: int) -> tuple[int, str]:
        for s, station in enumerate(self.stations):
            for role, index in station.buttons.items():
                if index == button:
                    return s, role
        raise LayoutError(f"button {button} is not in layout {self.id}")

    def board_config(self) -> dict[str, Any]:
        """The compact form the firmware reads (board.json on the board)."""
        config: dict[str, Any] = {
            "layout": self.id, "cells": len(self.cells), "leds_per_cell": self.leds_per_cell,
            "slots": self.slot_count, "buttons": self.button_count, "touch": self.touch,
            "chains": [[c["pin"], c["first_cell"], c["cells"]] + ([c["sense"]] if "sense" in c else [])
                       for c in self.chains],
            "power_ma": self.power_ma, "chain_ma": self.chain_ma}
        if self.game:
            config["game"] = game_id(self.game)
        if self.pins:
            config["pins"] = self.pins
        groups = self.field_groups()
        if groups is not None:
            # the field schedule: one digit per slot (at most 10 groups: checked on load)
            config["fields"] = "".join(str(g) for g in groups)
            # and their zones, a character each from "0" (at most 75: checked on load)
            config["zones"] = "".join(chr(48 + z) for z in fields.zones(self.slot_positions() or []))
            config["rf"] = list(fields.rf())
        return config

    def sim_config(self) -> dict[str, Any]:
        """board_config() and what only the simulated board reads (and drops at boot): the
        readers' places and the coupling model's figures, so that tiles are heard by distance."""
        config = self.board_config()
        where = self.slot_positions()
        if where is not None:
            config["slot_mm"] = [list(p) for p in where]
            config["coupling"] = fields.model()
        return config

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "grid": self.grid,
                "cells": [list(c) for c in self.cells], "leds_per_cell": self.leds_per_cell,
                "chains": list(self.chains), "touch": self.touch, "power_ma": self.power_ma, "chain_ma": self.chain_ma, "game": self.game,
                "pins": self.pins,
                "stations": [{"name": s.name, "slots": list(s.slots), "buttons": s.buttons}
                             | ({"slot_mm": [list(p) for p in s.slot_mm]} if s.slot_mm else {})
                             for s in self.stations]}


def game_id(name: str) -> int:
    """The tile payload's game id of the game a layout names (docs/tiles.md); 0 (tiles of any
    game: the host still checks every tag) when that game is not installed."""
    from ..games import registry

    found = registry.resolve(name)
    return found.tile_id if found is not None else 0


def _files() -> dict[str, Path]:
    """Every layout by name: the reference boards in hardware/layouts, then the boards the
    installed games ship in their own packages."""
    from ..games import registry

    found = {p.stem: p for p in sorted(LAYOUT_DIR.glob("*.json"))}
    for declaration in registry.declarations().values():
        for board in declaration.boards:
            if board.endswith(".json"):
                path = declaration.folder() / board
                found.setdefault(path.stem, path)
    return found


def names() -> list[str]:
    return sorted(_files())


def load(name_or_path: str) -> Layout:
    path = Path(name_or_path)
    if not path.suffix:
        path = _files().get(name_or_path, LAYOUT_DIR / f"{name_or_path}.json")
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as err:
        if isinstance(err, FileNotFoundError):
            raise LayoutError(f"no layout {name_or_path!r}; known layouts: {', '.join(names())}") from None
        raise LayoutError(f"{path}: cannot be read ({err})") from err
    except ValueError:  # a NUL in a name from a settings file
        raise LayoutError(f"no layout {name_or_path!r}; known layouts: {', '.join(names())}") from None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as err:  # not JSON, a 5,000-digit number, nested too deep
        why = "a number too long" if "int_max_str_digits" in str(err) else \
            "nested too deep" if isinstance(err, RecursionError) else str(err)
        raise LayoutError(f"{path}: not JSON: {why}") from err
    return from_json(doc, str(path))


def _kinds(doc: Any, where: str) -> None:
    """Each field of the kind it must be (an edited file may hold any JSON anywhere)."""
    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and abs(v) < 2**31

    def number(v: Any) -> bool:
        return (whole(v) or isinstance(v, float)) and v == v and abs(v) < 1e9  # not NaN nor infinite

    def pair(v: Any, item: Any) -> bool:
        return isinstance(v, list) and len(v) == 2 and all(item(x) for x in v)

    checks = {
        "id": lambda v: isinstance(v, str) and v != "", "title": lambda v: isinstance(v, str),
        "grid": lambda v: isinstance(v, str), "game": lambda v: isinstance(v, str),
        "leds_per_cell": whole, "touch": lambda v: isinstance(v, bool),
        "cells": lambda v: isinstance(v, list) and all(pair(c, whole) for c in v),
        "chains": lambda v: isinstance(v, list) and all(
            isinstance(c, dict) and all(whole(c.get(k)) for k in ("pin", "first_cell", "cells"))
            and c["cells"] >= 0 for c in v),
        "stations": lambda v: isinstance(v, list) and all(
            isinstance(s, dict) and isinstance(s.get("name"), str)
            and isinstance(s.get("slots"), list) and all(whole(i) for i in s["slots"])
            and isinstance(s.get("buttons"), dict) and all(whole(i) for i in s["buttons"].values())
            and isinstance(s.get("slot_mm", []), list) and all(pair(p, number) for p in s.get("slot_mm", []))
            for s in v),
        "pins": lambda v: isinstance(v, dict) and all(
            whole(p) or (isinstance(p, list) and all(whole(x) for x in p)) for p in v.values()),
    }
    if not isinstance(doc, dict):
        raise LayoutError(f"{where}: a layout is a JSON object (hardware/layouts/*.json are examples)")
    for key, check in checks.items():
        if key in doc and not check(doc[key]):
            raise LayoutError(f"{where}: {key} = {json.dumps(doc[key])[:60]} is not what a layout's "
                              f"{key} holds (hardware/layouts/*.json are examples)")


def from_json(doc: dict[str, Any], where: str = "layout") -> Layout:
    _kinds(doc, where)
    if isinstance(doc, dict) and "power_ma" not in doc:
        raise LayoutError(f"{where}: no power_ma: give the LED current budget in mA that the supply "
                          "can feed (hardware/power.md), e.g. \"power_ma\": 5000")
    try:
        layout = Layout(
            id=doc["id"], title=doc.get("title", doc["id"]), grid=doc["grid"],
            cells=tuple((int(a), int(b)) for a, b in doc["cells"]),
            leds_per_cell=int(doc["leds_per_cell"]),
            chains=tuple(doc["chains"]), touch=bool(doc.get("touch", False)),
            power_ma=doc["power_ma"],
            stations=tuple(Station(s["name"], tuple(s["slots"]), dict(s["buttons"]),
                                   tuple((float(x), float(y)) for x, y in s.get("slot_mm", ())))
                           for s in doc["stations"]),
            game=str(doc.get("game", "")), pins=dict(doc.get("pins", {})),
            chain_ma=doc.get("chain_ma", 4000),
        )
        _validate(layout, where)
    except LayoutError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as err:
        # a field of the wrong kind (a list where a number goes, a number where a list does)
        raise LayoutError(f"{where}: bad or missing field: {type(err).__name__}: {err}") from err
    return layout


def _validate(layout: Layout, where: str) -> None:
    if not isinstance(layout.power_ma, int) or isinstance(layout.power_ma, bool) \
            or not 1 <= layout.power_ma <= MAX_POWER_MA:
        raise LayoutError(f"{where}: power_ma must be the LED current budget in mA, 1..{MAX_POWER_MA} "
                          f"(size it from the supply: hardware/power.md), not {layout.power_ma!r}")
    if not isinstance(layout.chain_ma, int) or isinstance(layout.chain_ma, bool) \
            or not 1 <= layout.chain_ma <= MAX_POWER_MA:
        raise LayoutError(f"{where}: chain_ma must be the current one LED chain may carry in mA "
                          f"(its fuse less 20 %: hardware/power.md), not {layout.chain_ma!r}")
    if layout.grid not in ("hex", "square"):
        raise LayoutError(f"{where}: grid must be 'hex' or 'square', not {layout.grid!r}")
    if len(set(layout.cells)) != len(layout.cells):
        raise LayoutError(f"{where}: a cell is listed twice")
    covered = sorted(i for c in layout.chains for i in range(c["first_cell"], c["first_cell"] + c["cells"]))
    if covered != list(range(len(layout.cells))):
        raise LayoutError(f"{where}: the chains must cover every cell exactly once")
    slots = sorted(i for s in layout.stations for i in s.slots)
    if slots != list(range(len(slots))):
        raise LayoutError(f"{where}: slots must be numbered 0..{len(slots) - 1}, each once")
    buttons = sorted(i for s in layout.stations for i in s.buttons.values())
    if buttons != list(range(len(buttons))):
        raise LayoutError(f"{where}: buttons must be numbered 0..{len(buttons) - 1}, each once")
    _validate_places(layout, where)


def _validate_places(layout: Layout, where: str) -> None:
    # slot_mm: one place per slot in every station, or in none (no field schedule)
    given = [s for s in layout.stations if s.slot_mm]
    for s in given:
        if len(s.slot_mm) != len(s.slots):
            raise LayoutError(f"{where}: station {s.name!r} has {len(s.slots)} slots but "
                              f"{len(s.slot_mm)} slot_mm places: give one [x, y] in mm per slot")
    if given and len(given) != len(layout.stations):
        missing = ", ".join(repr(s.name) for s in layout.stations if not s.slot_mm)
        raise LayoutError(f"{where}: slot_mm is missing for station {missing}: give every "
                          "station's slot places, or none (then every reader's field stays on)")
    positions = layout.slot_positions()
    if positions is None:
        return
    too_close = fields.problems(positions)
    if too_close:
        raise LayoutError(f"{where}: {too_close[0]}")
    if max(fields.zones(positions)) > 74:
        raise LayoutError(f"{where}: more than 75 reader zones (groups of slots within hearing "
                          f"of each other): the board config cannot name them all")
    if max(fields.groups(positions)) > 9:
        raise LayoutError(f"{where}: the readers need more than 10 field groups: space the "
                          f"slots further apart (hardware/wiring.md, reader spacing)")

"""The readers' field schedule, from where the slots are and the coupling model.

Neighbouring MFRC522 readers hear each other's tiles when both fields are on
(hardware/wiring.md, reader spacing). The firmware therefore switches the
fields by group: readers within hearing of each other's slots are in different
groups, and a group's fields are on only in its turn (firmware/bbfw/scanner.py).
This module, given a layout's slot positions and the model's figures
(firmware/bbfw/sim/coupling.json, each with its source), computes

- ``neighbours``: which readers could hear a tile lying in another's slot;
- ``groups``: a colouring of that graph, the field group of every slot;
- ``zones``: its connected components (a station, as a rule): the firmware
  switches the fields of the active station's zone and of the others on their
  own turns, as no reader of one hears a tile of another;
- ``rf``: the receiver gain and transmitter drive a slot needs;
- ``problems``: slot positions no schedule can make work (too close).

Pure: no I/O beyond reading the model's file, no board.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any, Sequence

from ..resources import ROOT

MODEL_PATH = ROOT / "firmware" / "bbfw" / "sim" / "coupling.json"
RXGAIN_DB = (18, 23, 18, 23, 33, 38, 43, 48)  # RFCfgReg RxGain codes (MFRC522 data sheet 9.3.3.6)
CW_MAX = 0x3F  # CWGsPReg and ModGsPReg hold 6 bits

Point = Sequence[float]


@lru_cache(maxsize=1)
def model() -> dict[str, Any]:
    """The coupling model's figures (coupling.json), without their sources."""
    doc: dict[str, Any] = json.loads(MODEL_PATH.read_text())
    return {k: v for k, v in doc.items() if not k.endswith("_source") and k != "comment"}


def coupling(r_mm: float, m: dict[str, Any] | None = None) -> float:
    """Relative field (and mutual coupling) of an antenna at a tag r_mm from its centre,
    in the antenna plane's direction (coupling.json field_law)."""
    m = m or model()
    w, h = m["antenna_mm"]
    a2 = w * h / math.pi
    return float(a2 * math.sqrt(a2) / (a2 + r_mm ** 2 + m["tag_height_mm"] ** 2) ** 1.5)


def _need(m: dict[str, Any]) -> float:
    # the field a tag needs, in coupling x CWGsPReg units: what full drive gives at power_range_mm
    return coupling(m["power_range_mm"], m) * m["cw_full"]


def neighbours(slots: Sequence[Point], m: dict[str, Any] | None = None) -> list[set[int]]:
    """For each slot, the readers that can hear a tile lying anywhere in it (within
    slot_tolerance_mm of its centre) while it is powered."""
    m = m or model()
    reach = m["hearing_range_mm"] + m["slot_tolerance_mm"]
    return [{j for j, q in enumerate(slots) if j != i and math.dist(p, q) <= reach}
            for i, p in enumerate(slots)]


def groups(slots: Sequence[Point], m: dict[str, Any] | None = None) -> list[int]:
    """The field group of every slot: neighbours never share one (greedy colouring in
    slot order, which alternates along a station's row)."""
    graph = neighbours(slots, m)
    out: list[int] = []
    for i in range(len(slots)):
        taken = {out[j] for j in graph[i] if j < i}
        out.append(next(g for g in range(len(slots) + 1) if g not in taken))
    return out


def zones(slots: Sequence[Point], m: dict[str, Any] | None = None) -> list[int]:
    """The zone of every slot: slots joined by a chain of neighbours share one, numbered
    in slot order; readers of different zones never hear each other's tiles."""
    graph = neighbours(slots, m)
    out = [-1] * len(slots)
    count = 0
    for first in range(len(slots)):
        if out[first] >= 0:
            continue
        todo = [first]
        out[first] = count
        while todo:
            for j in graph[todo.pop()]:
                if out[j] < 0:
                    out[j] = count
                    todo.append(j)
        count += 1
    return out


def rf(m: dict[str, Any] | None = None) -> tuple[int, int, int]:
    """(RFCfgReg, CWGsPReg, ModGsPReg) for the range a slot needs.

    Drive: the least CWGsPReg that still powers a tile at the edge of its slot with the
    model's solid margin, from its own reader alone (more only powers the neighbours' tiles).
    Gain: the lowest; the model's hearing range does not depend on it (coupling.json), a
    tile in its own slot is coupled far above the hearing limit, and a lower gain decodes
    fewer of a weak link's answers wrongly. ModGsPReg equals the drive (the driver sends
    100 % ASK, where it does not set the modulation depth).
    """
    m = m or model()
    edge = coupling(m["slot_tolerance_mm"], m)
    cw = min(CW_MAX, math.ceil(_need(m) * m["solid_power_margin"] / edge))
    gain = min(range(len(RXGAIN_DB)), key=lambda code: (RXGAIN_DB[code], code))
    return gain << 4, cw, cw


def problems(slots: Sequence[Point], m: dict[str, Any] | None = None) -> list[str]:
    """Slot pairs no field schedule can keep apart: a reader's own field, at the drive
    rf() sets, powers a tile lying in the other's slot (so it reads it in its own turn)."""
    m = m or model()
    _, cw, _ = rf(m)
    need = _need(m)
    tol = m["slot_tolerance_mm"]
    out = []
    for i, p in enumerate(slots):
        for j in range(i + 1, len(slots)):
            d = math.dist(p, slots[j])
            if coupling(max(0.0, d - tol), m) * cw >= need:
                out.append(f"slots {i} and {j} are {d:.0f} mm apart: each reader powers a tile "
                           f"lying in the other's slot, which no field schedule prevents; place "
                           f"readers at least {min_pitch(m):.0f} mm apart (hardware/wiring.md)")
    return out


def min_pitch(m: dict[str, Any] | None = None) -> float:
    """The least distance between two readers' centres at which neither, at rf()'s drive,
    powers a tile lying anywhere in the other's slot."""
    m = m or model()
    _, cw, _ = rf(m)
    need = _need(m)
    d = 0.0
    while coupling(d, m) * cw >= need:
        d += 0.5
    return d + m["slot_tolerance_mm"]


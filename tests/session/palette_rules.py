"""Which palette entries must look different, and by how much (CIEDE2000 on the WS2812B, led_colour.py).

    shortfalls(entries, variant)   every pair closer than its threshold: (distance, needed, a, b, condition)

Each entry of a game's palette.json has a role. The thresholds, and why (docs/palettes.md explains them):
- 40 between the alert and every seat colour: an alert blinks on a robot of any seat, and must not
  be read as that seat's robot (or another seat's) in the dark half of the blink's neighbours.
- 25 between any two entries that carry meaning at a glance (seats, pieces, animation effects, the
  choice highlight, the alert). CIEDE2000 near 1 is a just-noticeable difference on paper; naming
  two LEDs apart across a table needs far more: the confusions players reported (alert #ff0028 vs
  red #ff0000: 26.5; green seat vs green crystal: 23.5; yellow seat vs blob: 23.4; white seat vs
  choice: 9.0) all sit at or under 26.5, so 25 plus the alert's 40 leave none of them standing.
- 15 between a dim entry (floor, a seat's mark such as its nose or mine) and any other lit entry but
  the seat it belongs to ("of"): dim entries sit beside what they belong to, and are told by hue.
- "off" is dark and is checked against nothing.
Every pair is checked at full brightness and at scale 64/256, where the renderer's power limit leaves
a brightly lit arena (led_colour.py repeats its rounding). The colour-blind palette must also pass
these under simulated deuteranopia and protanopia, with the thresholds below (CVD_NEEDED): a
dichromat's colours lie on one hue axis plus lightness, so only the pairs that decide play are kept.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Sequence

from . import led_colour

GLANCE = frozenset({"seat", "piece", "effect", "choice", "alert"})
DIM = frozenset({"floor", "mark"})
SCALES = (led_colour.FULL, 64)
ALERT_VS_SEAT = 30.0
AT_A_GLANCE = 25.0
DIM_APART = 15.0
# under simulated dichromacy (colour-blind palette only): role pair -> threshold
CVD_NEEDED: dict[frozenset[str], float] = {
    frozenset({"alert", "seat"}): 20.0,
    frozenset({"seat"}): 15.0,
    frozenset({"choice", "seat"}): 15.0,
    frozenset({"alert", "choice"}): 15.0,
}


def needed(a: dict[str, Any], b: dict[str, Any], variant: str = "standard") -> tuple[float, bool]:
    """The distance two entries must keep (0: need not differ), and whether by hue and chroma alone."""
    roles = {a["role"], b["role"]}
    if "off" in roles or a.get("of") == b["name"] or b.get("of") == a["name"]:
        return 0.0, False
    if variant != "standard":  # a dichromat's colours differ by lightness more than by hue: let it count
        return CVD_NEEDED.get(frozenset(roles), 0.0), False
    chromatic = "alert" in roles  # a blink swings lightness: it cannot tell the alert apart
    if roles == {"alert", "seat"}:
        return ALERT_VS_SEAT, chromatic
    if roles <= GLANCE:
        return AT_A_GLANCE, chromatic
    return DIM_APART, chromatic


def shortfalls(entries: Sequence[dict[str, Any]], variant: str = "standard",
               ) -> list[tuple[float, float, str, str, str]]:
    """Pairs closer than they must be, as (distance, needed, name, name, 'vision@scale')."""
    key = "rgb" if variant == "standard" else variant
    visions = ("normal",) if variant == "standard" else led_colour.VISIONS
    out = []
    for a, b in combinations(entries, 2):
        for vision in visions:
            need, chromatic = needed(a, b, variant)
            if not need:
                continue
            for scale in SCALES:
                d = led_colour.distance(a.get(key, a["rgb"]), b.get(key, b["rgb"]), scale, vision, chromatic)
                if d < need:
                    out.append((round(d, 1), need, a["name"], b["name"], f"{vision}@{scale}"))
    return out

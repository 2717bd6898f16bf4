"""The WS2812 bit times a chain must see, and the check of what the emulated Pico's pin did.

Windows in ns, (min, max), for both parts a chain may hold:
- the classic WS2812B (Worldsemi datasheet, "data transfer time"): T0H 0.4, T1H 0.8, T0L 0.85,
  T1L 0.45 us, each +-150 ns;
- the WS2812B-V5 of the BOM (its datasheet): T0H 220-380 ns, T1H, T0L and T1L 580 ns-1 us.

``violations(timing)`` takes the shortest and longest of each time the LED decoder measured
on the data pin (chip/node/ws2812.mjs, the control socket's ``stats``) and names each that
leaves a window.
"""

from __future__ import annotations

from typing import Any

CLASSIC = {"T0H": (250, 550), "T1H": (650, 950), "T0L": (700, 1000), "T1L": (300, 600)}
V5 = {"T0H": (220, 380), "T1H": (580, 1000), "T0L": (580, 1000), "T1L": (580, 1000)}
PARTS = {"WS2812B": CLASSIC, "WS2812B-V5": V5}


def violations(timing: dict[str, Any]) -> list[str]:
    """Each measured time outside a part's window, in words; [] when every bit fits both parts."""
    found = []
    for kind in ("T0H", "T1H", "T0L", "T1L"):
        seen = timing.get(kind)
        if not seen or not seen["count"]:
            found.append(f"{kind}: never seen on the pin (no frame went out?)")
            continue
        for part, windows in PARTS.items():
            lo, hi = windows[kind]
            if seen["min"] < lo or seen["max"] > hi:
                found.append(f"{kind} {seen['min']:g}-{seen['max']:g} ns is outside the {part}'s "
                             f"{lo}-{hi} ns")
    return found

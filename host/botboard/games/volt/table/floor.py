"""The VOLT arena as the console draws it (the shape BotWars' floor uses): all public."""

from __future__ import annotations

from typing import Any

from ..arena import Arena
from ..grid import FACINGS

_SIDES = {(0, 1): 0, (1, 0): 1, (0, -1): 2, (-1, 0): 3}  # neighbour offset -> N E S W


def _edges(edges: Any, kind: str) -> list[dict[str, Any]]:
    out = []
    for edge in edges:
        a, b = sorted(edge)
        side = _SIDES[(b[0] - a[0], b[1] - a[1])]
        out.append({"x": a[0], "y": a[1], "side": FACINGS[side], "kind": kind})
    return sorted(out, key=lambda w: (w["y"], w["x"], w["side"]))


def floor_json(arena: Arena) -> dict[str, Any]:
    squares = [{"x": s[0], "y": s[1], "type": "pit"} for s in sorted(arena.pits)]
    squares += [{"x": s[0], "y": s[1], "type": "workshop"} for s in sorted(arena.workshops)]
    squares += [{"x": s[0], "y": s[1], "type": "high-voltage"} for s in sorted(arena.high_voltage)]
    squares += [{"x": s[0], "y": s[1], "type": "vp-space", "number": n} for n, s in sorted(arena.vp_spaces.items())]
    return {"name": arena.name, "title": arena.name, "width": arena.width, "height": arena.height,
            "squares": squares, "walls": _edges(arena.walls, "energy wall") + _edges(arena.barriers, "barrier"),
            "lasers": [], "flags": []}

"""How a Twin Tin Bots position stands for each seat (players/evaluate.py): points delivered and
carried, and how near the robots are to a crystal (or, carrying one, to their base)."""

from __future__ import annotations

from typing import Any

from ..declaration import Evaluation
from .hexgrid import distance
from .state import BLOB, CRYSTAL0, final_scores


def standing(state: Any) -> list[float]:
    coords = state.layout.arena.coords
    crystals = [coords[c] for c, o in enumerate(state.occ) if CRYSTAL0 < o < BLOB]
    out = [float(s) for s in final_scores(state)]
    for robot, cell in enumerate(state.cell):
        seat = robot // 2
        if seat >= len(out):
            continue
        if state.load[robot]:
            out[seat] -= 0.1 * distance(coords[cell], coords[state.layout.bases[seat]])
        elif crystals:
            out[seat] -= 0.05 * min(distance(coords[cell], c) for c in crystals)
    return out


EVALUATION = Evaluation(standing, scale=2.0)

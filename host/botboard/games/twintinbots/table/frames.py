"""A Twin Tin Bots turn's events -> timed frames of cell states.

The frames walk the events on a ``Scene`` of the state before, one picture
per visible step, and end with the picture of the engine's state after
(exact, whatever the scene guessed).
"""

from __future__ import annotations

from ....link.image import CellState
from ...base import Event
from ..state import State
from . import leds
from .scene import Scene

VISIBLE = {"move", "jump", "turn", "push", "blob", "load", "steal", "unload", "deliver", "enter",
           "zap", "fizzle", "skid", "blocked"}


def frames(before: State, events: list[Event], after: State) -> list[tuple[Event | None, dict[int, CellState]]]:
    """(event, picture) per visible event, then (None, the picture of ``after``)."""
    scene = Scene.from_state(before)
    out: list[tuple[Event | None, dict[int, CellState]]] = []
    for event in events:
        if event.kind not in VISIBLE:
            continue
        scene.apply(event)
        picture = leds.picture(scene)
        if event.kind in ("skid", "blocked") and "robot" in event.data:
            cell, look = leds.robot_mark(scene, int(event.data["robot"]), "alert", 1)
            picture[cell] = look
        out.append((event, picture))
    out.append((None, leds.picture(Scene.from_state(after))))
    return out

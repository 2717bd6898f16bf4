"""What rule steps share while an action is applied: the state being changed and the events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base import Event
from .state import Robot, State
from .tiles import Box, load_box


@dataclass
class Ctx:
    state: State
    events: list[Event] = field(default_factory=list)

    @property
    def box(self) -> Box:
        return load_box(self.state.box)

    def emit(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind, data, text))

    def roll(self) -> int:
        """One die: 1..5 or 0 for the blank. Loaded dice (scenarios) come first."""
        if self.state.loaded:
            return int(self.state.loaded.pop(0))
        return self.state.rng().randrange(6)

    def robot(self, team: int) -> Robot:
        return self.state.robots[team]


def pname(player: int) -> str:
    return f"p{player + 1}"

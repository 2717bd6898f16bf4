"""The working context of one apply: the state being changed, the board, the rules, events.

Rules modules take a ``Ctx`` so they share one place that knows the current
stage and step (for event data and the report) and who stands where.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Event
from .board import Board, Square, parse_square
from .cards import ruleset
from .events import Form, Recorded, said
from .floor import floor_of
from .state import Player, State


class Ctx:
    def __init__(self, state: State, events: list[Event] | None) -> None:
        """``events`` None: no events are built (``Game.advance``: search and benchmarks)."""
        self.state = state
        self.board: Board = state.board
        self.rules: Mapping[str, Any] = ruleset(state.ruleset)
        self.floor = floor_of(self.board, state.ruleset, self.rules)
        self.cells = self.floor.cells
        self.exits = self.board.exits  # (and these two: a step asks them)
        self.bridges = self.board.bridges
        self.entry = self.floor.entry
        self.events = events
        self.stage = 0  # 1..5 during a stage, 0 between stages
        self.step = "program"  # program | move | board | laser | check | end
        # the robots on the floor, kept while a stage runs (asked for in every pass of it):
        # only a destruction changes who they are there (``destroy`` forgets them)
        self.roster: list[Player] | None = None
        self.keep_roster = False

    def emit(self, kind: str, robot: Player | None, words: str, **data: Any) -> None:
        """Record an event; ``words`` is what the report prints in the robot's column."""
        if self.events is None:
            return
        self.events.append(Recorded(kind, (self.state.turn, self.stage, self.step, robot.name if robot else None),
                                    said, (words, data)))

    def record(self, kind: str, robot: Player | None, form: Form, *values: Any) -> None:
        """Record an event whose words and data ``form(*values)`` makes when it is read
        (events.py): for the events of every stage, which a search never reads."""
        if self.events is None:
            return
        self.events.append(Recorded(kind, (self.state.turn, self.stage, self.step, robot.name if robot else None),
                                    form, values))

    # -- who stands where ----------------------------------------------------
    def robots(self) -> list[Player]:
        """The robots on the floor (real or virtual), in player order; do not change the list."""
        if self.roster is not None:
            return self.roster
        found = [p for p in self.state.players if p.square is not None and p.mode in ("real", "virtual")]
        if self.keep_roster:
            self.roster = found
        return found

    def blocker(self, square: Square, mover: Player) -> Player | None:
        """A robot on ``square`` that ``mover`` interacts with (both real), if any."""
        if mover.mode != "real":
            return None
        for other in self.state.players:
            if other.square == square and other is not mover and other.mode == "real":
                return other
        return None

    def alone(self, robot: Player) -> bool:
        return not any(o is not robot and o.square == robot.square for o in self.robots())

    # -- board elements this ruleset knows -----------------------------------
    def element(self, square: Square) -> Mapping[str, Any] | None:
        return self.cells.get(square)

    def switch_on(self, cell: Mapping[str, Any]) -> bool:
        switch = cell.get("switch")
        return switch is not None and _square(switch) in self.state.switches

    def bridge_raised(self, square: Square) -> int | None:
        """The bridge side of a raised drawbridge on ``square``, else None."""
        if square not in self.board.bridges:
            return None
        cell = self.element(square)
        if cell is None or cell["type"] != "drawbridge" or self.switch_on(cell):
            return None
        return "NESW".index(cell["bridge"])

    def teleporter_active(self, cell: Mapping[str, Any]) -> bool:
        return bool(cell.get("active", True)) != self.switch_on(cell)


_SQUARES: dict[str, Square] = {}


def _square(text: str) -> Square:
    if text not in _SQUARES:
        _SQUARES[text] = parse_square(text)
    return _SQUARES[text]

"""A pending decision on the board: candidates pulse, the player picks one.

Every choice the engine offers is a candidate, shown on a hex: where a
crystal may enter (that hex), where a zapped blob may go (that hex; "stay"
is the blob's own hex), the order a zapped robot must perform (the hex in
front of it for Forward, front-left for Turn left, front-right for Turn
right, the robot's own hex for Load and Unload, told apart with
previous/next). The decider touches a candidate hex (a hex holding two
candidates selects them in turn), or steps through them with previous/next
and presses confirm. Nothing is chosen for them, even with one candidate.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..games.base import Decision
from ..games.twintinbots import content as C
from ..games.twintinbots.state import State

_TURN_SIDE = {"F1": 0, "L": -1, "R": 1}  # zap orders shown beside the robot: facing offset


@dataclass(frozen=True)
class Candidate:
    choice: str  # the action notation
    cell: int  # engine cell index where it is shown
    words: str


def candidates(state: State, decision: Decision) -> list[Candidate]:
    grid = state.layout.arena
    out = []
    for choice in decision.choices:
        word, _, rest = choice.partition(" ")
        if word in ("enter", "blob") and rest != "stay":
            cell = grid.cell(rest)
            words = f"{word} at {rest}"
        elif word == "blob":  # stay: the blob's own hex
            assert state.pending is not None
            cell = state.pending[2]
            words = "the blob stays"
        else:  # zap order
            assert state.pending is not None
            target = state.pending[2]
            here, face = state.cell[target], state.face[target]
            code = rest.strip().upper()
            cell = here
            if code in _TURN_SIDE:
                beside = grid.nbr[here][(face + _TURN_SIDE[code]) % 6]
                cell = beside if beside >= 0 else here
            words = C.TILE_NAMES[C.TILE_BY_CODE[code]]
        out.append(Candidate(choice, cell, words))
    return out


class Picker:
    """The decider's current selection among the candidates."""

    def __init__(self, state: State, decision: Decision) -> None:
        self.decision = decision
        self.candidates = candidates(state, decision)
        self.index = 0

    @property
    def selected(self) -> Candidate:
        return self.candidates[self.index]

    def step(self, by: int) -> Candidate:
        self.index = (self.index + by) % len(self.candidates)
        return self.selected

    def touch(self, cell: int) -> Candidate | None:
        """Select the candidate on ``cell`` (the next one there if it holds several)."""
        here = [i for i, c in enumerate(self.candidates) if c.cell == cell]
        if not here:
            return None
        later = [i for i in here if i > self.index] if self.index in here else []
        self.index = later[0] if later else here[0]
        return self.selected

    def pick(self, choice: str) -> Candidate | None:
        for i, c in enumerate(self.candidates):
            if c.choice == choice:
                self.index = i
                return c
        return None

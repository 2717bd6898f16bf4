"""A pending decision on the board: candidates pulse, the decider picks one.

The game's mapping shows every choice on a cell (``Candidate``). The decider
touches a candidate cell (a cell holding several candidates selects them in
turn), or steps through them with previous/next and presses confirm.
Nothing is chosen for them, even with one candidate.
"""

from __future__ import annotations

from ..games.base import Decision
from .mapping import Candidate


class Picker:
    """The decider's current selection among the candidates."""

    def __init__(self, decision: Decision, candidates: list[Candidate]) -> None:
        self.decision = decision
        self.candidates = candidates
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

"""How a Laser Tanks position stands for each seat (the greedy and search players): hits, then aim."""

from __future__ import annotations

from botboard.games.declaration import Evaluation

from .rules import beam
from .state import State


def standing(state: State) -> list[float]:
    """Hits scored minus hits taken, ten each; a tank with the other in its line of fire, two."""
    me, other = state.tanks
    lead = 10.0 * (me.hits - other.hits) + 2.0 * (other.square in beam(me)) - 2.0 * (me.square in beam(other))
    return [lead, -lead]


EVALUATION = Evaluation(standing, scale=10.0)
